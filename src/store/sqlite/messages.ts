import { LRUCache } from 'lru-cache';
import { prepare, type Runner } from './db.js';
import type { ChatMessage, Usage } from '../../core/messages.js';
import type { DailyActivity, MessageRepo, ModelUsage, SearchHit, TranscriptLine } from '../../core/store/types.js';
import { mediaColumn, toChat, transcriptLine, type MessageRow } from '../rows.js';
import type { FtsIndexer } from './fts-index.js';

/** Turns free text into a safe FTS5 query: each word quoted, OR-joined (bm25 ranks the best match first). */
export function toFtsQuery(text: string): string {
  const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.map((w) => w.toLowerCase()))].map((w) => `"${w}"`).join(' OR ');
}

interface CachedHistory {
  /** Highest row id, rows in all and compressed rows of the session when it was read. */
  last: number;
  count: number;
  folded: number;
  summary: string | null;
  /** PRAGMA data_version and the cache's generation when it was last checked against the table. */
  version: number;
  generation: number;
  /** The uncompressed rows, oldest first. */
  rows: ChatMessage[];
  chars: number;
}

/**
 * Histories read before, per session, bounded by their total characters (least recently used go
 * first). Every turn replays the whole history; with this, a turn reads only the rows added since
 * the last one. While no other connection has committed anything (PRAGMA data_version) and this one
 * has only appended (compression and deletes call `invalidate`), the rows after the highest id known
 * are all that changed; otherwise each use is checked against the table (highest id, row count,
 * compressed count, summary), so rows written by another process or compression are never missed.
 *
 * The bound, about 16 MB of messages, holds a few hundred busy chat sessions of some hundred turns
 * each, or some sixty at a 64k-token context. Sessions that take turns in a round past what it holds
 * each find theirs evicted (the least recently used is the one asked for next) and read their whole
 * history again every turn: at 2 MB that happened to 100 users after about 170 turns each, and
 * tripled the CPU a message cost.
 */
export class HistoryCache {
  private readonly entries: LRUCache<string, CachedHistory>;
  /** Bumped by every write of this connection that changes or removes history rows. */
  generation = 0;

  /** This connection changed or deleted rows (compression, retention): every entry is checked in full next time. */
  invalidate(): void {
    this.generation++;
  }

  constructor(maxChars = 16_000_000) {
    // A history longer than the whole bound is not kept; an empty one counts as one character.
    this.entries = new LRUCache({ maxSize: maxChars, sizeCalculation: (e) => Math.max(1, e.chars) });
  }

  get(sessionId: string): CachedHistory | undefined {
    return this.entries.get(sessionId);
  }

  set(sessionId: string, entry: CachedHistory): void {
    this.entries.set(sessionId, entry);
  }
}

const DAY_MS = 86_400_000;

const charsOf = (rows: readonly ChatMessage[]) => rows.reduce((n, m) => n + m.content.length + 32, 0);

export class SqliteMessageRepo implements MessageRepo {
  constructor(
    private readonly run: Runner,
    /** Brings messages_fts up to date before a search; told of appended rows. */
    private readonly fts: FtsIndexer,
    /** Shared by the store's repositories; used only outside transactions (committed rows only). */
    private readonly cache?: HistoryCache,
  ) {}

  private get db() {
    return this.run.db;
  }

  /** The replayable history of a session: the compression summary (if any), then the kept rows, oldest first. */
  async history(sessionId: string): Promise<ChatMessage[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    if (!this.cache || this.run.bound || this.db.inTransaction) return this.replay(sessionId);
    // The three or four reads below in one read transaction: one snapshot, and the file locks taken
    // and given back once rather than per statement. Nothing awaits in between, so no other caller's
    // statement can land inside it.
    prepare(this.db, 'BEGIN').run();
    try {
      return this.replay(sessionId, this.cache);
    } finally {
      if (this.db.inTransaction) prepare(this.db, 'COMMIT').run();
    }
  }

  private replay(sessionId: string, cache?: HistoryCache): ChatMessage[] {
    const summary = (prepare(this.db, 'SELECT summary FROM sessions WHERE id = ?').pluck().get(sessionId) as string | null | undefined) ?? null;
    const rows = cache ? this.cachedRows(sessionId, summary, cache) : this.readRows(sessionId, 0);
    return summary ? [{ role: 'user', content: summary }, ...rows] : rows.slice();
  }

  private readRows(sessionId: string, after: number): ChatMessage[] {
    return (
      prepare(this.db, 'SELECT id, role, content, tool_calls, tool_call_id, tool_name, media FROM messages WHERE session_id = ? AND compressed = 0 AND id > ? ORDER BY id')
        .all(sessionId, after) as MessageRow[]
    ).map(toChat);
  }

