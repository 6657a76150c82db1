/**
 * SQLite migration 8 (fewer pages written per message): a database at version 7 with work in flight
 * — a held lease, pending journal rows, an ended and an open session under one key — keeps all of it
 * across the upgrade, and the indexes it changed still serve the queries that used them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import { storedInbound } from '../../helpers/inbound.js';

const T0 = Date.parse('2025-03-10T10:00:00Z');

const inbound = storedInbound;

/** A database at schema version 7, written through the store of that version's tables. */
function versionSeven(path: string): void {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    for (const step of MIGRATIONS.slice(0, 7)) {
      if (typeof step === 'string') db.exec(step);
      else step(db);
    }
    db.pragma('user_version = 7');
    db.prepare('INSERT INTO leases (name, holder, acquired_at, expires_at) VALUES (?, ?, ?, ?)').run('session:telegram:1:1', 'instance-a', T0, T0 + 30_000);
    db.prepare('INSERT INTO leases (name, holder, acquired_at, expires_at) VALUES (?, ?, ?, ?)').run('door:telegram', 'instance-a', T0, T0 + 30_000);
    const session = db.prepare(
      `INSERT INTO sessions (id, key, platform, person_key, chat_id, user_id, started_at, last_active_at, ended_at, prompt, prompt_sha256, prompt_layers)
       VALUES (?, 'telegram:1:1', 'telegram', 'telegram:1', '1', '1', ?, ?, ?, ?, 'h', '[]')`,
    );
    session.run('s-old', T0, T0, T0 + 5, 'old prompt');
    session.run('s-open', T0 + 10, T0 + 10, null, 'open prompt');
    const journal = db.prepare('INSERT INTO inbound (platform, update_id, received_at, session_key, payload) VALUES (?, ?, ?, ?, ?)');
    // Arrival order is not key order: the journal replays by time.
    for (const [id, user, at] of [['9', '2', T0 + 1], ['10', '1', T0 + 2], ['8', '1', T0 + 3]] as const) {
      journal.run('telegram', id, at, `telegram:${user}:${user}`, JSON.stringify(inbound(id, user, at)));
    }
    db.prepare("UPDATE inbound SET status = 'done' WHERE update_id = '10'").run();
  } finally {
    db.close();
  }
}

describe('SQLite upgrade to schema 8', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-v7-'));
    versionSeven(sqlitePath(dir));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps held leases, pending messages in arrival order and the open session of a key', async () => {
    const store = openSqliteStore({ path: sqlitePath(dir), home: dir });
    try {
      expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
      // The lease is still instance-a's: another instance cannot take it, its holder renews both.
      expect(await store.leases.acquire('session:telegram:1:1', 'instance-b', T0 + 1000, 30_000)).toBe(false);
      expect(await store.leases.get('session:telegram:1:1')).toEqual({ name: 'session:telegram:1:1', holder: 'instance-a', acquiredAt: T0, expiresAt: T0 + 30_000 });
      expect(await store.leases.renewAll('instance-a', T0 + 2000, 30_000)).toEqual(['door:telegram', 'session:telegram:1:1']);
      expect(await store.leases.release('session:telegram:1:1', 'instance-a')).toBe(true);
      expect(await store.leases.acquire('session:telegram:1:1', 'instance-b', T0 + 3000, 30_000)).toBe(true);
      expect(await store.leases.releaseAll('instance-a')).toBe(1);
      expect((await store.leases.list()).map((l) => `${l.name}=${l.holder}`)).toEqual(['session:telegram:1:1=instance-b']);

      expect((await store.inbound.pending()).map((m) => m.updateId)).toEqual(['9', '8']);
      expect((await store.inbound.pendingFor('telegram:1:1')).map((m) => m.updateId)).toEqual(['8']);
      expect((await store.inbound.pending())[0].receivedAt).toEqual(new Date(T0 + 1));

      const open = await store.sessions.findOpen({ platform: 'telegram', chatId: '1', userId: '1' });
      expect(open?.id).toBe('s-open');
      expect(open?.prompt).toBe('open prompt');
      // A second open session under the key (a race of two starts): the later one is the open one.
      await store.sessions.create({
        id: 's-newer',
        address: { platform: 'telegram', chatId: '1', userId: '1' },
        personKey: 'telegram:1',
        startedAt: T0 + 20,
        promptLayers: [],
        prompt: 'newer prompt',
        promptSha256: 'h2',
        toolsSignature: '',
      });
      expect((await store.sessions.findOpen({ platform: 'telegram', chatId: '1', userId: '1' }))?.id).toBe('s-newer');
    } finally {
      await store.close();
    }
  });

  it('serves the per-message reads from indexes, and opening again migrates nothing more', async () => {
    await openSqliteStore({ path: sqlitePath(dir), home: dir }).close();
    const db = new Database(sqlitePath(dir), { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
      expect(plan("SELECT id FROM sessions WHERE key = 'k' AND ended_at IS NULL ORDER BY started_at DESC LIMIT 1")).toBe('SEARCH sessions USING INDEX sessions_open (key=?)');
      expect(plan("SELECT payload FROM inbound WHERE status = 'pending' ORDER BY received_at, rowid")).toContain('USING INDEX inbound_session_pending');
      expect(plan("SELECT id FROM messages WHERE session_id = 's' AND person_key = 'p' ORDER BY id")).toContain('USING INDEX messages_session');
      expect(plan("DELETE FROM leases WHERE name = 'n' AND holder = 'h'")).toContain('USING PRIMARY KEY (name=?)');
      const indexes = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name IN ('messages_person', 'inbound_pending', 'leases_holder')").all() as unknown[]).length;
      expect(indexes).toBe(0);
    } finally {
      db.close();
    }
    const again = openSqliteStore({ path: sqlitePath(dir), home: dir });
    expect(await again.schemaVersion()).toBe(MIGRATIONS.length);
    expect((await again.inbound.pending()).map((m) => m.updateId)).toEqual(['9', '8']);
    await again.close();
  });
});
