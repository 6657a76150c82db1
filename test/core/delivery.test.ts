/**
 * The outbox dispatcher (src/core/delivery.ts) on both engines: what a chat sees (every chunk once,
 * in order, resumed after the last confirmed one), what the outbox row ends as, and how many store
 * writes one reply costs (issue #14: a one-chunk reply is one take and one `sent`, no chunk write).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryService } from '../../src/core/delivery.js';
import { PlatformApiError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/logger.js';
import { PLATFORM_HINTS } from '../../src/core/prompt/hints.js';
import type { OutboxRepo, Store } from '../../src/core/store/types.js';
import type { Adapter, Delivery } from '../../src/core/types.js';
import { ENGINES, reportSkips, skipNote, type EngineDb } from '../helpers/engines.js';

reportSkips();

interface Door extends Adapter {
  /** Chunks as the chat saw them, in order. */
  readonly seen: string[];
  /** The firstChunk of each delivery attempt. */
  readonly attempts: number[];
}

/**
 * A Telegram-like door: `fail(attempt, index)` decides whether chunk `index` of that attempt fails
 * (before it is sent); with `awaitConfirm` it waits for each confirmation before the next chunk.
 */
function door(fail: (attempt: number, index: number) => Error | undefined = () => undefined, awaitConfirm = false): Door {
  const seen: string[] = [];
  const attempts: number[] = [];
  return {
    platform: 'telegram',
    profile: PLATFORM_HINTS.telegram,
    seen,
    attempts,
    async start() {},
    async stop() {},
    async close() {},
    async deliver(d: Delivery) {
      attempts.push(d.firstChunk);
      for (let i = d.firstChunk; i < d.message.chunks.length; i++) {
        const error = fail(attempts.length, i);
        if (error) throw error;
        seen.push(d.message.chunks[i]);
        if (awaitConfirm) await d.onChunkSent(i);
        else void d.onChunkSent(i);
      }
    },
  };
}

