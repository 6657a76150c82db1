/**
 * Both engines through the `Store` interface (src/core/store/types.ts): the same repository and
 * transaction cases on SQLite and PostgreSQL (everything a transaction wrote commits together or
 * not at all). SQLite only: its one connection keeps callers outside a transaction out of it, one
 * transaction at a time, and the upgrade of a round-1 database to address columns. Cases only
 * several instances on PostgreSQL have are in postgres.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import type { NewSession, Repositories, Store } from '../../../src/core/store/types.js';
import { ENGINES, storeForEachTest, reportSkips, skipNote } from '../../helpers/engines.js';
import { cronSessionAddress, formatSessionKey, type SessionAddress } from '../../../src/platform/address.js';
import { storedInbound } from '../../helpers/inbound.js';

reportSkips();

const T0 = Date.parse('2025-03-10T10:00:00Z');

function newSession(id: string, address: SessionAddress, personKey = 'alice'): NewSession {
  return { id, address, personKey, startedAt: T0, promptLayers: [{ name: 'identity', text: 'x' }], prompt: 'x', promptSha256: 'h', toolsSignature: 's' };
}

const inbound = (updateId: string) => storedInbound(updateId, '1001', T0);

/** Resolves after other pending callbacks (microtasks and due timers) have run. */
const settle = () => new Promise<void>((r) => setTimeout(r, 5));

/** A promise and its resolver, to hold a transaction open. */
function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** Whether `p` has settled, without waiting for it. */
function tracked<T>(p: Promise<T>): { done: () => boolean; promise: Promise<T> } {
  let done = false;
  const promise = p.finally(() => (done = true));
  return { done: () => done, promise };
}

/** Every kind of row a transaction can write, through the transaction's repositories. */
async function writeOneOfEach(tx: Repositories): Promise<void> {
  await tx.sessions.create(newSession('s-tx', { platform: 'telegram', chatId: '1001', userId: '1001' }));
  await tx.messages.append('s-tx', 'alice', [{ role: 'user', content: 'rolled back words' }], T0);
  await tx.inbound.claim(inbound('u-tx'), 'telegram:1001:1001');
  await tx.outbox.enqueue({ platform: 'telegram', chatId: '1001' }, { chunks: ['reply'] }, T0);
  await tx.cron.insertChatJob({ id: 'job-tx', owner: 'alice', schedule: '0 9 * * *', timezone: null, prompt: 'p', deliver: { platform: 'telegram', chatId: '1001' } }, T0);
  await tx.pairing.request('slack', 'U9', 'D9', T0);
}

async function countAll(s: Store) {
  return {
    sessions: await s.sessions.count(),
    messages: (await s.messages.searchAll('rolled back words')).length,
    inboundPending: (await s.inbound.pending()).length,
    outbox: (await s.outbox.pending()).length,
    cron: (await s.cron.list()).length,
    pairing: (await s.pairing.list(T0)).length,
  };
}

