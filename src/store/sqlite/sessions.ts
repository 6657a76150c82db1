import { LRUCache } from 'lru-cache';
import { prepare, type Runner } from './db.js';
import type { PromptLayer } from '../../core/providers/provider.js';
import type { Usage } from '../../core/messages.js';
import type { PlatformId } from '../../platform/ids.js';
import { formatSessionKey, type SessionAddress } from '../../platform/address.js';
import type { NewSession, PersonUsage, SessionRecord, SessionRepo } from '../../core/store/types.js';
import { layersOfPrompt, sessionFromRow, sessionWithPrompt, type SessionRow, type SessionRowBase } from '../rows.js';

/** Every column but the prompt's two big ones (text and layers), which the PromptCache spares a turn. */
const BASE_COLUMNS =
  'id, key, platform, person_key, chat_id, thread_id, user_id, started_at, last_active_at, ended_at, end_reason, prompt_sha256, ' +
  'tools_signature, model, prompt_rebuilds, requests, input_tokens, output_tokens, cached_tokens, cache_write_tokens';
const FIND_OPEN = `SELECT ${BASE_COLUMNS} FROM sessions WHERE key = ? AND ended_at IS NULL ORDER BY started_at DESC LIMIT 1`;
const BY_ID = `SELECT ${BASE_COLUMNS} FROM sessions WHERE id = ?`;

/**
 * A row of BASE_COLUMNS read as an array (`.raw()`), as the object the rest expects. better-sqlite3
 * builds a row object by looking each column name up again for every row; for these twenty columns
 * that was about half the cost of the read every turn makes.
 */
function baseRow(a: unknown[]): SessionRowBase {
  return {
    id: a[0] as string,
    key: a[1] as string,
    platform: a[2] as string,
    person_key: a[3] as string,
    chat_id: a[4] as string,
    thread_id: a[5] as string | null,
    user_id: a[6] as string,
    started_at: a[7] as number,
    last_active_at: a[8] as number,
    ended_at: a[9] as number | null,
    end_reason: a[10] as string | null,
    prompt_sha256: a[11] as string,
    tools_signature: a[12] as string,
    model: a[13] as string | null,
    prompt_rebuilds: a[14] as number,
    requests: a[15] as number,
    input_tokens: a[16] as number,
    output_tokens: a[17] as number,
    cached_tokens: a[18] as number,
    cache_write_tokens: a[19] as number,
  };
}

interface CachedPrompt {
  sha256: string;
  rebuilds: number;
  prompt: string;
  layers: PromptLayer[];
  /** Characters held: the prompt once when the layers' texts are slices of it, else twice. */
  chars: number;
}

/**
 * Session prompts read before, by session id, bounded by their characters (least recently used go
 * first). Every turn looks up its session; without this it read and parsed the whole prompt (many
 * kilobytes of text and JSON) each time. An entry is used only while the row's hash and rebuild
 * count are those it was read with, so a prompt replaced by anyone (another process too) is read afresh.
 * The bound, 8 M characters (a prompt, whose layers' texts are slices of it: rows.ts), holds about
 * 3,000 sessions of a few-kilobyte prompt. Past what it holds, sessions that take turns in a round
 * each find theirs evicted; their prompt is then read and parsed again every turn, and its layers are new objects,
 * so the request body is serialised whole as well (openai-body.ts keys its pieces by the layers).
 * At 1 MB that began at about 190 such sessions.
 */
export class PromptCache {
  private readonly entries: LRUCache<string, CachedPrompt>;

  constructor(maxChars = 8_000_000) {
    // A prompt bigger than the whole bound is not kept.
    this.entries = new LRUCache({ maxSize: maxChars, sizeCalculation: (e) => Math.max(1, e.chars) });
  }

  get(row: SessionRowBase): CachedPrompt | undefined {
    const e = this.entries.get(row.id);
    if (!e || e.sha256 !== row.prompt_sha256 || e.rebuilds !== row.prompt_rebuilds) return undefined;
    return e;
  }

  set(id: string, entry: CachedPrompt): void {
    this.entries.set(id, entry);
  }
}

export class SqliteSessionRepo implements SessionRepo {
  constructor(
    private readonly run: Runner,
    /** Shared by the store's repositories (an entry is checked against the row it is used for). */
    private readonly prompts: PromptCache = new PromptCache(),
  ) {}

  /** A session from a row of BASE_COLUMNS, its prompt from the cache or read (and cached). */
  private withPrompt(row: SessionRowBase): SessionRecord {
    let cached = this.prompts.get(row);
    if (!cached) {
      const p = prepare(this.db, 'SELECT prompt, prompt_layers FROM sessions WHERE id = ?').get(row.id) as Pick<SessionRow, 'prompt' | 'prompt_layers'>;
      // The layers are shared by every turn of the session: frozen, so no caller changes them for the next.
      const { layers: own, shared } = layersOfPrompt(p.prompt, JSON.parse(p.prompt_layers) as PromptLayer[]);
      const layers = Object.freeze(own.map((l) => Object.freeze(l))) as PromptLayer[];
      cached = { sha256: row.prompt_sha256, rebuilds: row.prompt_rebuilds, prompt: p.prompt, layers, chars: p.prompt.length * (shared ? 1 : 2) };
      this.prompts.set(row.id, cached);
    }
    return sessionWithPrompt(row, cached.prompt, cached.layers);
  }

  private get db() {
    return this.run.db;
  }

  async findOpen(address: SessionAddress): Promise<SessionRecord | undefined> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const key = formatSessionKey(address);
    const row = prepare(this.db, FIND_OPEN).raw().get(key) as unknown[] | undefined;
    return row && this.withPrompt(baseRow(row));
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
    const row = prepare(this.db, BY_ID).raw().get(id) as unknown[] | undefined;
    return row && this.withPrompt(baseRow(row));
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
