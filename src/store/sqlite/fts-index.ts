import type Database from 'better-sqlite3';
import { prepare, type Connection, type Db } from './db.js';

/** Rows appended (by this process) after which the index is brought up to date without waiting for the timer. */
export const FTS_BATCH_ROWS = 200;
/** How long rows may wait for the index while nothing searches and fewer than FTS_BATCH_ROWS arrive. */
export const FTS_FLUSH_MS = 5_000;

/**
 * Batched FTS5 indexing (migration 9). A trigger that indexed each message as it was inserted made
 * FTS5 write a new segment and its structure record at every commit, about tripling what a turn's
 * transaction cost. Instead rows are indexed here, many at a time: `fts_indexed.last_id` is the
 * highest messages.id indexed so far (every user and assistant row at or below it is in
 * messages_fts, none above it is), so rows a crash left unindexed are found the next time, and the
 * delete trigger removes from the index only rows that are in it.
 *
 * `indexPending` runs before every FTS query, so a search sees every message stored before it; after
 * FTS_BATCH_ROWS appended rows or FTS_FLUSH_MS, whichever comes first, so the tail stays short.
 */
export class FtsIndexer {
  private readonly flush: Database.Transaction<() => number>;
  private waiting = 0;
  private timer: NodeJS.Timeout | null = null;
  private soon = false;
  private stopped = false;

  constructor(private readonly connection: Connection) {
    const db = connection.db;
    this.flush = db.transaction(() => indexTail(db));
  }

  private get db(): Db {
    return this.connection.db;
  }

  /**
   * Indexes every row after the watermark, now. The caller runs it where its statements may run: a
   * repository outside a transaction after awaiting `ready()` (no await between that and this), or a
   * repository bound to an open transaction (then this is a savepoint of it, rolled back with it).
   * A read-only connection cannot write the index: it searches what is indexed.
   */
  indexPending(): number {
    if (this.db.readonly) return 0;
    // Outside a transaction: BEGIN IMMEDIATE, so two processes never index the same tail; inside one,
    // better-sqlite3 makes it a savepoint (undone if the transaction is, so the timer stays armed).
    const indexed = this.behind() ? this.flush.immediate() : 0;
    if (!this.db.inTransaction) {
      this.waiting = 0;
      this.clearTimer();
    }
    return indexed;
  }

  /** Rows were appended: index them once enough wait, or after a while. */
  appended(rows: number): void {
    if (this.db.readonly) return;
    this.waiting += rows;
    if (this.waiting >= FTS_BATCH_ROWS) this.scheduleSoon();
    else this.arm();
  }

  /** Arms the timer if rows wait (after opening: a previous run may have stopped before indexing them). */
  catchUp(): void {
    if (!this.db.readonly && this.behind()) this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  /** Whether rows wait: two reads of one page each, with no lock beyond the read. */
  private behind(): boolean {
    const last = prepare(this.db, 'SELECT last_id FROM fts_indexed').pluck().get() as number;
    const top = (prepare(this.db, 'SELECT max(id) FROM messages').pluck().get() as number | null) ?? 0;
    return top > last;
  }

  private arm(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runFree();
    }, FTS_FLUSH_MS);
    this.timer.unref();
  }

  private scheduleSoon(): void {
    if (this.soon) return;
    this.soon = true;
    setImmediate(() => {
      this.soon = false;
      void this.runFree();
    }).unref();
  }

  /**
   * Outside any repository's call: waits for the connection's transaction (if one is open) to end, as
   * every free repository does. A failure here (the file locked by another process past the busy
   * timeout) loses nothing — the rows stay behind the watermark: the timer tries again, and the next
   * search indexes them itself (and reports the error to its caller if it fails too).
   */
  private async runFree(): Promise<void> {
    for (let wait = this.connection.idle(); wait; wait = this.connection.idle()) await wait;
    if (this.stopped || !this.db.open) return;
    try {
      this.indexPending();
    } catch {
      this.arm();
    }
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Inside a write transaction: indexes the user and assistant rows after the watermark and moves it to the highest row (any role). */
function indexTail(db: Db): number {
  const last = prepare(db, 'SELECT last_id FROM fts_indexed').pluck().get() as number;
  const top = (prepare(db, 'SELECT max(id) FROM messages').pluck().get() as number | null) ?? 0;
  if (top <= last) return 0;
  const indexed = prepare(
    db,
    "INSERT INTO messages_fts (rowid, content) SELECT id, content FROM messages WHERE id > ? AND id <= ? AND role IN ('user','assistant') ORDER BY id",
  ).run(last, top).changes;
  prepare(db, 'UPDATE fts_indexed SET last_id = ?').run(top);
  return indexed;
}