const NOTHING = { sessions: 0, messages: 0, inboundPending: 0, outbox: 0, cron: 0, pairing: 0 };

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`${engine.name} engine${skipNote(engine)}`, () => {
    let store: Store;
    storeForEachTest(engine, (opened) => ({ store } = opened));

    it('names itself', () => {
      expect(store.engine).toBe(engine.name);
    });

    describe('repositories', () => {
      it('keeps a session’s address as given and finds it by that address only', async () => {
        const threaded: SessionAddress = { platform: 'slack', chatId: 'C1', threadId: '1700000000.000100', userId: 'U1' };
        const created = await store.sessions.create(newSession('s1', threaded));
        expect(created.address).toEqual(threaded);
        expect(created.key).toBe(formatSessionKey(threaded));
        expect((await store.sessions.findOpen(threaded))?.id).toBe('s1');
        expect(await store.sessions.findOpen({ ...threaded, userId: 'U2' })).toBeUndefined();
        expect(await store.sessions.findOpen({ platform: 'slack', chatId: 'C1', userId: 'U1' })).toBeUndefined();
        // Parts holding ':' do not collide with a longer address.
        await store.sessions.create(newSession('s2', { platform: 'email', chatId: 'a:b', userId: 'c' }));
        expect(await store.sessions.findOpen({ platform: 'email', chatId: 'a', threadId: 'b', userId: 'c' })).toBeUndefined();
        expect((await store.sessions.findOpen({ platform: 'email', chatId: 'a:b', userId: 'c' }))?.id).toBe('s2');
        expect((await store.sessions.findOpen(cronSessionAddress('daily'))) ?? null).toBeNull();
      });

      it('searches and reads only the owner’s messages', async () => {
        await store.sessions.create(newSession('a1', { platform: 'telegram', chatId: '1', userId: '1' }, 'alice'));
        await store.sessions.create(newSession('b1', { platform: 'telegram', chatId: '2', userId: '2' }, 'bob'));
        await store.messages.append('a1', 'alice', [{ role: 'user', content: 'the cat is called Miso' }, { role: 'assistant', content: 'noted' }], T0);
        await store.messages.append('b1', 'bob', [{ role: 'user', content: 'the cat is called Rex' }], T0);
        expect((await store.messages.search('alice', 'cat')).map((h) => h.sessionId)).toEqual(['a1']);
        expect(await store.messages.search('alice', 'Rex')).toEqual([]);
        expect(await store.messages.transcript('b1', 'alice')).toEqual([]);
        expect((await store.messages.transcript('a1', 'alice')).map((l) => l.content)).toEqual(['the cat is called Miso', 'noted']);
        expect((await store.messages.searchAll('cat')).map((h) => h.personKey).sort()).toEqual(['alice', 'bob']);
      });

      it('keeps an outbox target’s address and details, ordered per chat', async () => {
        const target = { platform: 'telegram' as const, chatId: '-100123', threadId: '42', replyToMessageId: '7' };
        const first = await store.outbox.enqueue(target, { chunks: ['one'] }, T0, 'telegram:-100123:42:1001');
        await store.outbox.enqueue(target, { chunks: ['two'] }, T0 + 1);
        expect((await store.outbox.get(first))?.target).toEqual(target);
        expect(await store.outbox.takeHead({ platform: 'telegram', chatId: '-100123' }, T0 + 5, 30_000)).toBeUndefined();
        expect((await store.outbox.takeHead({ platform: 'telegram', chatId: '-100123', threadId: '42' }, T0 + 5, 30_000))?.id).toBe(first);
        expect((await store.outbox.heads()).map((i) => i.id)).toEqual([first]);
      });

      it('holds a reply back until its not-before time (a 429 met while streaming), not earlier', async () => {
        const chat = { platform: 'telegram' as const, chatId: '555' };
        const id = await store.outbox.enqueue(chat, { chunks: ['later'] }, T0, null, T0 + 4000);
        expect((await store.outbox.get(id))?.nextAttemptAt).toBe(T0 + 4000);
        const plain = await store.outbox.enqueue({ platform: 'telegram', chatId: '556' }, { chunks: ['now'] }, T0, null, T0 - 10);
        expect((await store.outbox.get(plain))?.nextAttemptAt).toBe(T0);
      });

      it('claims an inbound update once', async () => {
        expect(await store.inbound.claim(inbound('u1'), null)).toBe(true);
        expect(await store.inbound.claim(inbound('u1'), null)).toBe(false);
        await store.inbound.mark('telegram', 'u1', 'done');
        expect(await store.inbound.pending()).toEqual([]);
      });

      it('reads and writes memory per person and file', async () => {
        await store.memory.write('alice', 'memory', ['Likes tea.']);
        expect(await store.memory.read('alice', 'memory')).toEqual(['Likes tea.']);
        expect(await store.memory.read('alice', 'user')).toEqual([]);
        expect(await store.memory.read('bob', 'memory')).toEqual([]);
      });

      it('ranks hits best first with a marked snippet, leaving out the asking session', async () => {
        await store.sessions.create(newSession('a1', { platform: 'telegram', chatId: '1', userId: '1' }, 'alice'));
        await store.sessions.create(newSession('a2', { platform: 'slack', chatId: 'D1', userId: 'U1' }, 'alice'));
        await store.messages.append('a1', 'alice', [{ role: 'user', content: 'the invoice for March is late, the invoice number is 4411' }], T0);
        await store.messages.append('a2', 'alice', [{ role: 'user', content: 'lunch was fine, no invoice talk today please' }], T0 + 1);
        await store.messages.append('a2', 'alice', [{ role: 'tool', toolCallId: 'c1', name: 'memory', content: 'invoice in a tool result' }], T0 + 2);
        const hits = await store.messages.search('alice', 'invoice march');
        expect(hits.map((h) => h.sessionId)).toEqual(['a1', 'a2']);
        expect(hits[0].rank).toBeLessThan(hits[1].rank);
        expect(hits[0].snippet).toContain('[invoice]');
        expect(hits[0]).toMatchObject({ platform: 'telegram', sessionStartedAt: T0, createdAt: T0, role: 'user' });
        expect((await store.messages.search('alice', 'invoice', { excludeSessionId: 'a1' })).map((h) => h.sessionId)).toEqual(['a2']);
        expect(await store.messages.search('alice', '  "; DROP TABLE messages; -- ')).toEqual([]);
        expect(await store.messages.search('alice', '?!')).toEqual([]);
        // Odd input is words or nothing, never a query syntax error.
        for (const odd of ["it's a-b c_d", 'x & y | !z <-> (w)', "'quoted' \\ back\\slash", 'Straße naïve café', 'مرحبا بالعالم', '🙂 emoji', 'e\u0301clair', 'OR AND NOT NEAR', '**invoice**:*', '1.5e10 0x1F']) {
          expect(Array.isArray(await store.messages.search('alice', odd)), odd).toBe(true);
        }
        expect((await store.messages.search('alice', '**invoice**:*')).length).toBe(2);
      });

      it('finds words in text written without spaces (CJK)', async () => {
        await store.sessions.create(newSession('j1', { platform: 'telegram', chatId: '1', userId: '1' }, 'alice'));
        await store.sessions.create(newSession('j2', { platform: 'telegram', chatId: '2', userId: '2' }, 'bob'));
        await store.messages.append('j1', 'alice', [{ role: 'user', content: '猫の名前はミソです' }], T0);
        await store.messages.append('j2', 'bob', [{ role: 'user', content: '猫の名前はレックスです' }], T0);
        const hits = await store.messages.search('alice', '猫の名前はミソです');
        expect(hits.map((h) => h.sessionId)).toEqual(['j1']);
        if (engine.name === 'postgres') {
          // PostgreSQL also finds a part of an unspaced run, marked in the snippet.
          const part = await store.messages.search('alice', 'ミソ');
          expect(part.map((h) => h.sessionId)).toEqual(['j1']);
          expect(part[0].snippet).toContain('[ミソ]');
        }
      });

      it('keeps history, compression and usage per session', async () => {
        await store.sessions.create(newSession('h1', { platform: 'telegram', chatId: '1', userId: '1' }));
        await store.messages.append('h1', 'alice', [
          { role: 'user', content: 'q1' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'memory', arguments: '{}' }] },
          { role: 'tool', toolCallId: 'c1', name: 'memory', content: 'ok' },
          { role: 'assistant', content: 'a1' },
        ], T0, { inputTokens: 10, outputTokens: 5, cachedTokens: 2, cacheWriteTokens: 0 });
        const rows = await store.messages.historyRows('h1');
        expect(rows.map((r) => r.message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
        expect(rows[1].message).toEqual({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'memory', arguments: '{}' }] });
        await store.messages.compress('h1', rows.slice(0, 3).map((r) => r.id), 'summary of q1');
        expect(await store.messages.history('h1')).toEqual([{ role: 'user', content: 'summary of q1' }, { role: 'assistant', content: 'a1' }]);
        expect(await store.messages.summary('h1')).toBe('summary of q1');
        expect(await store.messages.count('h1')).toBe(4);
        await store.sessions.recordTurn('h1', T0 + 5, { inputTokens: 10, outputTokens: 5, cachedTokens: 2, cacheWriteTokens: 1 }, 2);
        await store.sessions.addUsage('h1', { inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0 }, 1);
        const s = await store.sessions.get('h1');
        expect(s).toMatchObject({ lastActiveAt: T0 + 5, requests: 3, usage: { inputTokens: 11, outputTokens: 6, cachedTokens: 2, cacheWriteTokens: 1 } });
        expect(await store.sessions.usageByPerson('alice')).toEqual({ sessions: 1, requests: 3, inputTokens: 11, outputTokens: 6, cachedTokens: 2, cacheWriteTokens: 1 });
        expect(await store.sessions.usageByPeople()).toEqual([{ personKey: 'alice', sessions: 1, requests: 3, inputTokens: 11, outputTokens: 6, cachedTokens: 2, cacheWriteTokens: 1 }]);
        await store.sessions.end('h1', 'new', T0 + 9);
        expect(await store.sessions.findOpen({ platform: 'telegram', chatId: '1', userId: '1' })).toBeUndefined();
        expect((await store.sessions.list({ personKey: 'alice' }))[0]).toMatchObject({ endedAt: T0 + 9, endReason: 'new' });
      });

      it('takes an outbox item once per lease and keeps its progress', async () => {
        const chat = { platform: 'telegram' as const, chatId: '1' };
        const id = await store.outbox.enqueue(chat, { chunks: ['a', 'b'] }, T0);
        expect(await store.outbox.takeHead(chat, T0, 30_000)).toMatchObject({ id, nextChunk: 0, attempts: 0, message: { chunks: ['a', 'b'] }, target: chat, nextAttemptAt: T0 + 30_000 });
        expect(await store.outbox.takeHead(chat, T0 + 1, 30_000)).toBeUndefined();
        expect(await store.outbox.takeHead(chat, T0 + 29_999, 30_000)).toBeUndefined();
        await store.outbox.chunkSent(id, 0);
        await store.outbox.retryLater(id, 'HTTP 500', T0 + 5);
        expect(await store.outbox.get(id)).toMatchObject({ nextChunk: 1, attempts: 1, lastError: 'HTTP 500', nextAttemptAt: T0 + 5, status: 'pending' });
        expect(await store.outbox.takeHead(chat, T0 + 4, 30_000)).toBeUndefined();
        // A retry resumes after the last confirmed chunk.
        expect(await store.outbox.takeHead(chat, T0 + 5, 30_000)).toMatchObject({ id, nextChunk: 1, attempts: 1 });
        await store.outbox.sent(id, T0 + 6, 2);
        expect(await store.outbox.get(id)).toMatchObject({ status: 'sent', nextChunk: 2, lastError: null });
        expect(await store.outbox.counts()).toEqual({ pending: 0, sent: 1, failed: 0 });
        expect(await store.outbox.takeHead(chat, T0 + 60_000, 30_000)).toBeUndefined();
      });

      it('takes a reply in the transaction that stores it only when nothing else of its chat is pending', async () => {
        const chat = { platform: 'telegram' as const, chatId: '7' };
        const other = { platform: 'telegram' as const, chatId: '8' };
        const first = await store.transaction((tx) => tx.outbox.enqueueTaken(chat, { chunks: ['first'] }, T0, null, 30_000));
        expect(first.taken).toMatchObject({ id: first.id, nextChunk: 0, attempts: 0, status: 'pending', message: { chunks: ['first'] }, target: chat, nextAttemptAt: T0 + 30_000 });
        expect(await store.outbox.get(first.id)).toMatchObject({ nextAttemptAt: T0 + 30_000, status: 'pending' });
        // Taken: nobody else takes it meanwhile.
        expect(await store.outbox.takeHead(chat, T0 + 1, 30_000)).toBeUndefined();
        // A reply behind a pending one waits its turn, due at once; another chat's is taken.
        const second = await store.transaction((tx) => tx.outbox.enqueueTaken(chat, { chunks: ['second'] }, T0 + 2, null, 30_000));
        expect(second.taken).toBeNull();
        expect(await store.outbox.get(second.id)).toMatchObject({ nextAttemptAt: T0 + 2 });
        const elsewhere = await store.transaction((tx) => tx.outbox.enqueueTaken(other, { chunks: ['elsewhere'] }, T0 + 3, null, 30_000));
        expect(elsewhere.taken?.id).toBe(elsewhere.id);
        await store.outbox.sent(first.id, T0 + 4, 1);
        expect((await store.outbox.takeHead(chat, T0 + 5, 30_000))?.id).toBe(second.id);
      });

      it('takes only the head of a chat: a later reply waits behind it, due or not, and other chats are apart', async () => {
        const chat = { platform: 'slack' as const, chatId: 'C1' };
        const other = { platform: 'slack' as const, chatId: 'C2' };
        expect(await store.outbox.takeHead(chat, T0, 30_000)).toBeUndefined();
        const first = await store.outbox.enqueue(chat, { chunks: ['first'] }, T0, null, T0 + 1000);
        const second = await store.outbox.enqueue(chat, { chunks: ['second'] }, T0);
        const elsewhere = await store.outbox.enqueue(other, { chunks: ['elsewhere'] }, T0);
        // The head is not due yet: nothing, though the reply after it is.
        expect(await store.outbox.takeHead(chat, T0 + 999, 30_000)).toBeUndefined();
        expect((await store.outbox.get(second))?.nextAttemptAt).toBe(T0);
        expect((await store.outbox.takeHead(other, T0, 30_000))?.id).toBe(elsewhere);
        expect((await store.outbox.takeHead(chat, T0 + 1000, 30_000))?.id).toBe(first);
        // Taken, not sent: the reply after it still waits.
        expect(await store.outbox.takeHead(chat, T0 + 1001, 30_000)).toBeUndefined();
        await store.outbox.sent(first, T0 + 1002, 1);
        expect(await store.outbox.get(first)).toMatchObject({ status: 'sent', nextChunk: 1 });
        expect((await store.outbox.takeHead(chat, T0 + 1003, 30_000))?.message).toEqual({ chunks: ['second'] });
        // A parked reply is not pending: the chat has nothing left to take.
        await store.outbox.failed(second, 'chat not found');
        expect(await store.outbox.takeHead(chat, T0 + 100_000, 30_000)).toBeUndefined();
      });

      it('gives a due head to exactly one of many takes at once', async () => {
        const chats = Array.from({ length: 10 }, (_, i) => ({ platform: 'telegram' as const, chatId: `race-${i}` }));
        const ids = await Promise.all(chats.map((c) => store.outbox.enqueue(c, { chunks: ['x'] }, T0)));
        for (const [i, chat] of chats.entries()) {
          const got = await Promise.all([0, 0, 1, 2].map((d) => store.outbox.takeHead(chat, T0 + d, 30_000)));
          expect(got.filter((g) => g !== undefined).map((g) => g?.id)).toEqual([ids[i]]);
        }
      });

      it('claims a cron slot once, records a busy slot as skipped, and finishes runs', async () => {
        await store.cron.insertChatJob({ id: 'j', owner: 'alice', schedule: '0 9 * * *', timezone: 'Europe/Berlin', prompt: 'p', deliver: { platform: 'telegram', chatId: '1', threadId: '7' } }, T0);
        const claimed = await store.cron.claim('j', T0 + 1000, T0 + 1000, false);
        expect(claimed.kind).toBe('claimed');
        expect(await store.cron.claim('j', T0 + 1000, T0 + 1001, false)).toEqual({ kind: 'taken' });
        expect(await store.cron.claim('j', T0 + 2000, T0 + 2000, true)).toEqual({ kind: 'busy' });
        if (claimed.kind === 'claimed') await store.cron.finish(claimed.runId, 'j', 'ok', 'Report sent', T0 + 3000);
        expect(await store.cron.skip('j', T0 + 5000, T0 + 6000, 'too late')).toBe(true);
        expect(await store.cron.skip('j', T0 + 5000, T0 + 6000, 'too late')).toBe(false);
        const job = await store.cron.get('j');
        expect(job).toMatchObject({ paused: false, lastSlot: T0 + 5000, lastStatus: 'skipped', deliver: { platform: 'telegram', chatId: '1', threadId: '7' } });
        expect((await store.cron.runs('j')).map((r) => [r.slot, r.status])).toEqual([[T0 + 5000, 'skipped'], [T0 + 2000, 'skipped'], [T0 + 1000, 'ok']]);
        await store.cron.setPaused('j', true, T0);
        expect((await store.cron.get('j'))?.paused).toBe(true);
        await store.cron.setPaused('j', false, T0 + 9000);
        expect((await store.cron.get('j'))?.lastSlot).toBe(T0 + 9000);
        const r2 = await store.cron.claim('j', T0 + 10_000, T0 + 10_000, false);
        expect(r2.kind).toBe('claimed');
        expect(await store.cron.closeInterrupted(T0 + 20_000, T0 + 20_000)).toBe(1);
        expect(await store.cron.listByOwner('alice')).toHaveLength(1);
        expect(await store.cron.remove('j')).toBe(true);
        expect(await store.cron.runs('j')).toEqual([]);
      });

      it('syncs config jobs, keeping chat jobs', async () => {
        await store.cron.insertChatJob({ id: 'mine', owner: 'alice', schedule: '0 9 * * *', timezone: null, prompt: 'p', deliver: { platform: 'telegram', chatId: '1' } }, T0);
        const job = (id: string, enabled = true) => ({ id, schedule: '0 8 * * *', prompt: 'r', deliver: { platform: 'email' as const, chatId: 'a@example.com' }, enabled });
        expect(await store.cron.syncConfig([job('daily'), job('weekly')] as never, T0)).toEqual({ added: ['daily', 'weekly'], removed: [], replacedChatJobs: [] });
        expect(await store.cron.syncConfig([job('daily', false)] as never, T0 + 1)).toEqual({ added: [], removed: ['weekly'], replacedChatJobs: [] });
        expect((await store.cron.get('daily'))?.paused).toBe(true);
        expect((await store.cron.list()).map((j) => j.id)).toEqual(['daily', 'mine']);
      });

      it('issues, limits, approves and denies pairing codes', async () => {
        const first = await store.pairing.request('telegram', 'u1', 'c1', T0);
        expect(first.status).toBe('issued');
        expect(await store.pairing.request('telegram', 'u1', 'c1', T0 + 1000)).toEqual({ status: 'recent', code: (first as { code: string }).code });
        expect((await store.pairing.request('telegram', 'u2', 'c2', T0)).status).toBe('issued');
        const third = await store.pairing.request('telegram', 'u3', 'c3', T0);
        expect((await store.pairing.request('telegram', 'u4', 'c4', T0)).status).toBe('full');
        expect((await store.pairing.list(T0)).map((p) => p.userId)).toEqual(['u1', 'u2', 'u3']);
        expect(await store.pairing.approve((first as { code: string }).code.toLowerCase(), T0 + 2000)).toEqual({ platform: 'telegram', userId: 'u1' });
        expect(await store.pairing.isPaired('telegram', 'u1')).toBe(true);
        expect(await store.pairing.deny((third as { code: string }).code)).toBe(true);
        expect(await store.pairing.deny((third as { code: string }).code)).toBe(false);
        expect(await store.pairing.approve((third as { code: string }).code, T0 + 2000)).toBeNull();
      });
    });

    describe('transactions', () => {
      it('commits everything a transaction wrote together', async () => {
        const value = await store.transaction(async (tx) => {
          await writeOneOfEach(tx);
          return 'done';
        });
        expect(value).toBe('done');
        expect(await countAll(store)).toEqual({ sessions: 1, messages: 1, inboundPending: 1, outbox: 1, cron: 1, pairing: 1 });
      });

      it('rolls back everything a transaction wrote when it throws, and passes the error on', async () => {
        const boom = new Error('boom');
        await expect(
          store.transaction(async (tx) => {
            await writeOneOfEach(tx);
            await settle();
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect(await countAll(store)).toEqual(NOTHING);
        // The store is usable afterwards.
        await store.transaction(async (tx) => writeOneOfEach(tx));
        expect((await countAll(store)).sessions).toBe(1);
      });

    });
  });
}

