/**
 * SQLite search indexed in batches (migration 9, src/store/sqlite/fts-index.ts): rows wait behind a
 * watermark instead of being indexed by a trigger at every insert, and no search may notice. A row
 * stored is found by the next search; rows a process never indexed are found after it restarts;
 * retention deleting indexed and unindexed rows alike leaves the index equal to the rows left; and a
 * database indexed by the old trigger (schema 8) keeps all of it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import { FTS_BATCH_ROWS, FTS_FLUSH_MS } from '../../../src/store/sqlite/fts-index.js';
import type { NewSession, Store } from '../../../src/core/store/types.js';

const T0 = Date.parse('2025-03-10T10:00:00Z');

function newSession(id: string, personKey = 'alice'): NewSession {
  return {
    id,
    address: { platform: 'telegram', chatId: id, userId: personKey },
    personKey,
    startedAt: T0,
    promptLayers: [{ name: 'identity', text: 'x' }],
    prompt: 'x',
    promptSha256: 'h',
    toolsSignature: 's',
  };
}

/** What the index holds, read by another connection (as `sessions search` in a second process would). */
function inspect<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const watermark = (path: string) =>
  inspect(path, (db) => ({
    last: db.prepare('SELECT last_id FROM fts_indexed').pluck().get() as number,
    top: (db.prepare('SELECT max(id) FROM messages').pluck().get() as number | null) ?? 0,
  }));

