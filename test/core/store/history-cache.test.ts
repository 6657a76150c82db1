/**
 * The SQLite engine keeps the histories it read and then reads only the rows added since: the result
 * must always equal a fresh read — after appends, compression (also twice with the same summary),
 * a rolled-back transaction, and rows written by another process on the same file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import type { Store } from '../../../src/core/store/types.js';

let home: string;
let store: Store;
let other: Store;
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'sb-history-'));
  store = openSqliteStore({ path: sqlitePath(home), home });
  other = openSqliteStore({ path: sqlitePath(home), home });
  await store.sessions.create({ id: 's1', address: { platform: 'telegram', chatId: '1', userId: '1' }, personKey: 'p', startedAt: 1, promptLayers: [], prompt: 'x', promptSha256: 'h', toolsSignature: '' });
});
afterEach(async () => {
  await store.close();
  await other.close();
  rmSync(home, { recursive: true, force: true });
});

const say = (s: Store, text: string) => s.messages.append('s1', 'p', [{ role: 'user', content: text }, { role: 'assistant', content: `re ${text}` }], 2);
const texts = async (s: Store) => (await s.messages.history('s1')).map((m) => m.content);

describe('history cache', () => {
  it('equals a fresh read after appends, other writers, compression and rollback', async () => {
    await say(store, 'a');
    expect(await texts(store)).toEqual(['a', 're a']);
    await say(store, 'b');
    expect(await texts(store)).toEqual(['a', 're a', 'b', 're b']);
    // Another process appends: seen at once.
    await say(other, 'c');
    expect(await texts(store)).toEqual(['a', 're a', 'b', 're b', 'c', 're c']);
    // The caller's copy is its own.
    (await store.messages.history('s1')).push({ role: 'user', content: 'mine' });
    expect(await texts(store)).toHaveLength(6);
    // Compression twice with the same summary text.
    const ids = (await store.messages.historyRows('s1')).map((r) => r.id);
    await store.messages.compress('s1', ids.slice(0, 2), 'S');
    expect(await texts(store)).toEqual(['S', 'b', 're b', 'c', 're c']);
    await other.messages.compress('s1', ids.slice(2, 4), 'S');
    expect(await texts(store)).toEqual(['S', 'c', 're c']);
    // This process compresses again with the same summary, inside a transaction as compression does.
    await store.transaction((tx) => tx.messages.compress('s1', ids.slice(4, 5), 'S'));
    expect(await texts(store)).toEqual(['S', 're c']);
    await say(store, 'c2');
    await store.transaction((tx) => tx.messages.compress('s1', ids.slice(5, 6), 'S'));
    expect(await texts(store)).toEqual(['S', 'c2', 're c2']);
    // A rolled-back append leaves nothing behind, and the next row (which may reuse its id) is read.
    await expect(
      store.transaction(async (tx) => {
        await tx.messages.append('s1', 'p', [{ role: 'user', content: 'lost' }], 3);
        expect((await tx.messages.history('s1')).map((m) => m.content)).toEqual(['S', 'c2', 're c2', 'lost']);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await texts(store)).toEqual(['S', 'c2', 're c2']);
    await say(other, 'd');
    expect(await texts(store)).toEqual(['S', 'c2', 're c2', 'd', 're d']);
    expect(await texts(store)).toEqual(await texts(other));
    // A history read before is the caller's: later turns (appended to the cached rows) do not change
    // it, with a summary first or without one.
    await store.sessions.create({ id: 's2', address: { platform: 'telegram', chatId: '2', userId: '2' }, personKey: 'p', startedAt: 1, promptLayers: [], prompt: 'x', promptSha256: 'h', toolsSignature: '' });
    await store.messages.append('s2', 'p', [{ role: 'user', content: 'x' }], 2);
    const unsummarised = await store.messages.history('s2');
    await store.messages.append('s2', 'p', [{ role: 'user', content: 'y' }], 2);
    expect(unsummarised.map((m) => m.content)).toEqual(['x']);
    expect((await store.messages.history('s2')).map((m) => m.content)).toEqual(['x', 'y']);
    const earlier = await store.messages.history('s1');
    await say(store, 'e');
    await say(store, 'f');
    expect(earlier.map((m) => m.content)).toEqual(['S', 'c2', 're c2', 'd', 're d']);
    expect(await texts(store)).toEqual(['S', 'c2', 're c2', 'd', 're d', 'e', 're e', 'f', 're f']);
    expect(await texts(store)).toEqual(await texts(other));
  });
});

describe('prompt cache', () => {
  const address = { platform: 'telegram', chatId: '1', userId: '1' } as const;
  const layers = (text: string) => [{ name: 'identity', text }, { name: 'memory', text: '' }];

  it('gives a session’s prompt as stored, after a rebuild here or by another process', async () => {
    expect((await store.sessions.findOpen(address))?.promptLayers).toEqual([]);
    await store.sessions.replacePrompt('s1', layers('one'), 'one', 'h1', 'tools');
    expect((await store.sessions.findOpen(address))?.prompt).toBe('one');
    expect((await store.sessions.get('s1'))?.promptLayers).toEqual(layers('one'));
    // Another process rebuilds it, even to the same text and hash: the new layers are read.
    await other.sessions.replacePrompt('s1', [{ name: 'identity', text: 'o' }, { name: 'memory', text: 'ne' }], 'one', 'h1', 'tools');
    const s = await store.sessions.findOpen(address);
    expect(s?.promptLayers).toEqual([{ name: 'identity', text: 'o' }, { name: 'memory', text: 'ne' }]);
    expect(s?.promptRebuilds).toBe(2);
    // The layers handed out are shared by the session's turns: no caller can change them for the next.
    expect(() => s!.promptLayers.push({ name: 'x', text: 'x' })).toThrow();
    expect(await store.sessions.findOpen(address)).toEqual(await other.sessions.findOpen(address));
  });
});
