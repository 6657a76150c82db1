import { parseCommandLine, type CommandIO } from './io.js';
import { loadSettings } from '../core/settings.js';
import { openData, storeLocation } from '../app-open.js';

export const usage = `usage: switchboard migrate

Creates or upgrades the database schema (SQLite, or PostgreSQL with DATABASE_URL) and prints the
engine and schema version. start does it too; this runs it alone, as a deploy step.

options:
  -h, --help   show this help`;

/**
 * `switchboard migrate` (ARCHITECTURE.md §9): creates or upgrades the schema of the store the settings name
 * and prints the engine and schema version. `start` does the same at open; this runs it alone, for
 * a deploy step before the instances start. Safe while other instances start or run.
 */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  parseCommandLine('migrate', usage, { args: argv, options: {}, strict: true });
  const settings = loadSettings(io.env);
  const store = await openData(settings);
  try {
    io.stdout.write(`${store.engine}: schema version ${await store.schemaVersion()} (${storeLocation(settings)})\n`);
    return 0;
  } finally {
    await store.close();
  }
}
