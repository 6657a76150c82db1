import { prepare, type Runner } from './db.js';
import type { PromptLayer } from '../../core/providers/provider.js';
import type { Usage } from '../../core/messages.js';
import type { PlatformId } from '../../platform/ids.js';
import { formatSessionKey, type SessionAddress } from '../../platform/address.js';
import type { NewSession, PersonUsage, SessionRecord, SessionRepo } from '../../core/store/types.js';
import { sessionFromRow, type SessionRow } from '../rows.js';



export class SqliteSessionRepo implements SessionRepo {
  constructor(private readonly run: Runner) {}

  private get db() {
    return this.run.db;
  }

  async findOpen(address: SessionAddress): Promise<SessionRecord | undefined> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const key = formatSessionKey(address);
    const row = prepare(this.db, 'SELECT * FROM sessions WHERE key = ? AND ended_at IS NULL ORDER BY started_at DESC LIMIT 1')
      .get(key) as SessionRow | undefined;
    return row && sessionFromRow(row);
  }

  /** Open sessions of one platform user in any chat, most recent first (`prompt` without --chat). */
  async findOpenForUser(platform: PlatformId, userId: string): Promise<SessionRecord[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const rows = prepare(this.db, 'SELECT * FROM sessions WHERE ended_at IS NULL AND platform = ? AND user_id = ? ORDER BY last_active_at DESC')
      .all(platform, userId) as SessionRow[];
    return rows.map(sessionFromRow);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return this.read(id);
  }

  private read(id: string): SessionRecord | undefined {
    const row = prepare(this.db, 'SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
    return row && sessionFromRow(row);
  }

  async create(s: NewSession): Promise<SessionRecord> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const a = s.address;
    prepare(this.db, 
        `INSERT INTO sessions (id, key, platform, chat_id, thread_id, user_id, person_key, started_at, last_active_at, prompt, prompt_sha256, prompt_layers, tools_signature, model)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(s.id, formatSessionKey(a), a.platform, a.chatId, a.threadId ?? null, a.userId, s.personKey, s.startedAt, s.startedAt, s.prompt, s.promptSha256, JSON.stringify(s.promptLayers), s.toolsSignature, s.model ?? null);
    return this.read(s.id)!;
  }

  async end(id: string, reason: string, at: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, 'UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL').run(at, reason, id);
  }

  /** Replaces the cached prompt (compression, tool change). Counted as a prefix-cache break. */
  async replacePrompt(id: string, layers: PromptLayer[], prompt: string, sha256: string, toolsSignature: string): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, 
        'UPDATE sessions SET prompt = ?, prompt_sha256 = ?, prompt_layers = ?, tools_signature = ?, prompt_rebuilds = prompt_rebuilds + 1 WHERE id = ?',
      )
      .run(prompt, sha256, JSON.stringify(layers), toolsSignature, id);
  }

  async recordTurn(id: string, at: number, usage: Usage, requests: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, 
        `UPDATE sessions SET last_active_at = ?, requests = requests + ?, input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
         cached_tokens = cached_tokens + ?, cache_write_tokens = cache_write_tokens + ? WHERE id = ?`,
      )
      .run(at, requests, usage.inputTokens, usage.outputTokens, usage.cachedTokens, usage.cacheWriteTokens, id);
  }

  /**
   * Adds model usage spent on a session outside its turns (compression, search summaries) without
   * touching last activity, so the usage figures cover every model call.
   */
  async addUsage(id: string, usage: Usage, requests: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, 
        `UPDATE sessions SET requests = requests + ?, input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
         cached_tokens = cached_tokens + ?, cache_write_tokens = cache_write_tokens + ? WHERE id = ?`,
      )
      .run(requests, usage.inputTokens, usage.outputTokens, usage.cachedTokens, usage.cacheWriteTokens, id);
  }

  async list(options: { limit?: number; personKey?: string } = {}): Promise<SessionRecord[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const limit = options.limit ?? 50;
    const rows = options.personKey
      ? (prepare(this.db, 'SELECT * FROM sessions WHERE person_key = ? ORDER BY last_active_at DESC LIMIT ?').all(options.personKey, limit) as SessionRow[])
      : (prepare(this.db, 'SELECT * FROM sessions ORDER BY last_active_at DESC LIMIT ?').all(limit) as SessionRow[]);
    return rows.map(sessionFromRow);
  }

  async page(offset: number, limit: number): Promise<SessionRecord[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const rows = prepare(this.db, 'SELECT * FROM sessions ORDER BY last_active_at DESC, id LIMIT ? OFFSET ?').all(limit, offset) as SessionRow[];
    return rows.map(sessionFromRow);
  }

  /** Usage per person over all their sessions, the busiest first (`switchboard sessions list`). */
  async usageByPeople(): Promise<Array<PersonUsage & { personKey: string }>> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const rows = prepare(this.db, 
        `SELECT person_key AS personKey, COUNT(*) AS sessions, SUM(requests) AS requests, SUM(input_tokens) AS inputTokens,
         SUM(output_tokens) AS outputTokens, SUM(cached_tokens) AS cachedTokens, SUM(cache_write_tokens) AS cacheWriteTokens
         FROM sessions GROUP BY person_key ORDER BY SUM(input_tokens) + SUM(output_tokens) DESC, person_key`,
      )
      .all() as Array<PersonUsage & { personKey: string }>;
    return rows;
  }

  /** Number of stored sessions. */
  async count(): Promise<number> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return (prepare(this.db, 'SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;
  }

  async usageByPerson(personKey: string): Promise<PersonUsage> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const r = prepare(this.db, 
        `SELECT COUNT(*) AS sessions, COALESCE(SUM(requests),0) AS requests, COALESCE(SUM(input_tokens),0) AS i, COALESCE(SUM(output_tokens),0) AS o,
         COALESCE(SUM(cached_tokens),0) AS c, COALESCE(SUM(cache_write_tokens),0) AS w FROM sessions WHERE person_key = ?`,
      )
      .get(personKey) as { sessions: number; requests: number; i: number; o: number; c: number; w: number };
    return { sessions: r.sessions, requests: r.requests, inputTokens: r.i, outputTokens: r.o, cachedTokens: r.c, cacheWriteTokens: r.w };
  }
}
