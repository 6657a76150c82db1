/**
 * The embedded engine (ARCHITECTURE.md §9): SQLite through better-sqlite3 in `$SWITCHBOARD_HOME/state.db`,
 * memory as files in `$SWITCHBOARD_HOME/memories/`. Owns its schema (migrations.ts).
 */
import { join } from 'node:path';
import { MIGRATIONS } from './migrations.js';
import { Connection, freeRunner, openDatabase, schemaVersion, transactionRunner, type Runner } from './db.js';
import { PromptCache, SqliteSessionRepo } from './sessions.js';
import { HistoryCache, SqliteMessageRepo } from './messages.js';
import { SqliteInboundRepo } from './inbound.js';
import { SqliteOutboxRepo } from './outbox.js';
import { SqliteCronRepo } from './cron.js';
import { SqlitePairingRepo } from './pairing.js';
import { FileMemoryRepo } from './memory-files.js';
import { SqliteRetentionRepo } from './retention.js';
import { SqliteLiveStreamRepo } from './streams.js';
import { SqliteInstanceRepo, SqliteLeaseRepo } from './leases.js';
import { FtsIndexer } from './fts-index.js';
import { SqliteMediaStore } from './media.js';
import { WalCheckpointer } from './checkpointer.js';
import { SqliteApprovalRepo } from './approvals.js';
import type { Repositories, Store } from '../../core/store/types.js';
import { turnsInTransaction } from '../turns-in-transaction.js';
import type { Logger } from '../../core/logger.js';

function repositories(run: Runner, memory: FileMemoryRepo, prompts: PromptCache, fts: FtsIndexer, history?: HistoryCache): Repositories {
  return {
    sessions: new SqliteSessionRepo(run, prompts),
    messages: new SqliteMessageRepo(run, fts, history),
    inbound: new SqliteInboundRepo(run),
    outbox: new SqliteOutboxRepo(run),
    cron: new SqliteCronRepo(run),
    pairing: new SqlitePairingRepo(run),
    memory,
    streams: new SqliteLiveStreamRepo(run),
    leases: new SqliteLeaseRepo(run),
    approvals: new SqliteApprovalRepo(run),
  };
}

export interface SqliteStoreOptions {
  /** Database file, or `:memory:`. */
  path: string;
  /** Data folder holding `memories/`. */
  home: string;
  readonly?: boolean;
  /** Where a failing checkpoint worker is reported (checkpoints then run in the connection's own commits). */
  logger?: Pick<Logger, 'warn'>;
}

export function openSqliteStore(options: SqliteStoreOptions): Store {
  const db = openDatabase(options.path, { readonly: options.readonly });
  const checkpointer = options.path === ':memory:' || options.readonly ? null : new WalCheckpointer(options.path, {
        onFailure: (reason) => options.logger?.warn('storage', `WAL checkpoints run inside commits again (the checkpoint worker failed: ${reason})`),
      });
  const connection = new Connection(db, checkpointer ? () => checkpointer.committed() : undefined);
  const memory = new FileMemoryRepo(options.home);
  const prompts = new PromptCache();
  // Read through outside transactions only; repositories bound to one still invalidate it when they compress.
  const history = new HistoryCache();
  // One for both: the rows waiting for the index are the connection's, whichever repository wrote them.
  const fts = new FtsIndexer(connection);
  fts.catchUp();
  const free = repositories(freeRunner(connection), memory, prompts, fts, history);
  const bound = repositories(transactionRunner(connection), memory, prompts, fts, history);
  const transaction: Store['transaction'] = (fn) => connection.transaction(() => fn(bound));
  return {
    engine: 'sqlite',
    ...free,
    turns: turnsInTransaction(free, transaction),
    retention: new SqliteRetentionRepo(freeRunner(connection), options.path === ':memory:' ? null : options.path, () => history.invalidate()),
    instances: new SqliteInstanceRepo(freeRunner(connection)),
    media: new SqliteMediaStore(freeRunner(connection), options.home),
    transaction,
    schemaVersion: async () => schemaVersion(connection.db),
    currentSchema: MIGRATIONS.length,
    close: async () => {
      fts.stop();
      await checkpointer?.close();
      connection.db.close();
    },
  };
}

export function sqlitePath(home: string): string {
  return join(home, 'state.db');
}
