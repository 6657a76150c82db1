import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import type { SessionAddress } from '../../../src/platform/address.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-store-'));
const store = openSqliteStore({ path: sqlitePath(dir), home: dir });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function session(id: string, address: SessionAddress) {
  return store.sessions.create({ id, address, personKey: 'p', startedAt: Date.now(), promptLayers: [], prompt: 'x', promptSha256: 'h', toolsSignature: 's' });
}

describe('session store', () => {
  it('finds a user’s open sessions in any chat of one platform, and only theirs', async () => {
    await session('a', { platform: 'discord', chatId: 'dm-1', userId: 'U1' });
    await session('b', { platform: 'discord', chatId: 'dm-2', userId: 'U11' });
    await session('c', { platform: 'slack', chatId: 'D1', userId: 'U1' });
    await session('d', { platform: 'discord', chatId: 'c_1', threadId: 'thread', userId: 'U_1' });
    expect((await store.sessions.findOpenForUser('discord', 'U1')).map((s) => s.id)).toEqual(['a']);
    expect((await store.sessions.findOpenForUser('discord', 'U_1')).map((s) => s.id)).toEqual(['d']);
    await store.sessions.end('a', 'new', Date.now());
    expect(await store.sessions.findOpenForUser('discord', 'U1')).toEqual([]);
  });

  it('runs the database in WAL mode with versioned migrations', async () => {
    const db = new Database(sqlitePath(dir), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    } finally {
      db.close();
    }
    expect(store.engine).toBe('sqlite');
    expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
  });
});
