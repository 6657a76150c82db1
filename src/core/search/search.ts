/**
 * Session search for one person (ARCHITECTURE.md §7, §7b): FTS5 over that person's other sessions, ranked by
 * bm25, grouped by session. Ownership is enforced by the store's query (MessageRepo.search takes the
 * person), never by filtering afterwards, so another person's words cannot even be ranked against
 * this person's.
 */
import type { Repositories, SearchHit } from '../store/types.js';
import { analyzeQuery } from './query.js';

/** Hits fetched to rank sessions and decide breadth; the hit list shown is cut to the caller's limit. */
const CANDIDATE_HITS = 50;
/** Matches spread over more sessions than this make a question broad (summarised by the model). */
export const BROAD_MIN_SESSIONS = 3;

export interface SessionMatches {
  sessionId: string;
  platform: string;
  startedAt: number;
  /** bm25 of the best hit (lower is better). */
  bestRank: number;
  hits: SearchHit[];
}

export interface SessionSearchResult {
  terms: string[];
  /** The question asks for an overview, or its matches spread over many sessions. */
  broad: boolean;
  /** Best hits first, at most `limit`. */
  hits: SearchHit[];
  /** Sessions with matches, best first (all candidates, not cut to `limit`). */
  sessions: SessionMatches[];
  /** Nothing to search for: an overview of the person's most recent other sessions. */
  recent: Array<{ sessionId: string; platform: string; startedAt: number }>;
}

export interface SessionSearchOptions {
  /** The session asking (never searched: its content is already in the context). */
  excludeSessionId?: string;
  limit?: number;
  /** Sessions listed for a topic-less overview question. */
  recentSessions?: number;
}

/** Groups hits by session in rank order. */
export function groupBySession(hits: readonly SearchHit[]): SessionMatches[] {
  const map = new Map<string, SessionMatches>();
  for (const hit of hits) {
    let s = map.get(hit.sessionId);
    if (!s) {
      s = { sessionId: hit.sessionId, platform: hit.platform, startedAt: hit.sessionStartedAt, bestRank: hit.rank, hits: [] };
      map.set(hit.sessionId, s);
    }
    s.hits.push(hit);
  }
  return [...map.values()].sort((a, b) => a.bestRank - b.bestRank);
}

/** Searches one person's other sessions. Pure storage work: no model call. */
export async function searchSessions(
  store: Pick<Repositories, 'sessions' | 'messages'>,
  personKey: string,
  question: string,
  options: SessionSearchOptions = {},
): Promise<SessionSearchResult> {
  const limit = options.limit ?? 5;
  const { terms, asksOverview } = analyzeQuery(question);
  if (!terms.length) {
    const wanted = options.recentSessions ?? BROAD_MIN_SESSIONS;
    const recent: SessionSearchResult['recent'] = [];
    for (const s of await store.sessions.list({ personKey, limit: wanted + 10 })) {
      if (recent.length >= wanted) break;
      if (s.id === options.excludeSessionId || (await store.messages.count(s.id)) === 0) continue;
      recent.push({ sessionId: s.id, platform: s.platform, startedAt: s.startedAt });
    }
    return { terms, broad: asksOverview, hits: [], sessions: [], recent };
  }
  const candidates = await store.messages.search(personKey, terms.join(' '), {
    excludeSessionId: options.excludeSessionId,
    limit: Math.max(CANDIDATE_HITS, limit),
  });
  const sessions = groupBySession(candidates);
  return {
    terms,
    broad: candidates.length > 0 && (asksOverview || sessions.length > BROAD_MIN_SESSIONS),
    hits: candidates.slice(0, limit),
    sessions,
    recent: [],
  };
}
