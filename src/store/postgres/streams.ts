import type { Runner } from './db.js';
import type { LiveStreamRepo } from '../../core/store/types.js';

/** The messages running turns stream into (ARCHITECTURE.md §10), one row per session. */
export class PgLiveStreamRepo implements LiveStreamRepo {
  constructor(private readonly run: Runner) {}

  async get(sessionKey: string): Promise<string[]> {
    const [row] = await this.run.rows<{ message_ids: string }>('SELECT message_ids FROM live_streams WHERE session_key = $1', [sessionKey]);
    return row ? (JSON.parse(row.message_ids) as string[]) : [];
  }

  async save(sessionKey: string, messageIds: readonly string[], at: number): Promise<void> {
    await this.run.exec(
      `INSERT INTO live_streams (session_key, message_ids, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (session_key) DO UPDATE SET message_ids = EXCLUDED.message_ids, updated_at = EXCLUDED.updated_at`,
      [sessionKey, JSON.stringify(messageIds), at],
    );
  }

  async clear(sessionKey: string): Promise<void> {
    await this.run.exec('DELETE FROM live_streams WHERE session_key = $1', [sessionKey]);
  }
}
