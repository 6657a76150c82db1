import type { Runner } from './db.js';
import type { PromptLayer } from '../../core/providers/provider.js';
import type { Usage } from '../../core/messages.js';
import type { PlatformId } from '../../platform/ids.js';
import { formatSessionKey, type SessionAddress } from '../../platform/address.js';
import type { NewSession, PersonUsage, SessionRecord, SessionRepo } from '../../core/store/types.js';
import { sessionFromRow, type SessionRow } from '../rows.js';



const SUMS = `COUNT(*) AS sessions, COALESCE(SUM(requests),0)::bigint AS requests, COALESCE(SUM(input_tokens),0)::bigint AS "inputTokens",
  COALESCE(SUM(output_tokens),0)::bigint AS "outputTokens", COALESCE(SUM(cached_tokens),0)::bigint AS "cachedTokens",
  COALESCE(SUM(cache_write_tokens),0)::bigint AS "cacheWriteTokens"`;

export class PgSessionRepo implements SessionRepo {
  constructor(private readonly run: Runner) {}

  async findOpen(address: SessionAddress): Promise<SessionRecord | undefined> {
    const [row] = await this.run.rows<SessionRow>(
      'SELECT * FROM sessions WHERE key = $1 AND ended_at IS NULL ORDER BY started_at DESC LIMIT 1',
      [formatSessionKey(address)],
    );
    return row && sessionFromRow(row);
  }

  async findOpenForUser(platform: PlatformId, userId: string): Promise<SessionRecord[]> {
    const rows = await this.run.rows<SessionRow>(
      'SELECT * FROM sessions WHERE ended_at IS NULL AND platform = $1 AND user_id = $2 ORDER BY last_active_at DESC',
      [platform, userId],
    );
    return rows.map(sessionFromRow);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const [row] = await this.run.rows<SessionRow>('SELECT * FROM sessions WHERE id = $1', [id]);
    return row && sessionFromRow(row);
  }

  async create(s: NewSession): Promise<SessionRecord> {
    const a = s.address;
    const [row] = await this.run.rows<SessionRow>(
      `INSERT INTO sessions (id, key, platform, chat_id, thread_id, user_id, person_key, started_at, last_active_at, prompt, prompt_sha256, prompt_layers, tools_signature, model)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, $12, $13) RETURNING *`,
      [s.id, formatSessionKey(a), a.platform, a.chatId, a.threadId ?? null, a.userId, s.personKey, s.startedAt, s.prompt, s.promptSha256, JSON.stringify(s.promptLayers), s.toolsSignature, s.model ?? null],
    );
    return sessionFromRow(row);
  }

  async end(id: string, reason: string, at: number): Promise<void> {
    await this.run.exec('UPDATE sessions SET ended_at = $1, end_reason = $2 WHERE id = $3 AND ended_at IS NULL', [at, reason, id]);
  }

  async replacePrompt(id: string, layers: PromptLayer[], prompt: string, sha256: string, toolsSignature: string): Promise<void> {
    await this.run.exec(
      'UPDATE sessions SET prompt = $1, prompt_sha256 = $2, prompt_layers = $3, tools_signature = $4, prompt_rebuilds = prompt_rebuilds + 1 WHERE id = $5',
      [prompt, sha256, JSON.stringify(layers), toolsSignature, id],
    );
  }

  async recordTurn(id: string, at: number, usage: Usage, requests: number): Promise<void> {
    await this.run.exec(
      `UPDATE sessions SET last_active_at = $1, requests = requests + $2, input_tokens = input_tokens + $3, output_tokens = output_tokens + $4,
       cached_tokens = cached_tokens + $5, cache_write_tokens = cache_write_tokens + $6 WHERE id = $7`,
      [at, requests, usage.inputTokens, usage.outputTokens, usage.cachedTokens, usage.cacheWriteTokens, id],
    );
  }

  async addUsage(id: string, usage: Usage, requests: number): Promise<void> {
    await this.run.exec(
      `UPDATE sessions SET requests = requests + $1, input_tokens = input_tokens + $2, output_tokens = output_tokens + $3,
       cached_tokens = cached_tokens + $4, cache_write_tokens = cache_write_tokens + $5 WHERE id = $6`,
      [requests, usage.inputTokens, usage.outputTokens, usage.cachedTokens, usage.cacheWriteTokens, id],
    );
  }

  async list(options: { limit?: number; personKey?: string } = {}): Promise<SessionRecord[]> {
    const limit = options.limit ?? 50;
    const rows = options.personKey
      ? await this.run.rows<SessionRow>('SELECT * FROM sessions WHERE person_key = $1 ORDER BY last_active_at DESC LIMIT $2', [options.personKey, limit])
      : await this.run.rows<SessionRow>('SELECT * FROM sessions ORDER BY last_active_at DESC LIMIT $1', [limit]);
    return rows.map(sessionFromRow);
  }

  async page(offset: number, limit: number): Promise<SessionRecord[]> {
    const rows = await this.run.rows<SessionRow>('SELECT * FROM sessions ORDER BY last_active_at DESC, id LIMIT $1 OFFSET $2', [limit, offset]);
    return rows.map(sessionFromRow);
  }

  async usageByPeople(): Promise<Array<PersonUsage & { personKey: string }>> {
    return this.run.rows<PersonUsage & { personKey: string }>(
      `SELECT person_key AS "personKey", ${SUMS} FROM sessions GROUP BY person_key
       ORDER BY SUM(input_tokens) + SUM(output_tokens) DESC, person_key COLLATE "C"`,
    );
  }

  async usageByPerson(personKey: string): Promise<PersonUsage> {
    const [r] = await this.run.rows<PersonUsage>(`SELECT ${SUMS} FROM sessions WHERE person_key = $1`, [personKey]);
    return r;
  }

  async count(): Promise<number> {
    const [r] = await this.run.rows<{ n: number }>('SELECT COUNT(*) AS n FROM sessions');
    return r.n;
  }
}
