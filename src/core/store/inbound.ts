import { prepare, type Db } from './db.js';
import type { InboundMessage } from '../types.js';

export type InboundStatus = 'pending' | 'done' | 'refused' | 'ignored' | 'failed';

/**
 * The inbound journal: every accepted platform event, keyed by (platform, update id).
 * Claiming twice is refused (dedup of redelivered updates); pending rows survive a crash and are
 * replayed at the next start.
 */
export class InboundRepo {
  constructor(private readonly db: Db) {}

  /** Records the event; false if this (platform, update id) was seen before. */
  claim(message: InboundMessage, sessionKey: string | null): boolean {
    const result = prepare(this.db, 'INSERT OR IGNORE INTO inbound (platform, update_id, received_at, session_key, payload) VALUES (?, ?, ?, ?, ?)')
      .run(message.platform, message.updateId, message.receivedAt.getTime(), sessionKey, JSON.stringify(message));
    return result.changes === 1;
  }

  mark(platform: string, updateId: string, status: InboundStatus): void {
    prepare(this.db, 'UPDATE inbound SET status = ? WHERE platform = ? AND update_id = ?').run(status, platform, updateId);
  }

  /** Pending events in arrival order (crash recovery). */
  pending(platforms?: readonly string[]): InboundMessage[] {
    const rows = prepare(this.db, "SELECT payload FROM inbound WHERE status = 'pending' ORDER BY received_at, rowid")
      .all() as Array<{ payload: string }>;
    return rows
      .map((r) => {
        const m = JSON.parse(r.payload) as InboundMessage & { receivedAt: string };
        return { ...m, receivedAt: new Date(m.receivedAt) };
      })
      .filter((m) => !platforms || platforms.includes(m.platform));
  }
}
