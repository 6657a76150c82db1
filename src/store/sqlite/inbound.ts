import { prepare, type Runner } from './db.js';
import type { InboundMessage } from '../../core/types.js';
import type { PlatformId } from '../../platform/ids.js';
import type { InboundRepo, InboundStatus } from '../../core/store/types.js';

/**
 * The inbound journal: every accepted platform event, keyed by (platform, update id).
 * Claiming twice is refused (dedup of redelivered updates); pending rows survive a crash and are
 * replayed at the next start.
 */
export class SqliteInboundRepo implements InboundRepo {
  constructor(private readonly run: Runner) {}

  private get db() {
    return this.run.db;
  }

  /** Records the event; false if this (platform, update id) was seen before. */
  async claim(message: InboundMessage, sessionKey: string | null): Promise<boolean> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const result = prepare(this.db, 'INSERT OR IGNORE INTO inbound (platform, update_id, received_at, session_key, payload) VALUES (?, ?, ?, ?, ?)')
      .run(message.platform, message.updateId, message.receivedAt.getTime(), sessionKey, JSON.stringify(message));
    return result.changes === 1;
  }

  async journal(message: InboundMessage, sessionKey: string | null): Promise<{ claimed: boolean; pendingApproval: string | null }> {
    const claimed = await this.claim(message, sessionKey);
    const pending = sessionKey === null ? undefined : (prepare(this.db, "SELECT id FROM approvals WHERE state = 'pending' AND session_key = ? ORDER BY created_at DESC LIMIT 1").pluck().get(sessionKey) as string | undefined);
    return { claimed, pendingApproval: pending ?? null };
  }

  async mark(platform: PlatformId, updateId: string, status: InboundStatus): Promise<boolean> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return prepare(this.db, "UPDATE inbound SET status = ? WHERE platform = ? AND update_id = ? AND status = 'pending'").run(status, platform, updateId).changes === 1;
  }

  async pendingFor(sessionKey: string): Promise<InboundMessage[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const payloads = prepare(this.db, "SELECT payload FROM inbound WHERE session_key = ? AND status = 'pending' ORDER BY received_at, rowid")
      .pluck()
      .all(sessionKey) as string[];
    return payloads.map(revive);
  }

  /** Pending events in arrival order (crash recovery). */
  async pending(platforms?: readonly PlatformId[]): Promise<InboundMessage[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const payloads = prepare(this.db, "SELECT payload FROM inbound WHERE status = 'pending' ORDER BY received_at, rowid")
      .pluck()
      .all() as string[];
    return payloads
      .map(revive)
      .filter((m) => !platforms || platforms.includes(m.platform));
  }
}

function revive(payload: string): InboundMessage {
  const m = JSON.parse(payload) as InboundMessage & { receivedAt: string };
  return { ...m, receivedAt: new Date(m.receivedAt) };
}