describe('sqlite: one connection', () => {
  let home: string;
  let store: Store;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'sb-engine-'));
    store = openSqliteStore({ path: sqlitePath(home), home });
  });
  afterEach(async () => {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('makes a call on the store wait while a transaction is open, then see all of it', async () => {
    const hold = latch();
    const inside = latch();
    const tx = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['a'] }, T0);
      inside.open();
      await hold.promise;
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['b'] }, T0);
    });
    await inside.promise;
    const read = tracked(store.outbox.pending());
    await settle();
    expect(read.done()).toBe(false);
    hold.open();
    await tx;
    expect((await read.promise).map((i) => i.message.chunks[0])).toEqual(['a', 'b']);
  });

  it('keeps a write made outside an open transaction out of it (it survives the rollback)', async () => {
    const hold = latch();
    const inside = latch();
    const tx = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['inside'] }, T0);
      inside.open();
      await hold.promise;
      throw new Error('rolled back');
    });
    await inside.promise;
    const outside = store.outbox.enqueue({ platform: 'telegram', chatId: '2' }, { chunks: ['outside'] }, T0);
    hold.open();
    await expect(tx).rejects.toThrow('rolled back');
    await outside;
    expect((await store.outbox.pending()).map((i) => i.message.chunks[0])).toEqual(['outside']);
  });

  it('does not run a call made just before a transaction inside it', async () => {
    const outside = store.outbox.enqueue({ platform: 'telegram', chatId: '2' }, { chunks: ['outside'] }, T0);
    const tx = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['inside'] }, T0);
      await settle();
      throw new Error('rolled back');
    });
    await expect(tx).rejects.toThrow('rolled back');
    await outside;
    expect((await store.outbox.pending()).map((i) => i.message.chunks[0])).toEqual(['outside']);
  });

  it('keeps a waiting call out of the next waiting transaction too', async () => {
    const hold = latch();
    const inside = latch();
    const first = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['first'] }, T0);
      inside.open();
      await hold.promise;
    });
    await inside.promise;
    const second = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['second'] }, T0);
      await settle();
      throw new Error('second rolled back');
    });
    const outside = store.outbox.enqueue({ platform: 'telegram', chatId: '2' }, { chunks: ['outside'] }, T0);
    hold.open();
    await first;
    await expect(second).rejects.toThrow('second rolled back');
    await outside;
    expect((await store.outbox.pending()).map((i) => i.message.chunks[0]).sort()).toEqual(['first', 'outside']);
  });

  it('looks for a chat\'s next reply without waiting on another process\'s write when the chat has none', async () => {
    const chat = { platform: 'telegram' as const, chatId: '1' };
    const id = await store.outbox.enqueue(chat, { chunks: ['a'] }, T0);
    // Another process on the same file (a second instance, `switchboard cron run`) holds the write lock.
    const other = new Database(sqlitePath(home));
    try {
      other.exec('BEGIN IMMEDIATE');
      // Every drain ends with a look that finds nothing: it must not need the lock (it waited out the
      // busy timeout and failed with SQLITE_BUSY when the look was the conditional UPDATE itself).
      await expect(store.outbox.takeHead({ platform: 'telegram', chatId: '2' }, T0, 30_000)).resolves.toBeUndefined();
      other.exec('COMMIT');
    } finally {
      other.close();
    }
    expect((await store.outbox.takeHead(chat, T0, 30_000))?.id).toBe(id);
  });

  it('runs concurrent transactions one after the other', async () => {
    const order: string[] = [];
    const run = (name: string) =>
      store.transaction(async (t) => {
        order.push(`${name} start`);
        await t.outbox.enqueue({ platform: 'telegram', chatId: name }, { chunks: [name] }, T0);
        await settle();
        order.push(`${name} end`);
      });
    await Promise.all([run('a'), run('b'), run('c')]);
    expect(order).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect((await store.outbox.pending()).length).toBe(3);
  });
});

