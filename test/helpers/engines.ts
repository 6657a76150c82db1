/**
 * The storage engines a store test runs on (ARCHITECTURE.md §9: the same suite on both). SQLite gets a temp
 * home; PostgreSQL gets a schema of its own on the server from test/setup/postgres.ts (through
 * `search_path` in the URL), so tests never see each other's rows and need no server each.
 */
import { afterEach, beforeEach, inject } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openSqliteStore, sqlitePath } from '../../src/store/sqlite/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/core/store/types.js';

export interface EngineDb {
  /** Opens a store on this database (again: a second instance, like a second process). */
  open(): Promise<Store>;
  /** PostgreSQL: the URL with this database's schema; SQLite: the file. */
  readonly location: string;
  readonly home: string;
  /** Drops what the database holds. */
  cleanup(): Promise<void>;
}

export interface Engine {
  name: 'sqlite' | 'postgres';
  /** Why this engine cannot run here ('' when it can). */
  skip: string;
  create(): Promise<EngineDb>;
}

/** The server URL from the globalSetup ('' when none). */
export function postgresUrl(): string {
  return inject('postgresUrl') ?? '';
}

export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

const sqlite: Engine = {
  name: 'sqlite',
  skip: '',
  async create() {
    const home = mkdtempSync(join(tmpdir(), 'sb-engine-'));
    return {
      home,
      location: sqlitePath(home),
      open: async () => openSqliteStore({ path: sqlitePath(home), home }),
      cleanup: async () => rmSync(home, { recursive: true, force: true }),
    };
  },
};

const postgres: Engine = {
  name: 'postgres',
  skip: inject('postgresSkip') || (inject('postgresUrl') ? '' : 'no PostgreSQL server for tests'),
  async create() {
    const server = postgresUrl();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA ${schema}`);
    } finally {
      await admin.end();
    }
    const home = mkdtempSync(join(tmpdir(), 'sb-engine-'));
    const url = withSearchPath(server, schema);
    return {
      home,
      location: url,
      open: () => openPostgresStore({ url, maxConnections: 4 }),
      cleanup: async () => {
        rmSync(home, { recursive: true, force: true });
        const c = new pg.Client({ connectionString: server });
        await c.connect();
        try {
          await c.query(`DROP SCHEMA ${schema} CASCADE`);
        } finally {
          await c.end();
        }
      },
    };
  },
};

export const ENGINES: readonly Engine[] = [sqlite, postgres];

/** What a skipped engine's test title ends with: ` (skipped: why)`, or '' when the engine runs. */
export function skipNote(engine: Engine): string {
  return engine.skip ? ` (skipped: ${engine.skip})` : '';
}

/** Prints once per file why the PostgreSQL cases are skipped, so a skip is never mistaken for a pass. */
export function reportSkips(): void {
  for (const e of ENGINES) if (e.skip) process.stderr.write(`[store tests] ${e.name} skipped: ${e.skip}\n`);
}

/**
 * A fresh database and an open store for each test of the enclosing `describe`, closed and dropped
 * after it; `set` hands them to the test file's own variables.
 */
export function storeForEachTest(engine: Engine, set: (opened: { db: EngineDb; store: Store }) => void): void {
  let opened: { db: EngineDb; store: Store } | undefined;
  beforeEach(async () => {
    const db = await engine.create();
    opened = { db, store: await db.open() };
    set(opened);
  });
  afterEach(async () => {
    await opened?.store.close();
    await opened?.db.cleanup();
    opened = undefined;
  });
}
