/**
 * The shared engine (ARCHITECTURE.md §9): PostgreSQL through `pg`, for any number of instances on one
 * database. Memory lives in the database too. Owns its schema (migrations.ts), applied at open.
 */
import type pg from 'pg';
import { clientRunner, connectionError, createPool, inTransaction, poolRunner, type Runner } from './db.js';
import { migrate, MIGRATIONS, readVersion } from './migrations.js';
import { PgSessionRepo } from './sessions.js';
import { PgMessageRepo } from './messages.js';
import { PgInboundRepo } from './inbound.js';
import { PgOutboxRepo } from './outbox.js';
import { PgCronRepo } from './cron.js';
import { PgPairingRepo } from './pairing.js';
import { PgMemoryRepo } from './memory.js';
import { PgRetentionRepo } from './retention.js';
import { PgInstanceRepo, PgLeaseRepo } from './leases.js';
import { SwitchboardError } from '../../core/errors.js';
import { TransactionScope } from '../tx-scope.js';
import { PgLiveStreamRepo } from './streams.js';
import { PgApprovalRepo } from './approvals.js';
import { PgMediaStore } from './media.js';
import { PgTurnRepo } from './turns.js';
import type { Repositories, Store } from '../../core/store/types.js';

function repositories(run: Runner): Repositories {
  return {
    sessions: new PgSessionRepo(run),
    messages: new PgMessageRepo(run),
    inbound: new PgInboundRepo(run),
    outbox: new PgOutboxRepo(run),
    cron: new PgCronRepo(run),
    pairing: new PgPairingRepo(run),
    memory: new PgMemoryRepo(run),
    streams: new PgLiveStreamRepo(run),
    leases: new PgLeaseRepo(run),
    approvals: new PgApprovalRepo(run),
  };
}

export interface PostgresStoreOptions {
  /** `postgres://user:pass@host:port/db` (DATABASE_URL). */
  url: string;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
}

export { isPostgresUrl } from '../engine.js';

/**
 * Connects, applies pending migrations (safe when several instances start at once) and returns the
 * store. An unreachable or refusing database is one StorageError line naming DATABASE_URL, with the
 * password hidden.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const pool = createPool(options.url, options.maxConnections);
  try {
    const client = await pool.connect();
    try {
      await migrate(client);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof SwitchboardError) throw error;
    throw connectionError(options.url, error);
  }
  return storeOn(pool);
}

function storeOn(pool: pg.Pool): Store {
  let closed: Promise<void> | null = null;
  const scope = new TransactionScope();
  const free = poolRunner(pool, scope);
  return {
    engine: 'postgres',
    ...repositories(free),
    retention: new PgRetentionRepo(free),
    instances: new PgInstanceRepo(free),
    turns: new PgTurnRepo(free),
    media: new PgMediaStore(free),
    // Calls on the store's own repositories meanwhile run on other pooled connections and see only
    // what is committed (as a second instance would); `tx` is the transaction. From inside it they
    // throw (tx-scope.ts).
    transaction: (fn) => inTransaction(pool, scope, (client) => fn(repositories(clientRunner(client)))),
    schemaVersion: () => readVersion(pool),
    currentSchema: MIGRATIONS.length,
    close: () => (closed ??= pool.end()),
  };
}