  /** The uncompressed rows, from the cache plus what was added since, or read afresh when anything else changed. */
  private cachedRows(sessionId: string, summary: string | null, cache: HistoryCache): ChatMessage[] {
    const dataVersion = prepare(this.db, 'PRAGMA data_version').pluck();
    const generation = cache.generation;
    const known = cache.get(sessionId);
    if (known && known.generation === generation && known.summary === summary) {
      const added = this.readWithIds(sessionId, known.last);
      // No other connection committed since the entry was checked (read after the rows, so none did
      // before they were read), and this one only appended: the new rows are those after it.
      if (dataVersion.get() === known.version) {
        if (!added.length) return known.rows;
        const fresh = added.map((a) => a.message);
        // In place: the cache's array is never handed out (replay copies it), and a copy per turn
        // of a long history was garbage that lived until the next turn, long enough to be promoted.
        for (const m of fresh) known.rows.push(m);
        cache.set(sessionId, { ...known, last: added[added.length - 1].id, count: known.count + added.length, chars: known.chars + charsOf(fresh) });
        return known.rows;
      }
    }
    // Read before the check: a commit by another connection after it makes the next use check again.
    const version = dataVersion.get() as number;
    const now = prepare(this.db, 'SELECT COALESCE(max(id), 0) AS last, count(*) AS count, total(compressed) AS folded FROM messages WHERE session_id = ?')
      .get(sessionId) as { last: number; count: number; folded: number };
    if (known && known.summary === summary && known.folded === now.folded && known.last <= now.last) {
      if (known.last === now.last && known.count === now.count) {
        cache.set(sessionId, { ...known, version, generation });
        return known.rows;
      }
      const added = this.readRows(sessionId, known.last);
      if (known.count + added.length === now.count) {
        for (const m of added) known.rows.push(m);
        cache.set(sessionId, { ...now, summary, version, generation, rows: known.rows, chars: known.chars + charsOf(added) });
        return known.rows;
      }
    }
    const rows = this.readRows(sessionId, 0);
    cache.set(sessionId, { ...now, summary, version, generation, rows, chars: charsOf(rows) });
    return rows;
  }

  /** Rows after `after` (uncompressed ones), with their ids. */
  private readWithIds(sessionId: string, after: number): Array<{ id: number; message: ChatMessage }> {
    return (
      prepare(this.db, 'SELECT id, role, content, tool_calls, tool_call_id, tool_name, media FROM messages WHERE session_id = ? AND compressed = 0 AND id > ? ORDER BY id')
        .all(sessionId, after) as MessageRow[]
    ).map((r) => ({ id: r.id, message: toChat(r) }));
  }

