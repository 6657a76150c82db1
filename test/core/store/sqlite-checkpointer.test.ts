/**
 * WAL checkpoints off the event loop (src/store/sqlite/checkpointer.ts): once a connection has
 * committed enough, a worker thread copies the log into the database file while the gateway goes on
 * committing; the connection's own checkpoint (at 10,000 pages) is never what moved the pages in
 * these tests. Closing the store stops the worker first, so the last connection removes the log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, openDatabase, type Db } from '../../../src/store/sqlite/db.js';
import { WalCheckpointer } from '../../../src/store/sqlite/checkpointer.js';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-checkpoint-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `count` transactions, each storing a 2 KB row: about a page each in the log. */
async function commitRows(connection: Connection, count: number): Promise<void> {
  connection.db.exec('CREATE TABLE IF NOT EXISTS scratch (id INTEGER PRIMARY KEY, body TEXT)');
  const insert = connection.db.prepare('INSERT INTO scratch (body) VALUES (?)');
  for (let i = 0; i < count; i++) await connection.transaction(async () => void insert.run(`${i}:${'x'.repeat(2000)}`));
}

/** A connection on a fresh state.db whose commits `checkpointer` counts; both closed after `use`. */
async function withCheckpointer(
  startAfterCommits: number,
  use: (c: { path: string; db: Db; connection: Connection; checkpointer: WalCheckpointer }) => Promise<void>,
): Promise<WalCheckpointer> {
  const path = join(dir, 'state.db');
  const checkpointer = new WalCheckpointer(path, { startAfterCommits, minMs: 20, maxMs: 100 });
  const db = openDatabase(path);
  try {
    await use({ path, db, connection: new Connection(db, () => checkpointer.committed()), checkpointer });
  } finally {
    await checkpointer.close();
    db.close();
  }
  return checkpointer;
}

describe('WAL checkpointer', () => {
  it('starts after the threshold of commits and copies the log into the database file while commits go on', async () => {
    const checkpointer = await withCheckpointer(5, async ({ path, db, connection, checkpointer }) => {
      const before = statSync(path).size;
      await commitRows(connection, 4);
      expect(checkpointer.running).toBe(false);
      await commitRows(connection, 200);
      expect(checkpointer.running).toBe(true);
      // 200 rows of 2 KB are in the database file itself, not only in the log.
      await until(() => statSync(path).size >= before + 200 * 2000);
      await until(() => checkpointer.report.runs > 0 && checkpointer.report.checkpointed === checkpointer.report.log);
      expect(checkpointer.error).toBeNull();
      // The gateway's connection is still writing, and reads what it wrote.
      await commitRows(connection, 3);
      expect(db.prepare('SELECT count(*) FROM scratch').pluck().get()).toBe(207);
    });
    expect(checkpointer.running).toBe(false);
  });

  it('below the threshold no thread starts and the pages stay in the log', async () => {
    await withCheckpointer(1000, async ({ path, connection, checkpointer }) => {
      const before = statSync(path).size;
      await commitRows(connection, 200);
      await new Promise((r) => setTimeout(r, 300));
      expect(checkpointer.running).toBe(false);
      expect(statSync(path).size).toBe(before);
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(200 * 2000);
    });
  });

  it('a worker that cannot open the database stops and leaves checkpoints to the connection', async () => {
    const said: string[] = [];
    const checkpointer = new WalCheckpointer(join(dir, 'missing', 'state.db'), { startAfterCommits: 1, minMs: 20, maxMs: 100, onFailure: (r) => said.push(r) });
    checkpointer.committed();
    await until(() => !checkpointer.running);
    expect(checkpointer.error).toMatch(/unable to open|directory does not exist|no such file/i);
    // The operator is told once, with the reason.
    expect(said).toEqual([checkpointer.error]);
    // Nothing is started again by later commits, and closing has nothing to wait for.
    for (let i = 0; i < 5; i++) checkpointer.committed();
    expect(checkpointer.running).toBe(false);
    await checkpointer.close();
    expect(said).toHaveLength(1);
  });

  it('a log that ran long is cut back to the checkpoint size (40 MiB) when it starts over', async () => {
    const path = join(dir, 'state.db');
    const db = openDatabase(path);
    try {
      db.exec('CREATE TABLE scratch (id INTEGER PRIMARY KEY, body TEXT)');
      const insert = db.prepare('INSERT INTO scratch (body) VALUES (?)');
      // One transaction of 15,000 pages: past the 10,000 at which the log would be checkpointed.
      db.transaction(() => {
        for (let i = 0; i < 15_000; i++) insert.run('x'.repeat(4000));
      })();
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(15_000 * 4096);
      db.pragma('wal_checkpoint(PASSIVE)');
      insert.run('the log starts over here');
      expect(statSync(`${path}-wal`).size).toBeLessThanOrEqual(10_000 * 4096);
      expect(db.prepare('SELECT count(*) FROM scratch').pluck().get()).toBe(15_001);
    } finally {
      db.close();
    }
  });

  it('a busy store is checkpointed by the worker; closing it stops the worker first, so the log is removed and everything is kept', async () => {
    const path = join(dir, 'state.db');
    const store = openSqliteStore({ path, home: dir });
    for (let i = 0; i < 150; i++) {
      await store.transaction(async (tx) => void (await tx.leases.acquire(`lease-${i}-${'y'.repeat(1500)}`, 'me', 1_000, 60_000)));
    }
    await until(() => statSync(path).size > 150 * 1500);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = openSqliteStore({ path, home: dir });
    try {
      expect((await reopened.leases.list()).length).toBe(150);
    } finally {
      await reopened.close();
    }
  });
});