/** The outbox of `store`, recording every write method called on it (`chunkSent` with its index). */
function countingOutbox(store: Store, writes: string[]): Store {
  const reads = new Set(['get', 'heads', 'pending', 'counts', 'parked']);
  const outbox = new Proxy(store.outbox, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string' || reads.has(name)) return value;
      return (...args: unknown[]) => {
        writes.push(name === 'chunkSent' ? `chunkSent ${String(args[1])}` : name);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as OutboxRepo;
  return new Proxy(store, { get: (target, name, receiver) => (name === 'outbox' ? outbox : Reflect.get(target, name, receiver)) });
}

const chat = { platform: 'telegram' as const, chatId: '1001' };

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`outbox delivery (${engine.name})${skipNote(engine)}`, () => {
    let db: EngineDb;
    let store: Store;
    const services: DeliveryService[] = [];
    const more: Store[] = [];

    function service(adapter: Adapter | undefined, options: { store?: Store; maxAttempts?: number } = {}): DeliveryService {
      const s = new DeliveryService({
        store: options.store ?? store,
        adapter: (p) => (adapter && p === adapter.platform ? adapter : undefined),
        logger: silentLogger,
        maxAttempts: options.maxAttempts ?? 5,
        backoffMs: () => 10,
        pollMs: 20,
      });
      services.push(s);
      return s;
    }

    beforeEach(async () => {
      db = await engine.create();
      store = await db.open();
    });
    afterEach(async () => {
      for (const s of services.splice(0)) {
        s.stop();
        await s.idle();
      }
      for (const s of more.splice(0)) await s.close();
      await store.close();
      await db.cleanup();
    });

    it('a one-chunk reply costs one take and one sent: no write of its own for the chunk', async () => {
      const writes: string[] = [];
      const d = door();
      const delivery = service(d, { store: countingOutbox(store, writes) });
      const id = await store.outbox.enqueue(chat, { chunks: ['hello'] }, Date.now());
      delivery.kick(chat);
      expect(await delivery.waitFor(id)).toBe(true);
      await delivery.idle();
      expect(d.seen).toEqual(['hello']);
      // The last look finds nothing more for the chat.
      expect(writes).toEqual(['takeHead', 'sent', 'takeHead']);
      expect(await store.outbox.get(id)).toMatchObject({ status: 'sent', nextChunk: 1, lastError: null });
    });

    it('a reply taken when it was stored is delivered with no take of its own and no look for a next one: one write, the sent', async () => {
      const writes: string[] = [];
      const d = door();
      const delivery = service(d, { store: countingOutbox(store, writes) });
      const { id, taken } = await store.transaction((tx) => tx.outbox.enqueueTaken(chat, { chunks: ['hello'] }, Date.now(), null, 10_000));
      delivery.handOver(taken!);
      expect(await delivery.waitFor(id)).toBe(true);
      await delivery.idle();
      expect(d.seen).toEqual(['hello']);
      expect(writes).toEqual(['sent']);
    });

    it('a reply stored for the chat while a handed-over one is being sent still goes, after it', async () => {
      const d = door();
      const delivery = service(d);
      const { taken } = await store.transaction((tx) => tx.outbox.enqueueTaken(chat, { chunks: ['hello'] }, Date.now(), null, 10_000));
      delivery.handOver(taken!);
      const next = await store.outbox.enqueue(chat, { chunks: ['and more'] }, Date.now());
      delivery.kick(chat);
      expect(await delivery.waitFor(next)).toBe(true);
      await delivery.idle();
      expect(d.seen).toEqual(['hello', 'and more']);
    });

    it('confirms the earlier chunks of a long reply one by one and the last with the outcome', async () => {
      const writes: string[] = [];
      const d = door(undefined, true);
      const delivery = service(d, { store: countingOutbox(store, writes) });
      const id = await store.outbox.enqueue(chat, { chunks: ['one', 'two', 'three'] }, Date.now());
      delivery.kick(chat);
      expect(await delivery.waitFor(id)).toBe(true);
      await delivery.idle();
      expect(d.seen).toEqual(['one', 'two', 'three']);
      expect(writes.filter((w) => w.startsWith('chunkSent') || w === 'sent')).toEqual(['chunkSent 0', 'chunkSent 1', 'sent']);
      expect(await store.outbox.get(id)).toMatchObject({ status: 'sent', nextChunk: 3 });
    });

    it('resumes after the last confirmed chunk when a chunk fails, each chunk seen once', async () => {
      const d = door((attempt, index) => (attempt === 1 && index === 2 ? new Error('socket hang up') : undefined));
      const delivery = service(d);
      const id = await store.outbox.enqueue(chat, { chunks: ['one', 'two', 'three'] }, Date.now());
      delivery.kick(chat);
      expect(await delivery.waitFor(id)).toBe(true);
      expect(d.attempts).toEqual([0, 2]);
      expect(d.seen).toEqual(['one', 'two', 'three']);
      expect(await store.outbox.get(id)).toMatchObject({ status: 'sent', nextChunk: 3, attempts: 1 });
    });

    it('does not send the last chunk again when the door fails after the platform accepted it', async () => {
      let failed = false;
      const d = door();
      const deliver = d.deliver.bind(d);
      d.deliver = async (delivery) => {
        await deliver(delivery);
        if (failed) return;
        failed = true;
        throw new Error('connection reset after the answer');
      };
      const delivery = service(d);
      const id = await store.outbox.enqueue(chat, { chunks: ['one', 'two'] }, Date.now());
      delivery.kick(chat);
      expect(await delivery.waitFor(id)).toBe(true);
      expect(d.seen).toEqual(['one', 'two']);
      // The retry found every chunk confirmed: it only recorded the outcome, without the door.
      expect(d.attempts).toEqual([0]);
      expect(await store.outbox.get(id)).toMatchObject({ status: 'sent', nextChunk: 2, attempts: 1 });
    });

    it('parks a reply after its last attempt with the reason, and the chat’s next reply still goes', async () => {
      const d = door((attempt, index) => (attempt <= 2 && index === 0 ? new PlatformApiError({ platform: 'telegram', method: 'sendMessage', message: 'HTTP 502', retryable: true }) : undefined));
      const delivery = service(d, { maxAttempts: 2 });
      const first = await store.outbox.enqueue(chat, { chunks: ['lost'] }, Date.now());
      const second = await store.outbox.enqueue(chat, { chunks: ['next'] }, Date.now());
      delivery.kick(chat);
      expect(await delivery.waitFor(first)).toBe(false);
      expect(await delivery.waitFor(second)).toBe(true);
      expect(d.seen).toEqual(['next']);
      expect(await store.outbox.get(first)).toMatchObject({ status: 'failed', attempts: 2, lastError: 'telegram sendMessage: HTTP 502', nextChunk: 0 });
    });

    it('leaves a reply pending for a minute while no door of its platform runs', async () => {
      const id = await store.outbox.enqueue(chat, { chunks: ['later'] }, Date.now());
      const none = service(undefined);
      none.kick(chat);
      await none.idle();
      expect(await store.outbox.get(id)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'no telegram adapter is running' });
      expect((await store.outbox.get(id))?.nextAttemptAt).toBeGreaterThan(Date.now() + 30_000);
    });

    it('two processes on one database deliver every reply once, in order per chat', async () => {
      const other = await db.open();
      more.push(other);
      const d = door();
      const chats = Array.from({ length: 4 }, (_, i) => ({ platform: 'telegram' as const, chatId: `c${i}` }));
      const ids: number[] = [];
      for (let k = 0; k < 5; k++) for (const c of chats) ids.push(await store.outbox.enqueue(c, { chunks: [`${c.chatId}-${k}a`, `${c.chatId}-${k}b`] }, Date.now()));
      const one = service(d);
      const two = service(d, { store: other });
      for (const c of chats) {
        one.kick(c);
        two.kick(c);
      }
      // Either process may send any of them: wait for the outbox, not for one process's waiters.
      for (let waited = 0; (await store.outbox.counts()).pending > 0; waited += 10) {
        if (waited > 10_000) throw new Error('replies still pending after 10 s');
        await new Promise((r) => setTimeout(r, 10));
      }
      await Promise.all([one.idle(), two.idle()]);
      expect(await store.outbox.counts()).toEqual({ pending: 0, sent: ids.length, failed: 0 });
      expect(d.seen).toHaveLength(40);
      for (const c of chats) {
        const expected = Array.from({ length: 5 }, (_, k) => [`${c.chatId}-${k}a`, `${c.chatId}-${k}b`]).flat();
        expect(d.seen.filter((s) => s.startsWith(`${c.chatId}-`))).toEqual(expected);
      }
    });
  });
}