  /** MessageRow ids with the history, for compression. */
  async historyRows(sessionId: string): Promise<Array<{ id: number; message: ChatMessage }>> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const rows = prepare(this.db, 'SELECT id, role, content, tool_calls, tool_call_id, tool_name, media FROM messages WHERE session_id = ? AND compressed = 0 ORDER BY id')
      .all(sessionId) as MessageRow[];
    return rows.map((r) => ({ id: r.id, message: toChat(r) }));
  }

  async append(sessionId: string, personKey: string, messages: readonly ChatMessage[], at: number, usage?: Usage): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const insert = prepare(this.db, 
      `INSERT INTO messages (session_id, person_key, role, content, tool_calls, tool_call_id, tool_name, created_at, input_tokens, output_tokens, cached_tokens, media)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    messages.forEach((m, i) => {
      const last = i === messages.length - 1 && m.role === 'assistant' && usage;
      if (m.role === 'tool') insert.run(sessionId, personKey, 'tool', m.content, null, m.toolCallId, m.name, at, null, null, null, null);
      else if (m.role === 'assistant')
        insert.run(
          sessionId,
          personKey,
          'assistant',
          m.content,
          m.toolCalls?.length ? JSON.stringify(m.toolCalls) : null,
          null,
          null,
          at,
          last ? usage.inputTokens : null,
          last ? usage.outputTokens : null,
          last ? usage.cachedTokens : null,
          mediaColumn(m),
        );
      else insert.run(sessionId, personKey, 'user', m.content, null, null, null, at, null, null, null, mediaColumn(m));
    });
    this.fts.appended(messages.length);
  }

  /**
   * Compression: marks rows as compressed away (they stay searchable) and stores the summary that
   * replaces them; history() replays the summary first, as a user message.
   */
  async compress(sessionId: string, rowIds: readonly number[], summary: string): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const mark = prepare(this.db, 'UPDATE messages SET compressed = 1 WHERE id = ? AND session_id = ?');
    this.cache?.invalidate();
    this.db.transaction(() => {
      for (const id of rowIds) mark.run(id, sessionId);
      prepare(this.db, 'UPDATE sessions SET summary = ? WHERE id = ?').run(summary, sessionId);
    })();
  }

  /** The compression summary that replaces a session's older rows, if any. */
  async summary(sessionId: string): Promise<string | null> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return (prepare(this.db, 'SELECT summary FROM sessions WHERE id = ?').pluck().get(sessionId) as string | null | undefined) ?? null;
  }

  /**
   * The user and assistant messages of one session (compressed ones too), oldest first — only if the
   * session belongs to `personKey`, so a caller can never read another person's session by id.
   */
  async transcript(sessionId: string, personKey: string, page?: { offset: number; limit: number }): Promise<TranscriptLine[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const rows = prepare(this.db, 
        `SELECT id, role, content, created_at AS createdAt, media FROM messages
         WHERE session_id = ? AND person_key = ? AND role IN ('user','assistant') AND (content != '' OR media IS NOT NULL) ORDER BY id LIMIT ? OFFSET ?`,
      )
      .all(sessionId, personKey, page?.limit ?? -1, page?.offset ?? 0) as Array<{ id: number; role: 'user' | 'assistant'; content: string; createdAt: number; media: string | null }>;
    return rows.map(transcriptLine);
  }

  async count(sessionId: string): Promise<number> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return (prepare(this.db, 'SELECT COUNT(*) AS n FROM messages WHERE session_id = ?').get(sessionId) as { n: number }).n;
  }

  /** FTS5 search over one person's messages (never anyone else's), optionally excluding a session. */
  async search(personKey: string, query: string, options: { excludeSessionId?: string; limit?: number } = {}): Promise<SearchHit[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const fts = toFtsQuery(query);
    if (!fts) return [];
    this.fts.indexPending();
    const rows = prepare(this.db, 
        `SELECT m.id AS messageId, m.session_id AS sessionId, s.platform AS platform, s.started_at AS sessionStartedAt, m.created_at AS createdAt, m.role AS role,
                snippet(messages_fts, 0, '[', ']', '…', 12) AS snippet, bm25(messages_fts) AS rank
         FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
         WHERE messages_fts MATCH ? AND m.person_key = ? AND m.session_id != ?
         ORDER BY rank LIMIT ?`,
      )
      .all(fts, personKey, options.excludeSessionId ?? '', options.limit ?? 20) as SearchHit[];
    return rows;
  }

  /** Operator search across everyone (the `sessions search` command). */
  async searchAll(query: string, limit = 20): Promise<Array<SearchHit & { personKey: string }>> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const fts = toFtsQuery(query);
    if (!fts) return [];
    this.fts.indexPending();
    return prepare(this.db, 
        `SELECT m.id AS messageId, m.session_id AS sessionId, m.person_key AS personKey, s.platform AS platform, s.started_at AS sessionStartedAt,
                m.created_at AS createdAt, m.role AS role, snippet(messages_fts, 0, '[', ']', '…', 12) AS snippet, bm25(messages_fts) AS rank
         FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
         WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?`,
      )
      .all(fts, limit) as Array<SearchHit & { personKey: string }>;
  }

  /**
   * One aggregate per day over the covering index `messages_created` rather than one GROUP BY: each is
   * a plain range scan, with no sorter holding the week's rows in this process's memory.
   */
  async daily(since: number, until: number, offsetMs: number): Promise<DailyActivity[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const day = prepare(this.db,
      `SELECT COUNT(*) FILTER (WHERE role IN ('user','assistant')) AS messages,
              COALESCE(SUM(input_tokens), 0) AS inputTokens, COALESCE(SUM(cached_tokens), 0) AS cachedTokens
       FROM messages WHERE created_at >= ? AND created_at < ?`,
    );
    const out: DailyActivity[] = [];
    for (let d = Math.floor((since + offsetMs) / DAY_MS); d * DAY_MS - offsetMs < until; d++) {
      const from = Math.max(since, d * DAY_MS - offsetMs);
      const to = Math.min(until, (d + 1) * DAY_MS - offsetMs);
      const r = day.get(from, to) as Omit<DailyActivity, 'day'>;
      if (r.messages > 0 || r.inputTokens > 0) out.push({ day: d, ...r });
    }
    return out;
  }

  async usageSince(since: number, who: { personKey: string } | { platform: string }): Promise<ModelUsage[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const byPerson = 'personKey' in who;
    return prepare(this.db,
      `SELECT s.model AS model, COALESCE(SUM(m.input_tokens), 0) AS inputTokens, COALESCE(SUM(m.cached_tokens), 0) AS cachedTokens,
              COALESCE(SUM(m.output_tokens), 0) AS outputTokens
       FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE ${byPerson ? 'm.person_key' : 's.platform'} = ? AND m.created_at >= ? AND m.input_tokens IS NOT NULL GROUP BY s.model`,
    ).all(byPerson ? who.personKey : who.platform, since) as ModelUsage[];
  }

  async usageByPeopleSince(since: number): Promise<Array<ModelUsage & { personKey: string }>> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return prepare(this.db,
      `SELECT m.person_key AS personKey, s.model AS model, COALESCE(SUM(m.input_tokens), 0) AS inputTokens,
              COALESCE(SUM(m.cached_tokens), 0) AS cachedTokens, COALESCE(SUM(m.output_tokens), 0) AS outputTokens
       FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE m.created_at >= ? AND m.input_tokens IS NOT NULL GROUP BY m.person_key, s.model`,
    ).all(since) as Array<ModelUsage & { personKey: string }>;
  }
}
