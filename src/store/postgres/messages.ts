import type { Runner } from './db.js';
import type { ChatMessage, Usage } from '../../core/messages.js';
import type { DailyActivity, ModelUsage, MessageRepo, SearchHit, TranscriptLine } from '../../core/store/types.js';
import { mediaColumn, toChat, transcriptLine, type MessageRow } from '../rows.js';



/** Scripts written without spaces between words: the 'simple' parser sees a whole run as one word. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

export interface PgSearchQuery {
  /** `to_tsquery` text: the words OR-joined (each word only letters, digits, `_`, so nothing to escape). */
  tsquery: string;
  /** ILIKE patterns for words in unspaced scripts, matched as substrings. */
  substrings: string[];
}

/** Free text → the query: spaced words to the full-text index, CJK (and Thai) words as substrings. */
/**
 * One history row's columns (role, content, tool_calls, tool_call_id, tool_name, input_tokens,
 * output_tokens, cached_tokens, media), for `append` and the turn's one write (turns.ts). `usage`: the
 * turn's, given for the last row (kept on it when that row is the assistant's).
 */
export function historyRow(m: ChatMessage, usage?: Usage): unknown[] {
  if (m.role === 'tool') return ['tool', m.content, null, m.toolCallId, m.name, null, null, null, null];
  if (m.role === 'assistant') {
    return ['assistant', m.content, m.toolCalls?.length ? JSON.stringify(m.toolCalls) : null, null, null,
      usage?.inputTokens ?? null, usage?.outputTokens ?? null, usage?.cachedTokens ?? null, mediaColumn(m)];
  }
  return ['user', m.content, null, null, null, null, null, null, mediaColumn(m)];
}

export function toPgQuery(text: string): PgSearchQuery {
  const words = [...new Set((text.match(/[\p{L}\p{N}_]+/gu) ?? []).map((w) => w.toLowerCase()))];
  const spaced = words.filter((w) => !UNSPACED.test(w)).flatMap((w) => w.split('_').filter(Boolean));
  const unspaced = words.filter((w) => UNSPACED.test(w));
  return { tsquery: spaced.join(' | '), substrings: unspaced.map((w) => `%${w}%`) };
}

/** A snippet around the first substring match, marked like ts_headline's: `…before [match] after…`. */
function substringSnippet(content: string, substrings: readonly string[]): string {
  const lower = content.toLowerCase();
  for (const pattern of substrings) {
    const word = pattern.slice(1, -1);
    const at = lower.indexOf(word);
    if (at < 0) continue;
    const start = Math.max(0, at - 24);
    const end = Math.min(content.length, at + word.length + 24);
    return `${start > 0 ? '…' : ''}${content.slice(start, at)}[${content.slice(at, at + word.length)}]${content.slice(at + word.length, end)}${end < content.length ? '…' : ''}`;
  }
  return content.slice(0, 60);
}

const HEADLINE = `'StartSel=[, StopSel=], MaxWords=14, MinWords=6, ShortWord=1, MaxFragments=1, FragmentDelimiter=…'`;

/**
 * One search statement for both the person-scoped tool and the operator's search. Ranked by
 * ts_rank (higher is better), returned as its negative so that lower is better, as with FTS5's bm25.
 * A substring-only hit (CJK) ranks below a word hit of the same message.
 */
function searchSql(personScoped: boolean): string {
  return `
    WITH q AS (SELECT CASE WHEN $1 = '' THEN NULL ELSE to_tsquery('simple', $1) || to_tsquery('english', $1) END AS query)
    SELECT m.id AS "messageId", m.session_id AS "sessionId", m.person_key AS "personKey", s.platform, s.started_at AS "sessionStartedAt",
           m.created_at AS "createdAt", m.role, m.content,
           COALESCE(m.tsv @@ q.query, false) AS "wordHit",
           CASE WHEN m.tsv @@ q.query THEN ts_headline('simple', m.content, q.query, ${HEADLINE}) END AS snippet,
           COALESCE(ts_rank(m.tsv, q.query), 0) + CASE WHEN m.content ILIKE ANY($2::text[]) THEN 0.05 ELSE 0 END AS score
    FROM q, messages m JOIN sessions s ON s.id = m.session_id
    WHERE m.role IN ('user','assistant')
      AND (m.tsv @@ q.query OR (cardinality($2::text[]) > 0 AND m.content ILIKE ANY($2::text[])))
      ${personScoped ? 'AND m.person_key = $4 AND m.session_id <> $5' : ''}
    ORDER BY score DESC, m.id DESC
    LIMIT $3`;
}

