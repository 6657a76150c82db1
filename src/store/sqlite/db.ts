import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { StorageError } from '../../core/errors.js';
import { makeDirs } from '../../core/fs.js';
import { MIGRATIONS } from './migrations.js';
import { TransactionScope } from '../tx-scope.js';

export type Db = Database.Database;

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const message = (e.message ?? String(error)).split('\n')[0];
  // fs errors already start with their code ("ENOENT: no such file …"): not twice.
  return e.code && !message.startsWith(e.code) ? `${e.code}: ${message}` : message;
}

/**
 * WAL pages after which a commit copies the log back into the database (SQLite's default is 1,000).
 * A turn's transaction rewrites the same few hot pages (indexes, the FTS structure, its session's
 * row) each time; a checkpoint copies each page once however often it changed, so a longer log
 * copies far fewer pages per message — and fsyncs less often, which is what the slowest turns
 * waited on. The log may grow to about this many 4 KiB pages on disk before it is reused.
 */
const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * What the log file is cut back to when it starts over (the log's own pages, about 4 KiB each, at the
 * checkpoint size). The file otherwise stays as long as the longest log it held: with checkpoints in a
 * worker (checkpointer.ts) a log under a load that never pauses can run past WAL_CHECKPOINT_PAGES
 * before it starts over (the connection's checkpoint gives up while the worker's runs).
 */
const WAL_SIZE_LIMIT_BYTES = WAL_CHECKPOINT_PAGES * 4096;

/**
 * The page cache of a connection, KiB (negative: SQLite's unit for "this many KiB"). better-sqlite3
 * builds SQLite with 16 MiB where SQLite's own default is 2 MiB; the cache fills as the database
 * grows and is never given back, so a gateway's malloc heap grew from 7 to about 40 MiB over 20,000
 * messages. At 2 MiB it stays near 24 MiB with the same throughput: a turn reads its history from
 * the store's own cache (messages.ts), and the rest of a message touches a few index pages; pages
 * not cached come from the OS's file cache.
 */
const PAGE_CACHE_KIB = 2_000;

/**
 * Opens (creating if needed) the SQLite database, WAL mode, and applies pending migrations.
 * Any failure is one StorageError line that names the file.
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Db {
  let db: Db;
  try {
    if (path !== ':memory:' && !options.readonly) makeDirs(dirname(path));
    db = new Database(path, { readonly: options.readonly ?? false, timeout: 5000 });
  } catch (error) {
    throw new StorageError(`cannot open database ${path} (${describe(error)}); check that the folder exists and is writable`, {
      cause: error,
    });
  }
  try {
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
      migrate(db);
      // Take the write lock once now: a database another process keeps locked (or a folder where the
      // WAL cannot be written) fails here with one line, not later inside a turn or the scheduler.
      db.exec('BEGIN IMMEDIATE; COMMIT');
    }
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code ?? '';
    const hint = code.includes('BUSY') || code.includes('LOCKED')
      ? 'another process holds a lock on it; stop that process or wait and try again'
      : code.includes('READONLY') || code.includes('CANTOPEN') || code.includes('PERM')
        ? 'the file or its folder is not writable; fix its permissions or set SWITCHBOARD_HOME to a writable folder'
        : 'the file may be damaged; move it aside to start fresh';
    throw new StorageError(`database ${path} is not usable (${describe(error)}): ${hint}`, { cause: error });
  }
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new StorageError(`database schema version ${current} is newer than this Switchboard (${MIGRATIONS.length}); upgrade Switchboard`);
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    const step = MIGRATIONS[v];
    db.transaction(() => {
      // Several instances may start at once: one that took the write lock after another had
      // applied this step sees the new version here and skips it.
      if ((db.pragma('user_version', { simple: true }) as number) > v) return;
      if (typeof step === 'string') db.exec(step);
      else step(db);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}

/** The schema version a database is at. */
export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * One SQLite connection shared by the repositories. better-sqlite3 is synchronous, so a transaction
 * that awaits between its statements must keep other callers out until it ends: `idle()` is what
 * every repository method awaits first; repositories bound to a transaction skip it.
 */
export class Connection {
  private gate: Promise<void> | null = null;
  /** Which code runs inside this connection's transaction (a call on the free repositories from there throws). */
  readonly scope = new TransactionScope();
  /** Compiled once: a turn's transaction is begun and ended for every message. */
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly rollback: Database.Statement;

  /** `committed` is told of every transaction this connection commits (the WAL checkpointer counts them). */
  constructor(
    readonly db: Db,
    private readonly committed?: () => void,
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  /** Resolves once no transaction holds the connection (at once when none does). */
  idle(): Promise<void> | undefined {
    return this.gate ?? undefined;
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    // A transaction begun inside another would wait for that one to end: forever.
    this.scope.assertOutside();
    while (this.gate) await this.gate;
    let release!: () => void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    try {
      this.begin.run();
      try {
        const value = await this.scope.run(fn);
        this.commit.run();
        this.committed?.();
        return value;
      } catch (error) {
        if (this.db.inTransaction) this.rollback.run();
        throw error;
      }
    } finally {
      this.gate = null;
      release();
    }
  }
}

/**
 * What a repository runs on: the connection, and whether it is bound to an open transaction. Each
 * method starts with `for (let wait = run.ready(); wait; wait = run.ready()) await wait;` — the
 * check and the statement after it run with no await in between, so a call made outside a
 * transaction never lands inside one that began meanwhile.
 */
export interface Runner {
  readonly db: Db;
  /** True for repositories bound to an open transaction (whose reads may still be rolled back). */
  readonly bound: boolean;
  /** Awaited before each call: the end of another caller's transaction, or nothing. */
  ready(): Promise<void> | undefined;
}

export function freeRunner(connection: Connection): Runner {
  const ready = () => {
    // From inside the open transaction, waiting for it to end would never end.
    connection.scope.assertOutside();
    return connection.idle();
  };
  return { db: connection.db, bound: false, ready };
}

export function transactionRunner(connection: Connection): Runner {
  return { db: connection.db, bound: true, ready: () => undefined };
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A prepared statement for `sql`, compiled once per database and reused: the repositories run the
 * same few statements for every message, and compiling them each time dominated their cost.
 */
export function prepare(db: Db, sql: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
