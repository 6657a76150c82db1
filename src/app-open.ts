/**
 * What the commands open, from one place: the store the settings name (`openData`), the doors whose
 * credentials are set (`openDoors`: the door registry is called here and nowhere else), and the app
 * on both (`openApp`). The gateway's modules are loaded only by openApp, so the commands that only
 * read the store (`sessions`, `pairing`, `migrate`, `doctor`) start without them.
 */
import { existsSync } from 'node:fs';
import type { Settings } from './core/settings.js';
import type { Logger } from './core/logger.js';
import type { Store } from './core/store/types.js';
import type { MediaStore } from './core/media/types.js';
import type { Adapter } from './core/types.js';
import type { PlatformId } from './platform/ids.js';
import type { App, AppOptions } from './app.js';
import { openStore, storeLocation } from './store/open.js';
import { openSqliteStore, sqlitePath } from './store/sqlite/index.js';
import { configuredPlatforms, createAdapters } from './adapters/registry.js';
import { heldDoorLogs } from './app-door-logs.js';

export { storeLocation };

/**
 * How a command opens the data:
 * - `migrate` (default): the store the settings name, created and migrated at open;
 * - `read`: that store when it exists (PostgreSQL, or a SQLite file already there), else an empty
 *   in-memory one; nothing is created (`cron list`, `prompt` only inspect);
 * - `scratch`: an empty in-memory one on the home, whose memory files are still read (`prompt
 *   --ignore-rules` shows what a new session gets, whatever is stored).
 */
export type DataMode = 'migrate' | 'read' | 'scratch';

/** Opens the store; a database that cannot be reached or used is one StorageError line. */
export async function openData(settings: Pick<Settings, 'home' | 'databaseUrl'>, options: { mode?: DataMode; logger?: Pick<Logger, 'warn'> } = {}): Promise<Store> {
  const mode = options.mode ?? 'migrate';
  const stored = mode === 'migrate' || (mode === 'read' && (Boolean(settings.databaseUrl) || existsSync(sqlitePath(settings.home))));
  return stored ? openStore(settings, { logger: options.logger }) : openSqliteStore({ path: ':memory:', home: settings.home });
}

/** The chat platforms whose credentials are set, in the order their doors open. */
export function configuredDoors(settings: Settings): PlatformId[] {
  return configuredPlatforms(settings);
}

/**
 * The doors the settings configure: every platform with credentials plus e-mail (SMTP, else .eml
 * files in the outbox folder); with `mailOnly`, e-mail alone and without reading a mailbox.
 * `loggerFor` gives each door its own logger.
 */
export function openDoors(
  settings: Settings,
  options: { logger: Logger; loggerFor?: (platform: PlatformId) => Logger; mailOnly?: boolean; media?: () => MediaStore | undefined },
): Promise<Adapter[]> {
  const deps = { config: settings.config, logger: options.logger, home: settings.home, media: options.media };
  const which = options.mailOnly ? { ...settings, telegram: undefined, slack: undefined, discord: undefined, email: { ...settings.email, imap: undefined } } : settings;
  return createAdapters(which, deps, options.loggerFor);
}

export interface OpenAppOptions extends Omit<AppOptions, 'settings' | 'store' | 'adapters' | 'doorLogs' | 'cron'> {
  /**
   * - `serve`: every door with credentials, taking messages in once `app.start()` opens them, and
   *   the cron scheduler (`start`);
   * - `terminal`: e-mail for sending only, no scheduler (`chat`: the terminal is given as `terminal`);
   * - `send`: every door with credentials, for sending only: the app is never started (`cron run`,
   *   `console`, which start delivery and presence themselves when they send).
   */
  doors: 'serve' | 'terminal' | 'send';
  /** The terminal door (`start` on a terminal, `chat`): it opens after the others. */
  terminal?: Adapter;
}

/**
 * The doors, the store and the app on them. When the database cannot be opened (one clear error
 * line) the doors are closed first, so nothing they hold keeps the process alive, and what they
 * logged meanwhile is written.
 */
export async function openApp(settings: Settings, options: OpenAppOptions): Promise<App> {
  const { doors: purpose, terminal, ...rest } = options;
  const { logger } = options;
  // A door that will be started logs through a held logger, so the log reads door by door (DoorKeeper.open).
  const doorLogs = purpose === 'send' ? undefined : heldDoorLogs(logger);
  const adapters: Adapter[] = [];
  // The doors are made before the store; e-mail keeps inbound files in its media store once open.
  let opened: Store | undefined;
  try {
    adapters.push(...(await openDoors(settings, { logger, loggerFor: doorLogs?.loggerFor, mailOnly: purpose === 'terminal', media: () => opened?.media })));
    if (terminal) adapters.push(terminal);
    const store = await openData(settings, { logger });
    opened = store;
    try {
      const { createApp } = await import('./app.js');
      return createApp({ ...rest, settings, store, adapters, doorLogs, cron: purpose === 'serve' });
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    await Promise.allSettled([...adapters, ...(terminal && !adapters.includes(terminal) ? [terminal] : [])].map((a) => a.close()));
    for (const a of adapters) doorLogs?.release(a.platform);
    throw error;
  }
}
