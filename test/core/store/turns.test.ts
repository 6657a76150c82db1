/**
 * A session's turns in the store (ARCHITECTURE.md §9, issue 42) on both engines: `turns.begin` takes the
 * session's lease with the pending batch and the ids of a stream a crash cut short; `turns.commit`
 * writes a turn's history, usage, approvals, reply, journal rows, stream and lease all together — or,
 * when one of its journal rows was answered elsewhere first, nothing at all.
 */
import { describe, expect, it } from 'vitest';
import type { NewApproval, Store, TurnWrites } from '../../../src/core/store/types.js';
import type { InboundMessage } from '../../../src/core/types.js';
import { ENGINES, reportSkips, skipNote, storeForEachTest, type EngineDb } from '../../helpers/engines.js';
import { storedInbound } from '../../helpers/inbound.js';

reportSkips();

const KEY = 'telegram:77:77';
const LEASE = `session:${KEY}`;
const T0 = 1_700_000_000_000;
const USAGE = { inputTokens: 120, outputTokens: 30, cachedTokens: 100, cacheWriteTokens: 0 };

function message(id: string, text: string, at: number): InboundMessage {
  return { ...storedInbound(id, '77', at), text };
}

const claim = (holder: string, now = T0) => ({ name: LEASE, holder, now, ttlMs: 30_000 });

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`turns in the store (${engine.name})${skipNote(engine)}`, () => {
    let store: Store;
    let db: EngineDb;
    storeForEachTest(engine, (opened) => ({ store, db } = opened));

    /** Two messages of the session journaled, in arrival order. */
    async function journaledTwo(): Promise<InboundMessage[]> {
      const batch = [message('u1', 'hello', T0 + 1), message('u2', 'there', T0 + 2)];
      for (const m of batch) await store.inbound.claim(m, KEY);
      return batch;
    }

    /** journaledTwo, a stream saved for the session, and its turn begun by holder `one`. */
    async function streamingTurnOfTwo(): Promise<InboundMessage[]> {
      const batch = await journaledTwo();
      await store.streams.save(KEY, ['501'], T0);
      await store.turns.begin(KEY, claim('one'));
      return batch;
    }

    async function session(): Promise<string> {
      const s = await store.sessions.create({
        id: 'sess-1',
        address: { platform: 'telegram', chatId: '77', userId: '77' },
        personKey: 'telegram:77',
        startedAt: T0,
        promptLayers: [],
        prompt: 'p',
        promptSha256: 'x',
        toolsSignature: '',
      });
      return s.id;
    }

    /** A turn answering `batch` with "answer", taking its reply for delivery, giving the lease up when it can. */
    function answer(sessionId: string, batch: InboundMessage[], extra: Partial<TurnWrites> = {}): TurnWrites {
      return {
        sessionKey: KEY,
        settle: batch.map((m) => ({ platform: m.platform, updateId: m.updateId })),
        status: 'done',
        append: {
          sessionId,
          personKey: 'telegram:77',
          messages: [
            { role: 'user', content: batch.map((m) => m.text).join('\n') },
            { role: 'assistant', content: 'answer' },
          ],
          at: T0 + 10,
          usage: USAGE,
        },
        recordTurn: { sessionId, at: T0 + 10, usage: USAGE, requests: 1 },
        reply: { target: { platform: 'telegram', chatId: '77' }, message: { chunks: ['answer'] }, at: T0 + 10, takeForMs: 60_000 },
        clearStream: true,
        releaseLease: { name: LEASE, holder: 'one' },
        ...extra,
      };
    }

    it('begin: the lease with the pending batch in arrival order and the stream ids; another holder gets neither', async () => {
      await store.inbound.claim(message('u2', 'second', T0 + 2), KEY);
      await store.inbound.claim(message('u1', 'first', T0 + 1), KEY);
      await store.inbound.claim(message('u9', 'other session', T0), 'telegram:78:78');
      await store.streams.save(KEY, ['501', '502'], T0);
      const start = await store.turns.begin(KEY, claim('one'));
      expect(start.acquired).toBe(true);
      expect(start.batch.map((m) => m.text)).toEqual(['first', 'second']);
      expect(start.batch[0].receivedAt).toEqual(new Date(T0 + 1));
      expect(start.streamIds).toEqual(['501', '502']);
      expect((await store.leases.get(LEASE))?.holder).toBe('one');
      expect(await store.turns.begin(KEY, claim('two', T0 + 1))).toEqual({ acquired: false, batch: [], streamIds: [] });
      // Its own lease is renewed.
      expect((await store.turns.begin(KEY, claim('one', T0 + 5))).acquired).toBe(true);
      expect((await store.leases.get(LEASE))?.expiresAt).toBe(T0 + 5 + 30_000);
    });

    it('commit: history, usage, the reply taken for delivery, journal rows done, stream cleared and the lease given up, in one call', async () => {
      const id = await session();
      const batch = await streamingTurnOfTwo();
      const done = await store.turns.commit(answer(id, batch));
      if (!done.settled) throw new Error('not settled');
      expect(done.released).toBe(true);
      expect(done.pending).toEqual([]);
      expect(done.streamIds).toEqual([]);
      expect(done.reply?.taken).toMatchObject({ id: done.reply?.id, status: 'pending', nextAttemptAt: T0 + 10 + 60_000, message: { chunks: ['answer'] } });
      expect((await store.outbox.get(done.reply!.id))?.nextAttemptAt).toBe(T0 + 10 + 60_000);
      expect(await store.messages.history(id)).toEqual([
        { role: 'user', content: 'hello\nthere' },
        { role: 'assistant', content: 'answer' },
      ]);
      expect((await store.sessions.get(id))?.usage).toMatchObject({ inputTokens: 120, outputTokens: 30, cachedTokens: 100 });
      expect((await store.sessions.get(id))?.lastActiveAt).toBe(T0 + 10);
      expect(await store.inbound.pendingFor(KEY)).toEqual([]);
      expect(await store.streams.get(KEY)).toEqual([]);
      expect(await store.leases.get(LEASE)).toBeUndefined();
    });

    it('commit keeps the files a reply sent with its message, for the transcript (as messages.append does)', async () => {
      const id = await session();
      const batch = [message('u1', 'send me the report', T0 + 1)];
      await store.inbound.claim(batch[0], KEY);
      await store.turns.begin(KEY, claim('one'));
      const file = { kind: 'document', name: 'report.pdf', mime: 'application/pdf', bytes: 1234, id: 'f'.repeat(64) } as const;
      const writes = answer(id, batch);
      const done = await store.turns.commit({
        ...writes,
        append: { ...writes.append!, messages: [{ role: 'user', content: 'send me the report' }, { role: 'assistant', content: 'here it is', files: [file] }] },
      });
      expect(done.settled).toBe(true);
      const lines = await store.messages.transcript(id, 'telegram:77');
      expect(lines.map((l) => [l.content, l.files])).toEqual([['send me the report', undefined], ['here it is', [file]]]);
    });

    it('commit says whether another holder asked for the lease while it was held (PostgreSQL; SQLite cannot tell, so always)', async () => {
      const id = await session();
      const first = message('u1', 'one', T0 + 1);
      await store.inbound.claim(first, KEY);
      await store.turns.begin(KEY, claim('one'));
      const quiet = await store.turns.commit(answer(id, [first]));
      expect(quiet).toMatchObject({ settled: true, released: true, contested: engine.name === 'sqlite' });
      const second = message('u2', 'two', T0 + 2);
      await store.inbound.claim(second, KEY);
      await store.turns.begin(KEY, claim('one', T0 + 3));
      expect((await store.turns.begin(KEY, claim('two', T0 + 4))).acquired).toBe(false);
      // The failed attempt left the lease as it was, but for the mark.
      expect(await store.leases.get(LEASE)).toEqual({ name: LEASE, holder: 'one', acquiredAt: T0 + 3, expiresAt: T0 + 3 + 30_000 });
      expect(await store.turns.commit(answer(id, [second]))).toMatchObject({ settled: true, released: true, contested: true });
      // Taken afresh: not contested.
      const third = message('u3', 'three', T0 + 5);
      await store.inbound.claim(third, KEY);
      expect((await store.turns.begin(KEY, claim('two', T0 + 6))).acquired).toBe(true);
      expect(await store.turns.commit({ ...answer(id, [third]), releaseLease: { name: LEASE, holder: 'two' } })).toMatchObject({ released: true, contested: engine.name === 'sqlite' });
    });

    it('commit with more of the session pending: the lease stays and the rest is returned as the next batch; a reply behind a pending one is not taken', async () => {
      const id = await session();
      const first = message('u1', 'one', T0 + 1);
      await store.inbound.claim(first, KEY);
      await store.turns.begin(KEY, claim('one'));
      await store.inbound.claim(message('u2', 'two', T0 + 2), KEY);
      const waiting = await store.outbox.enqueue({ platform: 'telegram', chatId: '77' }, { chunks: ['earlier'] }, T0);
      await store.streams.save(KEY, ['501'], T0);
      const done = await store.turns.commit(answer(id, [first], { clearStream: false }));
      if (!done.settled) throw new Error('not settled');
      expect(done.released).toBe(false);
      expect(done.pending.map((m) => m.text)).toEqual(['two']);
      expect(done.streamIds).toEqual(['501']);
      expect(done.reply?.taken).toBeNull();
      expect(done.reply!.id).toBeGreaterThan(waiting);
      expect((await store.leases.get(LEASE))?.holder).toBe('one');
      // A reply due later is only stored.
      const later = await store.turns.commit({
        ...answer(id, done.pending),
        append: undefined,
        recordTurn: undefined,
        reply: { target: { platform: 'telegram', chatId: '78' }, message: { chunks: ['quiet'] }, at: T0 + 20, notBefore: T0 + 5_000, takeForMs: 60_000 },
      });
      if (!later.settled) throw new Error('not settled');
      expect(later.reply?.taken).toBeNull();
      expect((await store.outbox.get(later.reply!.id))?.nextAttemptAt).toBe(T0 + 5_000);
      expect(later.released).toBe(true);
    });

    it('commit of a batch one row of which was answered elsewhere writes nothing: no history, no reply, rows and lease as they were', async () => {
      const id = await session();
      const batch = await streamingTurnOfTwo();
      expect(await store.inbound.mark('telegram', 'u2', 'done')).toBe(true); // another instance answered it
      const approval: NewApproval = {
        id: 'ap-1', code: 'ABC123', sessionKey: KEY, personKey: 'telegram:77', platform: 'telegram', chatId: '77', userId: '77',
        tool: 'web_fetch', server: null, args: '{}', reason: 'why', turn: '{}', createdAt: T0, expiresAt: T0 + 1000,
      };
      expect(await store.turns.commit(answer(id, batch, { createApproval: approval }))).toEqual({ settled: false });
      expect(await store.messages.history(id)).toEqual([]);
      expect(await store.outbox.pending()).toEqual([]);
      expect(await store.approvals.get('ap-1')).toBeNull();
      expect((await store.inbound.pendingFor(KEY)).map((m) => m.updateId)).toEqual(['u1']);
      expect(await store.streams.get(KEY)).toEqual(['501']);
      expect((await store.leases.get(LEASE))?.holder).toBe('one');
      expect((await store.sessions.get(id))?.requests).toBe(0);
    });

    // Many instances share PostgreSQL only (ARCHITECTURE.md §9); SQLite's one connection serializes its callers.
    it.skipIf(engine.name !== 'postgres')('two stores committing the same batch at once (two instances): exactly one writes, once', async () => {
      const id = await session();
      const batch = await journaledTwo();
      const other = await db.open();
      try {
        const results = await Promise.all([store.turns.commit(answer(id, batch)), other.turns.commit(answer(id, batch))]);
        expect(results.filter((r) => r.settled)).toHaveLength(1);
        expect(await store.messages.count(id)).toBe(2);
        expect(await store.outbox.pending()).toHaveLength(1);
        expect((await store.sessions.get(id))?.requests).toBe(1);
      } finally {
        await other.close();
      }
    });

    it.skipIf(engine.name !== 'postgres')('begin that waits for the write giving the lease up does not return the rows that write settled', async () => {
      for (const m of [message('u1', 'answered', T0 + 1), message('u2', 'new', T0 + 2)]) await store.inbound.claim(m, KEY);
      await store.turns.begin(KEY, claim('one'));
      const other = await db.open();
      try {
        let open!: () => void;
        let written!: () => void;
        const gate = new Promise<void>((r) => (open = r));
        const ready = new Promise<void>((r) => (written = r));
        const giving = store.transaction(async (tx) => {
          await tx.inbound.mark('telegram', 'u1', 'done');
          await tx.leases.release(LEASE, 'one');
          written();
          await gate;
        });
        await ready;
        const starting = other.turns.begin(KEY, claim('two', T0 + 1));
        await new Promise((r) => setTimeout(r, 200)); // its statement began, and waits for the lease row
        open();
        await giving;
        const start = await starting;
        expect(start.acquired).toBe(true);
        expect(start.batch.map((m) => m.updateId)).toEqual(['u2']);
      } finally {
        await other.close();
      }
    });

    it('commit of a paused turn stores its approval, and a resumed turn’s commit moves the approval to done', async () => {
      const id = await session();
      const asking = message('u1', 'fetch it', T0 + 1);
      await store.inbound.claim(asking, KEY);
      const approval: NewApproval = {
        id: 'ap-2', code: 'XYZ789', sessionKey: KEY, personKey: 'telegram:77', platform: 'telegram', chatId: '77', userId: '77',
        tool: 'web_fetch', server: null, args: '{"url":"https://example.org"}', reason: 'this turn read a web page', turn: '{"paused":{}}',
        createdAt: T0, expiresAt: T0 + 60_000,
      };
      const paused = await store.turns.commit({ ...answer(id, [asking]), append: undefined, recordTurn: undefined, createApproval: approval });
      expect(paused.settled).toBe(true);
      expect(await store.approvals.get('ap-2')).toMatchObject({ state: 'pending', tool: 'web_fetch', args: '{"url":"https://example.org"}', expiresAt: T0 + 60_000, server: null });
      // The session's pending approval (what /stop and /new close), and none once it is answered.
      expect((await store.approvals.pendingOf(KEY))?.id).toBe('ap-2');
      expect(await store.approvals.pendingOf(`${KEY}:other`)).toBeNull();
      expect(await store.approvals.decide('ap-2', 'approved', 'telegram:77', T0 + 5)).not.toBeNull();
      expect(await store.approvals.pendingOf(KEY)).toBeNull();
      const resume = { ...message('u2', '', T0 + 6), resumesApproval: 'ap-2' };
      await store.inbound.claim(resume, KEY);
      expect((await store.turns.commit(answer(id, [resume], { finishApproval: 'ap-2' }))).settled).toBe(true);
      expect((await store.approvals.get('ap-2'))?.state).toBe('done');
      expect(await store.messages.count(id)).toBe(2);
    });
  });
}
