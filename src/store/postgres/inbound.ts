import type { Runner } from './db.js';
import type { InboundMessage } from '../../core/types.js';
import type { PlatformId } from '../../platform/ids.js';
import type { InboundRepo, InboundStatus } from '../../core/store/types.js';

/**
 * The inbound journal, keyed by (platform, update id). `ON CONFLICT DO NOTHING` makes the claim
 * exactly-once across instances: of two that receive the same redelivered update, one inserts it.
 */
export class PgInboundRepo implements InboundRepo {
  constructor(private readonly run: Runner) {}

  async claim(message: InboundMessage, sessionKey: string | null): Promise<boolean> {
    const n = await this.run.exec(
      `INSERT INTO inbound (platform, update_id, received_at, session_key, payload) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (platform, update_id) DO NOTHING`,
      [message.platform, message.updateId, message.receivedAt.getTime(), sessionKey, JSON.stringify(message)],
    );
    return n === 1;
  }

  async journal(message: InboundMessage, sessionKey: string | null): Promise<{ claimed: boolean; pendingApproval: string | null }> {
    // One round trip: the insert, and the session's pending approval (few rows: the partial index on pending ones).
    const [row] = await this.run.rows<{ claimed: number; pending: string | null }>(
      `WITH added AS (
         INSERT INTO inbound (platform, update_id, received_at, session_key, payload) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (platform, update_id) DO NOTHING RETURNING 1
       )
       SELECT (SELECT count(*) FROM added)::int AS claimed,
         (SELECT id FROM approvals WHERE $4::text IS NOT NULL AND state = 'pending' AND session_key = $4::text ORDER BY created_at DESC LIMIT 1) AS pending`,
      [message.platform, message.updateId, message.receivedAt.getTime(), sessionKey, JSON.stringify(message)],
    );
    return { claimed: row.claimed === 1, pendingApproval: row.pending };
  }

  /** Only a pending row changes: of two instances settling one event, the row lock makes one win. */
  async mark(platform: PlatformId, updateId: string, status: InboundStatus): Promise<boolean> {
    return (await this.run.exec("UPDATE inbound SET status = $1 WHERE platform = $2 AND update_id = $3 AND status = 'pending'", [status, platform, updateId])) === 1;
  }

  async pendingFor(sessionKey: string): Promise<InboundMessage[]> {
    const rows = await this.run.rows<{ payload: string }>(
      "SELECT payload FROM inbound WHERE session_key = $1 AND status = 'pending' ORDER BY received_at, seq",
      [sessionKey],
    );
    return rows.map((r) => revive(r.payload));
  }

  async pending(platforms?: readonly PlatformId[]): Promise<InboundMessage[]> {
    const rows = await this.run.rows<{ payload: string }>(
      "SELECT payload FROM inbound WHERE status = 'pending' AND ($1::text[] IS NULL OR platform = ANY($1::text[])) ORDER BY received_at, seq",
      [platforms ? [...platforms] : null],
    );
    return rows.map((r) => revive(r.payload));
  }
}

export function revive(payload: string): InboundMessage {
  const m = JSON.parse(payload) as InboundMessage & { receivedAt: string };
  return { ...m, receivedAt: new Date(m.receivedAt) };
}
