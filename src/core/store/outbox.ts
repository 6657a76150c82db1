import { prepare, type Db } from './db.js';
import type { DeliveryTarget, OutboundMessage } from '../types.js';

export interface OutboxItem {
  id: number;
  sessionKey: string | null;
  target: DeliveryTarget;
  message: OutboundMessage;
  nextChunk: number;
  attempts: number;
  lastError: string | null;
  status: 'pending' | 'sent' | 'failed';
  createdAt: number;
  nextAttemptAt: number;
}

interface Row {
  id: number;
  session_key: string | null;
  target: string;
  message: string;
  next_chunk: number;
  attempts: number;
  last_error: string | null;
  status: 'pending' | 'sent' | 'failed';
  created_at: number;
  next_attempt_at: number;
}

function fromRow(r: Row): OutboxItem {
  return {
    id: r.id,
    sessionKey: r.session_key,
    target: JSON.parse(r.target) as DeliveryTarget,
    message: JSON.parse(r.message) as OutboundMessage,
    nextChunk: r.next_chunk,
    attempts: r.attempts,
    lastError: r.last_error,
    status: r.status,
    createdAt: r.created_at,
    nextAttemptAt: r.next_attempt_at,
  };
}

/** Replies to one chat (and thread) share a key and go out in order. */
export function chatKey(t: DeliveryTarget): string {
  return `${t.platform}:${t.chatId}:${t.threadId ?? ''}`;
}

/** Replies on their way out. A row stays until every chunk is confirmed, so nothing is lost. */
export class OutboxRepo {
  constructor(private readonly db: Db) {}

  enqueue(target: DeliveryTarget, message: OutboundMessage, at: number, sessionKey: string | null = null): number {
    const r = prepare(this.db, 'INSERT INTO outbox (session_key, chat_key, target, message, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(sessionKey, chatKey(target), JSON.stringify(target), JSON.stringify(message), at, at);
    return Number(r.lastInsertRowid);
  }

  get(id: number): OutboxItem | undefined {
    const row = prepare(this.db, 'SELECT * FROM outbox WHERE id = ?').get(id) as Row | undefined;
    return row && fromRow(row);
  }

  /** The oldest pending item of each chat (replies to one chat go strictly in order). */
  heads(): OutboxItem[] {
    return (
      prepare(this.db, 
          "SELECT * FROM outbox WHERE id IN (SELECT MIN(id) FROM outbox WHERE status = 'pending' GROUP BY chat_key) ORDER BY id",
        )
        .all() as Row[]
    ).map(fromRow);
  }

  /** The oldest pending item of one chat. */
  headOf(key: string): OutboxItem | undefined {
    const row = prepare(this.db, "SELECT * FROM outbox WHERE status = 'pending' AND chat_key = ? ORDER BY id LIMIT 1").get(key) as Row | undefined;
    return row && fromRow(row);
  }

  pending(): OutboxItem[] {
    return (prepare(this.db, "SELECT * FROM outbox WHERE status = 'pending' ORDER BY id").all() as Row[]).map(fromRow);
  }

  /**
   * Takes a due item for one delivery attempt by moving its next attempt `leaseMs` ahead, so another
   * process on the same database (a second gateway, `cron run`) skips it meanwhile. False when it is
   * no longer pending or someone else took it first.
   */
  take(id: number, now: number, leaseMs: number): boolean {
    return (
      prepare(this.db, "UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND status = 'pending' AND next_attempt_at <= ?").run(now + leaseMs, id, now)
        .changes === 1
    );
  }

  /** Keeps a taken item from other processes until `until` while its send is still running. */
  extendLease(id: number, until: number): void {
    prepare(this.db, "UPDATE outbox SET next_attempt_at = MAX(next_attempt_at, ?) WHERE id = ? AND status = 'pending'").run(until, id);
  }

  chunkSent(id: number, index: number): void {
    prepare(this.db, 'UPDATE outbox SET next_chunk = MAX(next_chunk, ?) WHERE id = ?').run(index + 1, id);
  }

  sent(id: number, at: number): void {
    prepare(this.db, "UPDATE outbox SET status = 'sent', sent_at = ?, last_error = NULL WHERE id = ?").run(at, id);
  }

  retryLater(id: number, error: string, nextAttemptAt: number): void {
    prepare(this.db, 'UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?').run(error, nextAttemptAt, id);
  }

  /** A permanent failure: kept (not deleted) with its reason, for the operator. */
  failed(id: number, error: string): void {
    prepare(this.db, "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ?").run(error, id);
  }

  counts(): { pending: number; sent: number; failed: number } {
    const rows = prepare(this.db, 'SELECT status, COUNT(*) AS n FROM outbox GROUP BY status').all() as Array<{ status: string; n: number }>;
    const out = { pending: 0, sent: 0, failed: 0 };
    for (const r of rows) if (r.status in out) out[r.status as keyof typeof out] = r.n;
    return out;
  }
}
