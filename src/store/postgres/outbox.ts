import type { Runner } from './db.js';
import type { DeliveryTarget, OutboundMessage } from '../../core/types.js';
import { formatAddress, type Address } from '../../platform/address.js';
import type { OutboxItem, OutboxRepo, OutboxStatus } from '../../core/store/types.js';
import { outboxFromRow, takenOutboxItem, type OutboxRow } from '../rows.js';



/** Replies on their way out, shared by every instance on the database. */
export class PgOutboxRepo implements OutboxRepo {
  constructor(private readonly run: Runner) {}

  async enqueue(target: DeliveryTarget, message: OutboundMessage, at: number, sessionKey: string | null = null, notBefore = at): Promise<number> {
    const { platform, chatId, threadId, ...details } = target;
    const [r] = await this.run.rows<{ id: number }>(
      `INSERT INTO outbox (session_key, chat_key, platform, chat_id, thread_id, target, message, created_at, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [sessionKey, formatAddress(target), platform, chatId, threadId ?? null, JSON.stringify(details), JSON.stringify(message), at, Math.max(at, notBefore)],
    );
    return r.id;
  }

  /** One statement: the insert takes the reply when, as this transaction sees it, nothing of its chat is pending. */
  async enqueueTaken(target: DeliveryTarget, message: OutboundMessage, at: number, sessionKey: string | null, leaseMs: number): Promise<{ id: number; taken: OutboxItem | null }> {
    const { platform, chatId, threadId, ...details } = target;
    const chatKey = formatAddress(target);
    const [r] = await this.run.rows<{ id: number; next_attempt_at: number }>(
      `INSERT INTO outbox (session_key, chat_key, platform, chat_id, thread_id, target, message, created_at, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::bigint,
         CASE WHEN EXISTS (SELECT 1 FROM outbox WHERE status = 'pending' AND chat_key = $2) THEN $8::bigint ELSE $8::bigint + $9::bigint END)
       RETURNING id, next_attempt_at`,
      [sessionKey, chatKey, platform, chatId, threadId ?? null, JSON.stringify(details), JSON.stringify(message), at, leaseMs],
    );
    const nextAttemptAt = Number(r.next_attempt_at);
    if (nextAttemptAt === at) return { id: r.id, taken: null };
    return { id: r.id, taken: takenOutboxItem(r.id, sessionKey, target, message, at, nextAttemptAt) };
  }

  async get(id: number): Promise<OutboxItem | undefined> {
    const [row] = await this.run.rows<OutboxRow>('SELECT * FROM outbox WHERE id = $1', [id]);
    return row && outboxFromRow(row);
  }

  async heads(): Promise<OutboxItem[]> {
    const rows = await this.run.rows<OutboxRow>(
      "SELECT DISTINCT ON (chat_key) * FROM outbox WHERE status = 'pending' ORDER BY chat_key, id",
    );
    return rows.map(outboxFromRow).sort((a, b) => a.id - b.id);
  }

  async pending(): Promise<OutboxItem[]> {
    return (await this.run.rows<OutboxRow>("SELECT * FROM outbox WHERE status = 'pending' ORDER BY id")).map(outboxFromRow);
  }

  /**
   * A conditional UPDATE of the chat's head: of two instances taking it at once, both find the same
   * head, the second waits for the first's row lock, re-checks the outer condition on the row the
   * first wrote (its lease now ahead of `now`, or no longer pending) and changes nothing — exactly
   * one gets it. The head lookup locks nothing and skips nothing (no SKIP LOCKED): an instance must
   * never pass over a head another one holds and take the reply after it.
   */
  async takeHead(chat: Address, now: number, leaseMs: number): Promise<OutboxItem | undefined> {
    const [row] = await this.run.rows<OutboxRow>(
      `UPDATE outbox SET next_attempt_at = $1
        WHERE id = (SELECT id FROM outbox WHERE status = 'pending' AND chat_key = $2 ORDER BY id LIMIT 1)
          AND status = 'pending' AND next_attempt_at <= $3
        RETURNING *`,
      [now + leaseMs, formatAddress(chat), now],
    );
    return row && outboxFromRow(row);
  }

  async extendLease(id: number, until: number): Promise<void> {
    await this.run.exec("UPDATE outbox SET next_attempt_at = GREATEST(next_attempt_at, $1) WHERE id = $2 AND status = 'pending'", [until, id]);
  }

  async chunkSent(id: number, index: number): Promise<void> {
    await this.run.exec('UPDATE outbox SET next_chunk = GREATEST(next_chunk, $1) WHERE id = $2', [index + 1, id]);
  }

  async sent(id: number, at: number, chunks: number): Promise<void> {
    await this.run.exec("UPDATE outbox SET status = 'sent', sent_at = $1, last_error = NULL, next_chunk = GREATEST(next_chunk, $2) WHERE id = $3", [at, chunks, id]);
  }

  async retryLater(id: number, error: string, nextAttemptAt: number): Promise<void> {
    await this.run.exec('UPDATE outbox SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2 WHERE id = $3', [error, nextAttemptAt, id]);
  }

  async failed(id: number, error: string): Promise<void> {
    await this.run.exec("UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = $1 WHERE id = $2", [error, id]);
  }

  async counts(): Promise<Record<OutboxStatus, number>> {
    const rows = await this.run.rows<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM outbox GROUP BY status');
    const out: Record<OutboxStatus, number> = { pending: 0, sent: 0, failed: 0 };
    for (const r of rows) if (r.status in out) out[r.status as OutboxStatus] = r.n;
    return out;
  }

  async parked(offset: number, limit: number): Promise<OutboxItem[]> {
    const rows = await this.run.rows<OutboxRow>("SELECT * FROM outbox WHERE status = 'failed' ORDER BY id DESC LIMIT $1 OFFSET $2", [limit, offset]);
    return rows.map(outboxFromRow);
  }

  async retry(id: number, at: number): Promise<boolean> {
    return (await this.run.exec("UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = $1 WHERE id = $2 AND status = 'failed'", [at, id])) === 1;
  }
}
