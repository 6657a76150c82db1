import type { CommandIO } from './io.js';
import { loadSettings } from '../core/settings.js';
import { UsageError } from '../core/errors.js';
import { openData, storeLocation } from '../app-open.js';

/**
 * `switchboard migrate` (ARCHITECTURE.md §9): creates or upgrades the schema of the store the settings name
 * and prints the engine and schema version. `start` does the same at open; this runs it alone, for
 * a deploy step before the instances start. Safe while other instances start or run.
 */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  if (argv.length) throw new UsageError('usage: switchboard migrate (takes no arguments)');
  const settings = loadSettings(io.env);
  const store = await openData(settings);
  try {
    io.stdout.write(`${store.engine}: schema version ${await store.schemaVersion()} (${storeLocation(settings)})\n`);
    return 0;
  } finally {
    await store.close();
  }
}