interface HitRow extends SearchHit {
  [column: string]: unknown;
  personKey: string;
  content: string;
  wordHit: boolean;
  score: number;
  snippet: string;
}

function toHit(r: HitRow, substrings: readonly string[]): SearchHit & { personKey: string } {
  return {
    messageId: r.messageId,
    sessionId: r.sessionId,
    personKey: r.personKey,
    platform: r.platform,
    sessionStartedAt: r.sessionStartedAt,
    createdAt: r.createdAt,
    role: r.role,
    snippet: r.wordHit ? r.snippet : substringSnippet(r.content, substrings),
    rank: -r.score,
  };
}

export class PgMessageRepo implements MessageRepo {
  constructor(private readonly run: Runner) {}

  /** The summary and the rows in one statement (one round trip): the summary rides on the first row, or alone when there is none. */
  async history(sessionId: string): Promise<ChatMessage[]> {
    const rows = await this.run.rows<MessageRow & { summary: string | null }>(
      `SELECT m.id, m.role, m.content, m.tool_calls, m.tool_call_id, m.tool_name, s.summary
       FROM sessions s LEFT JOIN messages m ON m.session_id = s.id AND NOT m.compressed
       WHERE s.id = $1 ORDER BY m.id`,
      [sessionId],
    );
    const summary = rows[0]?.summary;
    const out = rows.filter((r) => r.id !== null).map(toChat);
    return summary ? [{ role: 'user', content: summary }, ...out] : out;
  }

  async historyRows(sessionId: string): Promise<Array<{ id: number; message: ChatMessage }>> {
    return (await this.rowsOf(sessionId)).map((r) => ({ id: r.id, message: toChat(r) }));
  }

  private rowsOf(sessionId: string): Promise<MessageRow[]> {
    return this.run.rows<MessageRow>(
      'SELECT id, role, content, tool_calls, tool_call_id, tool_name, media FROM messages WHERE session_id = $1 AND NOT compressed ORDER BY id',
      [sessionId],
    );
  }

  /** All rows of one append in one statement (one round trip, and atomic). */
  async append(sessionId: string, personKey: string, messages: readonly ChatMessage[], at: number, usage?: Usage): Promise<void> {
    if (!messages.length) return;
    const values: unknown[] = [];
    const tuples = messages.map((m, i) => {
      const row = historyRow(m, i === messages.length - 1 ? usage : undefined);
      const base = values.length;
      values.push(...row);
      return `($1, $2, ${row.map((_, k) => `$${base + k + 4}`).join(', ')}, $3)`;
    });
    await this.run.exec(
      `INSERT INTO messages (session_id, person_key, role, content, tool_calls, tool_call_id, tool_name, input_tokens, output_tokens, cached_tokens, media, created_at)
       VALUES ${tuples.join(', ')}`,
      [sessionId, personKey, at, ...values],
    );
  }

  async compress(sessionId: string, rowIds: readonly number[], summary: string): Promise<void> {
    await this.run.atomic(async (run) => {
      await run.exec('UPDATE messages SET compressed = TRUE WHERE session_id = $1 AND id = ANY($2::bigint[])', [sessionId, rowIds]);
      await run.exec('UPDATE sessions SET summary = $1 WHERE id = $2', [summary, sessionId]);
    });
  }

