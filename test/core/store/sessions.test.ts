import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../src/core/store/store.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-store-'));
const store = openStore(join(dir, 'state.db'));
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function session(id: string, key: string, platform: 'discord' | 'slack' = 'discord') {
  return store.sessions.create({ id, key, platform, personKey: 'p', startedAt: Date.now(), promptLayers: [], prompt: 'x', promptSha256: 'h', toolsSignature: 's' });
}

describe('session store', () => {
  it('finds a user’s open sessions in any chat of one platform, and only theirs', () => {
    session('a', 'discord:dm-1:U1');
    session('b', 'discord:dm-2:U11');
    session('c', 'slack:D1:U1', 'slack');
    session('d', 'discord:c_1:thread:U_1');
    expect(store.sessions.findOpenForUser('discord', 'U1').map((s) => s.id)).toEqual(['a']);
    expect(store.sessions.findOpenForUser('discord', 'U_1').map((s) => s.id)).toEqual(['d']);
    store.sessions.end('a', 'new', Date.now());
    expect(store.sessions.findOpenForUser('discord', 'U1')).toEqual([]);
  });

  it('runs the database in WAL mode with versioned migrations', () => {
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
  });
});
