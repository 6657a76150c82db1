/**
 * Engine selection (ARCHITECTURE.md §9): PostgreSQL when DATABASE_URL is `postgres://…` or `postgresql://…`
 * (shared by every instance; migrated at open), else embedded SQLite in $SWITCHBOARD_HOME/state.db.
 * Kept apart from the composition root so small commands (`sessions`, `pairing`, `migrate`) open
 * the store without loading the gateway. The PostgreSQL engine (and pg) is loaded only when
 * DATABASE_URL names it.
 */
import type { Settings } from '../core/settings.js';
import { hidePassword } from '../core/settings.js';
import type { Store } from '../core/store/types.js';
import type { Logger } from '../core/logger.js';
import { openSqliteStore, sqlitePath } from './sqlite/index.js';
import { isPostgresUrl } from './engine.js';

type StoreSettings = Pick<Settings, 'home' | 'databaseUrl'>;

/**
 * Opens the store the settings name. A database that cannot be reached or used is one StorageError
 * line (DATABASE_URL named, password hidden).
 */
export async function openStore(settings: StoreSettings, options: { logger?: Pick<Logger, 'warn'> } = {}): Promise<Store> {
  if (isPostgresUrl(settings.databaseUrl)) return (await import('./postgres/index.js')).openPostgresStore({ url: settings.databaseUrl });
  return openSqliteStore({ path: sqlitePath(settings.home), home: settings.home, logger: options.logger });
}

/** Where the data is, for messages: the SQLite file or the PostgreSQL URL (password hidden). */
export function storeLocation(settings: StoreSettings): string {
  return isPostgresUrl(settings.databaseUrl) ? hidePassword(settings.databaseUrl) : sqlitePath(settings.home);
}
