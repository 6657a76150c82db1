/**
 * PostgreSQL connections for the shared engine (ARCHITECTURE.md §9): one `pg` pool per store. Repositories
 * run on a `Runner` — the pool (each statement on whichever connection is free) or one client
 * inside an open transaction — and write their SQL by hand. Why no query builder: the hot path's
 * SQL (outbox take, cron claim, search) stays visible in review, and each engine uses its own
 * strengths (here `FOR UPDATE SKIP LOCKED`-style conditional updates, `ON CONFLICT`, tsvector) instead
 * of a common subset.
 */
import pg from 'pg';
import { StorageError } from '../../core/errors.js';
import { hidePassword } from '../../core/settings.js';
import type { TransactionScope } from '../tx-scope.js';

export type Row = Record<string, unknown>;

export interface Runner {
  /** Rows of one statement. */
  rows<R extends object = Row>(sql: string, values?: readonly unknown[]): Promise<R[]>;
  /** Number of rows one statement changed. */
  exec(sql: string, values?: readonly unknown[]): Promise<number>;
  /**
   * Runs `fn` atomically: in a transaction of its own on the pool, or inside the transaction this
   * runner is already bound to.
   */
  atomic<T>(fn: (run: Runner) => Promise<T>): Promise<T>;
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/** Statement names by text: the same SQL always gets the same name, on every connection. */
const names = new Map<string, string>();

/**
 * A named (prepared) statement: each connection parses and plans a text once and afterwards sends
 * only Bind/Execute for it. Names are kept for texts with parameters (the repositories' fixed SQL);
 * a text built with a varying number of rows (multi-row INSERT) gets one name per shape, bounded by
 * the shapes a turn produces.
 */
function prepared(sql: string, values?: readonly unknown[]): pg.QueryConfig {
  if (!values?.length) return { text: sql };
  let name = names.get(sql);
  if (!name) {
    name = `sb${names.size}`;
    names.set(sql, name);
  }
  return { name, text: sql, values: values as unknown[] };
}

function runnerOn(q: Queryable, atomic: Runner['atomic']): Runner {
  return {
    rows: async <R extends object>(sql: string, values?: readonly unknown[]) => (await q.query(prepared(sql, values))).rows as R[],
    exec: async (sql, values) => (await q.query(prepared(sql, values))).rowCount ?? 0,
    atomic,
  };
}

/** A runner bound to one client whose transaction is already open. */
export function clientRunner(client: pg.PoolClient): Runner {
  const run: Runner = runnerOn(client, (fn) => fn(run));
  return run;
}

/**
 * Runs `fn` on one pooled client between BEGIN and COMMIT (ROLLBACK when it throws), inside `scope`:
 * the pool's own runners refuse calls from there (they would run outside the transaction).
 */
export async function inTransaction<T>(pool: pg.Pool, scope: TransactionScope, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  scope.assertOutside();
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      const value = await scope.run(() => fn(client));
      await client.query('COMMIT');
      return value;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError as Error; // the connection is unusable: drop it instead of pooling it
      }
      throw error;
    }
  } finally {
    client.release(broken);
  }
}

/** Statements on the pool, each on whichever connection is free; refused inside one of `scope`'s transactions. */
export function poolRunner(pool: pg.Pool, scope: TransactionScope): Runner {
  const inner = runnerOn(pool, (fn) => inTransaction(pool, scope, (client) => fn(clientRunner(client))));
  return {
    rows: async (sql, values) => {
      scope.assertOutside();
      return inner.rows(sql, values);
    },
    exec: async (sql, values) => {
      scope.assertOutside();
      return inner.exec(sql, values);
    },
    // inTransaction asks the scope itself.
    atomic: (fn) => inner.atomic(fn),
  };
}

/** BIGINT (epoch milliseconds, ids, counts) as numbers: every value Switchboard stores fits in 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** `postgres://user:***@host:port/db`: the URL as it may be shown (password hidden). */
export const redactUrl = hidePassword;

export function createPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000, application_name: 'switchboard', types });
  // An idle connection the server closed (restart, failover) must not crash the process; the next
  // query opens a new one.
  pool.on('error', () => undefined);
  return pool;
}

/** One line for a failure to reach or use the database, naming DATABASE_URL with the password hidden. */
export function connectionError(url: string, error: unknown): StorageError {
  const e = error as { code?: string; message?: string };
  const code = e.code ?? '';
  const hint =
    code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || /timeout/i.test(e.message ?? '')
      ? 'is the PostgreSQL server running and reachable at that host and port?'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name does not resolve; check the host in DATABASE_URL'
        : code === '28P01' || code === '28000'
          ? 'the server refused the user or password; check them in DATABASE_URL'
          : code === '3D000'
            ? 'that database does not exist; create it (createdb) or fix its name in DATABASE_URL'
            : code === '42501'
              ? 'the user may not create tables there; grant it CREATE on the database or schema'
              : 'check DATABASE_URL and the server';
  const detail = (e.message ?? String(error)).split('\n')[0].replaceAll(url, redactUrl(url));
  return new StorageError(`cannot use the database DATABASE_URL=${redactUrl(url)} (${code ? `${code}: ` : ''}${detail}): ${hint}`, { cause: error });
}