describe('migration from a round-1 database', () => {
  /** A database at schema version 1 as round 1 wrote it: "where" as strings. */
  function roundOne(path: string): void {
    const db = new Database(path);
    try {
      db.pragma('journal_mode = WAL');
      db.exec(MIGRATIONS[0] as string);
      db.pragma('user_version = 1');
      const session = db.prepare(
        `INSERT INTO sessions (id, key, platform, person_key, started_at, last_active_at, prompt, prompt_sha256, prompt_layers)
         VALUES (?, ?, ?, ?, ?, ?, 'stored prompt', 'h', '[{"name":"identity","text":"stored prompt"}]')`,
      );
      session.run('s-thread', 'telegram:-100123:42:1001', 'telegram', 'alice', T0, T0);
      session.run('s-dm', 'slack:D1:U1', 'slack', 'alice', T0, T0 + 1);
      session.run('s-cron', 'cron:daily-report', 'cron', 'cron-daily-report', T0, T0);
      const outbox = db.prepare(
        `INSERT INTO outbox (session_key, chat_key, target, message, created_at, next_attempt_at) VALUES (?, ?, ?, '{"chunks":["pending reply"]}', ?, ?)`,
      );
      outbox.run('telegram:-100123:42:1001', 'telegram:-100123:42', '{"platform":"telegram","chatId":"-100123","threadId":"42","replyToMessageId":"77"}', T0, T0);
      outbox.run('slack:D1:U1', 'slack:D1:', '{"platform":"slack","chatId":"D1"}', T0, T0);
      const job = db.prepare(
        `INSERT INTO cron_jobs (id, source, owner, schedule, timezone, prompt, deliver, created_at) VALUES (?, ?, ?, '0 9 * * 1-5', NULL, 'Report.', ?, ?)`,
      );
      job.run('daily-report', 'config', null, 'email:alice@example.com', T0);
      job.run('standup', 'chat', 'alice', 'telegram:-100123:42', T0);
    } finally {
      db.close();
    }
  }

  it('fills the address columns and reaches the latest schema version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-round1-'));
    try {
      roundOne(sqlitePath(dir));
      const old = openSqliteStore({ path: sqlitePath(dir), home: dir });
      try {
        expect(await old.schemaVersion()).toBe(MIGRATIONS.length);

        const thread: SessionAddress = { platform: 'telegram', chatId: '-100123', threadId: '42', userId: '1001' };
        expect((await old.sessions.get('s-thread'))?.address).toEqual(thread);
        expect((await old.sessions.get('s-dm'))?.address).toEqual({ platform: 'slack', chatId: 'D1', userId: 'U1' });
        expect((await old.sessions.get('s-cron'))?.address).toEqual(cronSessionAddress('daily-report'));
        expect((await old.sessions.findOpen(thread))?.prompt).toBe('stored prompt');
        expect((await old.sessions.findOpen(cronSessionAddress('daily-report')))?.id).toBe('s-cron');
        expect((await old.sessions.findOpenForUser('telegram', '1001')).map((s) => s.id)).toEqual(['s-thread']);
        expect((await old.sessions.findOpenForUser('slack', 'U1')).map((s) => s.id)).toEqual(['s-dm']);

        const pending = await old.outbox.pending();
        expect(pending.map((i) => i.target)).toEqual([
          { platform: 'telegram', chatId: '-100123', threadId: '42', replyToMessageId: '77' },
          { platform: 'slack', chatId: 'D1' },
        ]);
        // Still delivered in order after the upgrade: found by the chat's address, ahead of new replies.
        await old.outbox.enqueue({ platform: 'slack', chatId: 'D1' }, { chunks: ['new reply'] }, T0 + 10);
        expect((await old.outbox.heads()).map((i) => i.id)).toEqual([pending[0].id, pending[1].id]);
        const later = Date.parse('2100-01-01T00:00:00Z');
        expect((await old.outbox.takeHead({ platform: 'telegram', chatId: '-100123', threadId: '42' }, later, 30_000))?.id).toBe(pending[0].id);
        expect((await old.outbox.takeHead({ platform: 'slack', chatId: 'D1' }, later, 30_000))?.id).toBe(pending[1].id);

        expect((await old.cron.get('daily-report'))?.deliver).toEqual({ platform: 'email', chatId: 'alice@example.com' });
        expect((await old.cron.get('standup'))?.deliver).toEqual({ platform: 'telegram', chatId: '-100123', threadId: '42' });
      } finally {
        await old.close();
      }
      // Opening again migrates nothing more.
      const again = openSqliteStore({ path: sqlitePath(dir), home: dir });
      expect(await again.schemaVersion()).toBe(MIGRATIONS.length);
      expect((await again.sessions.get('s-thread'))?.address.threadId).toBe('42');
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