/** Rows the FTS index itself holds for a word (no catching up first: a raw MATCH). */
const indexed = (path: string, word: string) =>
  inspect(path, (db) => db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid').pluck().all(`"${word}"`) as number[]);

/**
 * The index is exactly the user and assistant rows left: FTS5's integrity-check passes, and every
 * (term, row, offset) it holds equals those of an index built afresh from the rows. (The plain
 * integrity-check alone does not notice an index that was told to delete a row it never had.)
 */
function expectIndexEqualsRows(path: string): void {
  inspect(path, (db) => {
    db.prepare("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')").run();
    db.exec(`
      CREATE VIRTUAL TABLE temp.fresh USING fts5(content, tokenize='porter unicode61');
      INSERT INTO temp.fresh(rowid, content) SELECT id, content FROM messages WHERE role IN ('user','assistant');
      CREATE VIRTUAL TABLE temp.fresh_terms USING fts5vocab(temp, fresh, 'instance');
      CREATE VIRTUAL TABLE temp.stored_terms USING fts5vocab(main, messages_fts, 'instance');
    `);
    const terms = (table: string) => db.prepare(`SELECT term, doc, offset FROM temp.${table} ORDER BY term, doc, offset`).all();
    const fresh = terms('fresh_terms');
    expect(fresh.length).toBeGreaterThan(0);
    expect(terms('stored_terms')).toEqual(fresh);
  });
}

describe('SQLite search indexed in batches', () => {
  let home: string;
  let path: string;
  let store: Store;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'sb-fts-'));
    path = sqlitePath(home);
    store = openSqliteStore({ path, home });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await store.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('finds a message the moment it is stored (user and assistant; tool results never), without indexing at each insert', async () => {
    await store.sessions.create(newSession('s1'));
    await store.messages.append('s1', 'alice', [
      { role: 'user', content: 'where did I park the bicycle' },
      { role: 'assistant', content: 'the bicycle is by the library' },
      { role: 'tool', toolCallId: 'c1', name: 'memory', content: 'bicycle in a tool result' },
    ], T0);
    // Stored, not yet indexed: the insert no longer writes the index.
    expect(indexed(path, 'bicycle')).toEqual([]);
    expect(watermark(path)).toEqual({ last: 0, top: 3 });

    const hits = await store.messages.search('alice', 'bicycle');
    expect(hits.map((h) => h.role).sort()).toEqual(['assistant', 'user']);
    expect(hits.every((h) => h.snippet.includes('[bicycle]'))).toBe(true);
    expect((await store.messages.searchAll('library')).map((h) => h.snippet)).toEqual(['the bicycle is by the [library]']);
    expect(watermark(path)).toEqual({ last: 3, top: 3 });

    // Inside a transaction, the rows it wrote so far are searched too — and rolled back with it.
    await expect(
      store.transaction(async (tx) => {
        await tx.messages.append('s1', 'alice', [{ role: 'user', content: 'a kayak on the roof' }], T0 + 1);
        expect((await tx.messages.search('alice', 'kayak')).length).toBe(1);
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    expect(await store.messages.search('alice', 'kayak')).toEqual([]);
    expect(watermark(path).last).toBe(3);
    expectIndexEqualsRows(path);
  });

  it('indexes on its own once enough rows wait, or after a while', async () => {
    await store.sessions.create(newSession('s1'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await store.messages.append('s1', 'alice', [{ role: 'user', content: 'a lonely walrus' }], T0);
    await new Promise((r) => setImmediate(r));
    expect(indexed(path, 'walrus')).toEqual([]);
    await vi.advanceTimersByTimeAsync(FTS_FLUSH_MS);
    expect(indexed(path, 'walrus')).toEqual([1]);
    vi.useRealTimers();

    const many = Array.from({ length: FTS_BATCH_ROWS }, (_, i) => ({ role: 'user' as const, content: `penguin number ${i}` }));
    await store.messages.append('s1', 'alice', many, T0 + 1);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(indexed(path, 'penguin').length).toBe(FTS_BATCH_ROWS);
    expect(watermark(path)).toEqual({ last: FTS_BATCH_ROWS + 1, top: FTS_BATCH_ROWS + 1 });
  });

  it('finds after a restart the messages stored before it that were never indexed', async () => {
    await store.sessions.create(newSession('s1'));
    await store.messages.append('s1', 'alice', [{ role: 'user', content: 'my passport expires in June' }, { role: 'assistant', content: 'noted, June' }], T0);
    await store.close();
    expect(watermark(path)).toEqual({ last: 0, top: 2 });

    store = openSqliteStore({ path, home });
    expect((await store.messages.search('alice', 'passport')).map((h) => h.snippet)).toEqual(['my [passport] expires in June']);
    expect((await store.messages.search('alice', 'june')).length).toBe(2);
    expectIndexEqualsRows(path);
  });

  it('retention deleting indexed and unindexed rows (the newest ones too) leaves the index equal to the rows left', async () => {
    for (const id of ['old1', 'old2', 'kept']) await store.sessions.create(newSession(id));
    await store.messages.append('kept', 'alice', [{ role: 'user', content: 'kept apple' }], T0);
    await store.messages.append('old1', 'alice', [{ role: 'user', content: 'old apple pie' }, { role: 'tool', toolCallId: 'c', name: 'm', content: 'apple tool' }], T0);
    expect((await store.messages.search('alice', 'apple')).length).toBe(2); // indexed up to here
    await store.messages.append('old1', 'alice', [{ role: 'assistant', content: 'unindexed apple crumble' }], T0 + 1);
    await store.messages.append('old2', 'alice', [{ role: 'user', content: 'newest apple juice' }, { role: 'assistant', content: 'apple juice again' }], T0 + 2);
    await store.sessions.end('old1', 'idle', T0 + 10);
    await store.sessions.end('old2', 'idle', T0 + 10);
    const before = watermark(path);
    expect(before.last).toBeLessThan(before.top);

    const pruned = await store.retention.prune({ sessionsBefore: T0 + 100 }, 100);
    expect(pruned).toMatchObject({ sessions: 2, messages: 5 });
    // The newest rows went: the watermark comes down to the highest row left, so the next row
    // (which takes the next id after it) is indexed, not skipped.
    expect(watermark(path)).toEqual({ last: 1, top: 1 });
    expectIndexEqualsRows(path);
    expect((await store.messages.search('alice', 'apple')).map((h) => h.snippet)).toEqual(['kept [apple]']);

    await store.messages.append('kept', 'alice', [{ role: 'user', content: 'a second apple' }], T0 + 3);
    expect((await store.messages.search('alice', 'apple')).map((h) => h.snippet).sort()).toEqual(['a second [apple]', 'kept [apple]']);
    await store.messages.append('kept', 'alice', [{ role: 'assistant', content: 'apple left unindexed' }], T0 + 4);
    await store.sessions.end('kept', 'idle', T0 + 20);
    await store.retention.prune({ sessionsBefore: T0 + 100 }, 100);
    expect(watermark(path)).toEqual({ last: 0, top: 0 });
    expect(await store.messages.search('alice', 'apple')).toEqual([]);
    inspect(path, (db) => db.prepare("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')").run());
    expect(inspect(path, (db) => db.prepare('SELECT count(*) FROM messages_fts').pluck().get())).toBe(0);
  });

  it('a second process searching (`sessions search` while the gateway runs) indexes the tail once, for both', async () => {
    const other = openSqliteStore({ path, home });
    try {
      await store.sessions.create(newSession('s1'));
      await store.messages.append('s1', 'alice', [{ role: 'user', content: 'the red tractor' }], T0);
      expect((await other.messages.searchAll('tractor')).length).toBe(1);
      await store.messages.append('s1', 'alice', [{ role: 'assistant', content: 'a tractor indeed' }], T0 + 1);
      expect((await store.messages.search('alice', 'tractor')).length).toBe(2);
      expect((await other.messages.searchAll('tractor')).length).toBe(2);
      expect(watermark(path)).toEqual({ last: 2, top: 2 });
      expectIndexEqualsRows(path);
    } finally {
      await other.close();
    }
  });

  it('compression marks rows but keeps them searchable', async () => {
    await store.sessions.create(newSession('s1'));
    await store.messages.append('s1', 'alice', [{ role: 'user', content: 'the blue umbrella' }, { role: 'assistant', content: 'ok' }], T0);
    const rows = await store.messages.historyRows('s1');
    await store.messages.compress('s1', rows.map((r) => r.id), 'summary');
    expect((await store.messages.search('alice', 'umbrella')).length).toBe(1);
    expectIndexEqualsRows(path);
  });
});

describe('SQLite upgrade to schema 9 (batched search index)', () => {
  let home: string;
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('a database at schema 8 keeps every old message searchable, and indexes the new ones', async () => {
    home = mkdtempSync(join(tmpdir(), 'sb-v8-'));
    const path = sqlitePath(home);
    expect(MIGRATIONS.length).toBeGreaterThanOrEqual(9);
    const old = new Database(path);
    old.pragma('journal_mode = WAL');
    for (const step of MIGRATIONS.slice(0, 8)) {
      if (typeof step === 'string') old.exec(step);
      else step(old);
    }
    old.pragma('user_version = 8');
    old.prepare(
      `INSERT INTO sessions (id, key, platform, person_key, chat_id, user_id, started_at, last_active_at, ended_at, prompt, prompt_sha256, prompt_layers)
       VALUES ('s-old', 'telegram:1:1', 'telegram', 'alice', '1', '1', ?, ?, ?, 'p', 'h', '[]')`,
    ).run(T0, T0, T0 + 5);
    const row = old.prepare("INSERT INTO messages (session_id, person_key, role, content, created_at) VALUES ('s-old', 'alice', ?, ?, ?)");
    row.run('user', 'an old note about the garden shed', T0);
    row.run('tool', 'garden tool output', T0);
    row.run('assistant', 'the shed key is under the pot', T0);
    old.close();

    const store = openSqliteStore({ path, home });
    try {
      expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
      expect(watermark(path)).toEqual({ last: 3, top: 3 });
      expect(inspect(path, (db) => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").pluck().all())).toEqual(['messages_ad']);
      expect((await store.messages.search('alice', 'shed')).map((h) => h.role).sort()).toEqual(['assistant', 'user']);
      expect(await store.messages.search('alice', 'output')).toEqual([]);

      await store.sessions.create(newSession('s-new'));
      await store.messages.append('s-new', 'alice', [{ role: 'user', content: 'a new shed door' }], T0 + 10);
      expect((await store.messages.search('alice', 'shed')).length).toBe(3);
      // Old indexed rows delete cleanly through the new trigger.
      await store.retention.prune({ sessionsBefore: T0 + 100 }, 100);
      expect((await store.messages.search('alice', 'shed')).map((h) => h.sessionId)).toEqual(['s-new']);
      expectIndexEqualsRows(path);
    } finally {
      await store.close();
    }
  });
});
