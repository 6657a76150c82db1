import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import type { SessionAddress } from '../../../src/platform/address.js';
import type { Store } from '../../../src/core/store/types.js';
import { ENGINES, reportSkips, skipNote, type EngineDb } from '../../helpers/engines.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-store-'));
const store = openSqliteStore({ path: sqlitePath(dir), home: dir });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

reportSkips();

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`session store on ${engine.name}${skipNote(engine)}`, () => {
    let db: EngineDb;
    let open: Store;
    beforeEach(async () => {
      db = await engine.create();
      open = await db.open();
    });
    afterEach(async () => {
      await open.close();
      await db.cleanup();
    });
    const session = (id: string, address: SessionAddress) =>
      open.sessions.create({ id, address, personKey: 'p', startedAt: Date.now(), promptLayers: [], prompt: 'x', promptSha256: 'h', toolsSignature: 's' });

    it('finds a user’s open sessions in any chat of one platform, and only theirs', async () => {
      await session('a', { platform: 'discord', chatId: 'dm-1', userId: 'U1' });
      await session('b', { platform: 'discord', chatId: 'dm-2', userId: 'U11' });
      await session('c', { platform: 'slack', chatId: 'D1', userId: 'U1' });
      await session('d', { platform: 'discord', chatId: 'c_1', threadId: 'thread', userId: 'U_1' });
      expect((await open.sessions.findOpenForUser('discord', 'U1')).map((s) => s.id)).toEqual(['a']);
      expect((await open.sessions.findOpenForUser('discord', 'U_1')).map((s) => s.id)).toEqual(['d']);
      await open.sessions.end('a', 'new', Date.now());
      expect(await open.sessions.findOpenForUser('discord', 'U1')).toEqual([]);
    });
  });
}

describe('sqlite session store', () => {
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

  it('reads a prompt back byte for byte with its layers, also from a row whose layers do not add up to it', async () => {
    const layers = [
      { name: 'identity', text: 'You are Switchboard, an assistant.\n\n' },
      { name: 'user_profile', text: '' },
      { name: 'platform_hint', text: 'You are talking on Telegram — keep it short. 👋\n\n' },
      { name: 'session_info', text: '# Session\nstarted today' },
    ];
    const prompt = layers.map((l) => l.text).join('');
    const address = { platform: 'telegram' as const, chatId: '77', userId: '77' };
    await store.sessions.create({ id: 'layers-1', address, personKey: 'p77', startedAt: 1, promptLayers: layers, prompt, promptSha256: 'h1', toolsSignature: 't' });
    await store.sessions.create({ id: 'layers-2', address: { ...address, chatId: '78', userId: '78' }, personKey: 'p78', startedAt: 1, promptLayers: layers, prompt, promptSha256: 'h2', toolsSignature: 't' });
    // Another process rewrote the second row's prompt without its layers (they no longer add up to it).
    const raw = new Database(sqlitePath(dir));
    raw.prepare("UPDATE sessions SET prompt = 'rewritten' WHERE id = 'layers-2'").run();
    raw.close();
    // A fresh store: nothing cached, both read from their rows.
    const again = openSqliteStore({ path: sqlitePath(dir), home: dir });
    try {
      const one = await again.sessions.get('layers-1');
      expect(one?.prompt).toBe(prompt);
      expect(one?.promptLayers).toEqual(layers);
      expect(one?.promptLayers.map((l) => l.text).join('')).toBe(one?.prompt);
      const two = await again.sessions.get('layers-2');
      expect(two?.prompt).toBe('rewritten');
      expect(two?.promptLayers).toEqual(layers);
    } finally {
      await again.close();
    }
  });
});