  async summary(sessionId: string): Promise<string | null> {
    const [row] = await this.run.rows<{ summary: string | null }>('SELECT summary FROM sessions WHERE id = $1', [sessionId]);
    return row?.summary ?? null;
  }

  async transcript(sessionId: string, personKey: string, page?: { offset: number; limit: number }): Promise<TranscriptLine[]> {
    const rows = await this.run.rows<{ id: number; role: 'user' | 'assistant'; content: string; createdAt: number; media: string | null }>(
      `SELECT id, role, content, created_at AS "createdAt", media FROM messages
       WHERE session_id = $1 AND person_key = $2 AND role IN ('user','assistant') AND (content <> '' OR media IS NOT NULL) ORDER BY id
       LIMIT $3 OFFSET $4`,
      [sessionId, personKey, page?.limit ?? null, page?.offset ?? 0],
    );
    return rows.map(transcriptLine);
  }

  async count(sessionId: string): Promise<number> {
    const [r] = await this.run.rows<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE session_id = $1', [sessionId]);
    return r.n;
  }

  async search(personKey: string, query: string, options: { excludeSessionId?: string; limit?: number } = {}): Promise<SearchHit[]> {
    const q = toPgQuery(query);
    if (!q.tsquery && !q.substrings.length) return [];
    const rows = await this.run.rows<HitRow>(searchSql(true), [q.tsquery, q.substrings, options.limit ?? 20, personKey, options.excludeSessionId ?? '']);
    return rows.map((r) => {
      const { personKey: _owner, ...hit } = toHit(r, q.substrings);
      return hit;
    });
  }

  async searchAll(query: string, limit = 20): Promise<Array<SearchHit & { personKey: string }>> {
    const q = toPgQuery(query);
    if (!q.tsquery && !q.substrings.length) return [];
    const rows = await this.run.rows<HitRow>(searchSql(false), [q.tsquery, q.substrings, limit]);
    return rows.map((r) => toHit(r, q.substrings));
  }

  async daily(since: number, until: number, offsetMs: number): Promise<DailyActivity[]> {
    return this.run.rows<DailyActivity>(
      `SELECT ((created_at + $1) / 86400000)::bigint AS day, COUNT(*) FILTER (WHERE role IN ('user','assistant'))::bigint AS messages,
              COALESCE(SUM(input_tokens), 0)::bigint AS "inputTokens", COALESCE(SUM(cached_tokens), 0)::bigint AS "cachedTokens"
       FROM messages WHERE created_at >= $2 AND created_at < $3 GROUP BY 1 ORDER BY 1`,
      [offsetMs, since, until],
    );
  }

  async usageSince(since: number, who: { personKey: string } | { platform: string }): Promise<ModelUsage[]> {
    const byPerson = 'personKey' in who;
    return this.run.rows<ModelUsage>(
      `SELECT s.model AS model, COALESCE(SUM(m.input_tokens), 0)::bigint AS "inputTokens", COALESCE(SUM(m.cached_tokens), 0)::bigint AS "cachedTokens",
              COALESCE(SUM(m.output_tokens), 0)::bigint AS "outputTokens"
       FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE ${byPerson ? 'm.person_key' : 's.platform'} = $1 AND m.created_at >= $2 AND m.input_tokens IS NOT NULL GROUP BY s.model`,
      [byPerson ? who.personKey : who.platform, since],
    );
  }

  async usageByPeopleSince(since: number): Promise<Array<ModelUsage & { personKey: string }>> {
    return this.run.rows<ModelUsage & { personKey: string }>(
      `SELECT m.person_key AS "personKey", s.model AS model, COALESCE(SUM(m.input_tokens), 0)::bigint AS "inputTokens",
              COALESCE(SUM(m.cached_tokens), 0)::bigint AS "cachedTokens", COALESCE(SUM(m.output_tokens), 0)::bigint AS "outputTokens"
       FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE m.created_at >= $1 AND m.input_tokens IS NOT NULL GROUP BY m.person_key, s.model`,
      [since],
    );
  }
}
