import { prepare, type Runner } from './db.js';
import type { LiveStreamRepo } from '../../core/store/types.js';

/** The messages running turns stream into (ARCHITECTURE.md §10), one row per session. */
export class SqliteLiveStreamRepo implements LiveStreamRepo {
  constructor(private readonly run: Runner) {}

  async get(sessionKey: string): Promise<string[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const row = prepare(this.run.db, 'SELECT message_ids FROM live_streams WHERE session_key = ?').get(sessionKey) as { message_ids: string } | undefined;
    return row ? (JSON.parse(row.message_ids) as string[]) : [];
  }

  async save(sessionKey: string, messageIds: readonly string[], at: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.run.db, 'INSERT INTO live_streams (session_key, message_ids, updated_at) VALUES (?, ?, ?) ON CONFLICT (session_key) DO UPDATE SET message_ids = excluded.message_ids, updated_at = excluded.updated_at')
      .run(sessionKey, JSON.stringify(messageIds), at);
  }

  async clear(sessionKey: string): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.run.db, 'DELETE FROM live_streams WHERE session_key = ?').run(sessionKey);
  }
}
