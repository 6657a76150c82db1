import { prepare, type Runner } from './db.js';
import type { DeliveryTarget, OutboundMessage } from '../../core/types.js';
import { formatAddress, type Address } from '../../platform/address.js';
import type { OutboxItem, OutboxRepo, OutboxStatus } from '../../core/store/types.js';
import { outboxFromRow, takenOutboxItem, type OutboxRow } from '../rows.js';

/** The columns outboxFromRow reads, in the order `item` takes them. */
const COLUMNS = 'id, session_key, platform, chat_id, thread_id, target, message, next_chunk, attempts, last_error, status, created_at, next_attempt_at';
const BY_ID = `SELECT ${COLUMNS} FROM outbox WHERE id = ?`;
/**
 * One chat's oldest pending item, taken when due: one statement, one commit (a read and then a
 * conditional write were two statements, and the write its own commit anyway).
 */
const TAKE_HEAD = `UPDATE outbox SET next_attempt_at = ?
  WHERE id = (SELECT id FROM outbox WHERE status = 'pending' AND chat_key = ? ORDER BY id LIMIT 1)
    AND status = 'pending' AND next_attempt_at <= ?
  RETURNING ${COLUMNS}`;
/**
 * Whether a chat has a pending item at all, read before TAKE_HEAD. Every drain ends with a look that
 * finds nothing, and as the conditional UPDATE that look needed the write lock: while another
 * process on the file (a second instance, `cron run`) held it, better-sqlite3 waited out
 * the busy timeout — blocking this whole process — and failed. This read needs no lock. It decides
 * nothing on its own: TAKE_HEAD still takes, or finds the item gone.
 */
const HAS_PENDING = "SELECT 1 FROM outbox WHERE status = 'pending' AND chat_key = ? LIMIT 1";

/**
 * A row of COLUMNS read as an array (`.raw()`), as an item: better-sqlite3 looks every column name up
 * again for each row it returns as an object, which cost more than the read of the row itself.
 */
function item(a: unknown[]): OutboxItem {
  const row: OutboxRow = {
    id: a[0] as number,
    session_key: a[1] as string | null,
    platform: a[2] as OutboxRow['platform'],
    chat_id: a[3] as string,
    thread_id: a[4] as string | null,
    target: a[5] as string,
    message: a[6] as string,
    next_chunk: a[7] as number,
    attempts: a[8] as number,
    last_error: a[9] as string | null,
    status: a[10] as OutboxStatus,
    created_at: a[11] as number,
    next_attempt_at: a[12] as number,
  };
  return outboxFromRow(row);
}

/** Replies on their way out. A row stays until every chunk is confirmed, so nothing is lost. */
export class SqliteOutboxRepo implements OutboxRepo {
  constructor(private readonly run: Runner) {}

  private get db() {
    return this.run.db;
  }

  async enqueue(target: DeliveryTarget, message: OutboundMessage, at: number, sessionKey: string | null = null, notBefore = at): Promise<number> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return this.insert(target, message, at, sessionKey, Math.max(at, notBefore));
  }

  async enqueueTaken(target: DeliveryTarget, message: OutboundMessage, at: number, sessionKey: string | null, leaseMs: number): Promise<{ id: number; taken: OutboxItem | null }> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    // Outside a transaction the read and the insert are two statements: another process could
    // insert in between, so only a transaction's repository (the write lock held) takes.
    const free = this.run.bound && prepare(this.db, HAS_PENDING).pluck().get(formatAddress(target)) === undefined;
    const nextAttemptAt = free ? at + leaseMs : at;
    const id = this.insert(target, message, at, sessionKey, nextAttemptAt);
    if (!free) return { id, taken: null };
    return { id, taken: takenOutboxItem(id, sessionKey, target, message, at, nextAttemptAt) };
  }

  private insert(target: DeliveryTarget, message: OutboundMessage, at: number, sessionKey: string | null, nextAttemptAt: number): number {
    const { platform, chatId, threadId, ...details } = target;
    const r = prepare(
      this.db,
      `INSERT INTO outbox (session_key, chat_key, platform, chat_id, thread_id, target, message, created_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(sessionKey, formatAddress(target), platform, chatId, threadId ?? null, JSON.stringify(details), JSON.stringify(message), at, nextAttemptAt);
    return Number(r.lastInsertRowid);
  }

  async get(id: number): Promise<OutboxItem | undefined> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const row = prepare(this.db, BY_ID).raw().get(id) as unknown[] | undefined;
    return row && item(row);
  }

  async heads(): Promise<OutboxItem[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const rows = prepare(
      this.db,
      `SELECT ${COLUMNS} FROM outbox WHERE id IN (SELECT MIN(id) FROM outbox WHERE status = 'pending' GROUP BY chat_key) ORDER BY id`,
    ).raw().all() as unknown[][];
    return rows.map(item);
  }

  async pending(): Promise<OutboxItem[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return (prepare(this.db, `SELECT ${COLUMNS} FROM outbox WHERE status = 'pending' ORDER BY id`).raw().all() as unknown[][]).map(item);
  }

  async takeHead(chat: Address, now: number, leaseMs: number): Promise<OutboxItem | undefined> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const chatKey = formatAddress(chat);
    if (prepare(this.db, HAS_PENDING).pluck().get(chatKey) === undefined) return undefined;
    const row = prepare(this.db, TAKE_HEAD)
      .raw()
      .get(now + leaseMs, chatKey, now) as unknown[] | undefined;
    return row && item(row);
  }

  async extendLease(id: number, until: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, "UPDATE outbox SET next_attempt_at = MAX(next_attempt_at, ?) WHERE id = ? AND status = 'pending'").run(until, id);
  }

  async chunkSent(id: number, index: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, 'UPDATE outbox SET next_chunk = MAX(next_chunk, ?) WHERE id = ?').run(index + 1, id);
  }

  async sent(id: number, at: number, chunks: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, "UPDATE outbox SET status = 'sent', sent_at = ?, last_error = NULL, next_chunk = MAX(next_chunk, ?) WHERE id = ?").run(at, chunks, id);
  }

  async retryLater(id: number, error: string, nextAttemptAt: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, 'UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?').run(error, nextAttemptAt, id);
  }

  async failed(id: number, error: string): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ?").run(error, id);
  }

  async counts(): Promise<Record<OutboxStatus, number>> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const rows = prepare(this.db, 'SELECT status, COUNT(*) AS n FROM outbox GROUP BY status').all() as Array<{ status: string; n: number }>;
    const out: Record<OutboxStatus, number> = { pending: 0, sent: 0, failed: 0 };
    for (const r of rows) if (r.status in out) out[r.status as OutboxStatus] = r.n;
    return out;
  }

  async parked(offset: number, limit: number): Promise<OutboxItem[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const rows = prepare(this.db, `SELECT ${COLUMNS} FROM outbox WHERE status = 'failed' ORDER BY id DESC LIMIT ? OFFSET ?`).raw().all(limit, offset) as unknown[][];
    return rows.map(item);
  }

  async retry(id: number, at: number): Promise<boolean> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return prepare(this.db, "UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE id = ? AND status = 'failed'").run(at, id).changes === 1;
  }
}
