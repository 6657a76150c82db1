/**
 * A transaction's callback must use its `tx` repositories (src/core/store/types.ts). A call on the
 * store's own repositories from inside it would wait for the transaction forever on SQLite (one
 * connection: it waits for the transaction to end, which waits for it) and, on PostgreSQL, run on
 * another connection outside the transaction (and wait for a row lock the transaction holds). On both
 * engines it throws at once instead, naming the mistake; calls outside a transaction, also while one
 * is open, still work as before.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store/types.js';
import { TransactionMisuseError } from '../../../src/store/tx-scope.js';
import { ENGINES, storeForEachTest, reportSkips, skipNote } from '../../helpers/engines.js';

reportSkips();

const T0 = Date.parse('2025-03-10T10:00:00Z');
const chat = { platform: 'telegram' as const, chatId: '1' };

/** Fails (instead of hanging the file) when `p` has not settled within `ms`. */
function within<T>(p: Promise<T>, ms = 2_000): Promise<T> {
  return Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms (deadlock)`)), ms).unref())]);
}

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`${engine.name}: the store inside its own transaction${skipNote(engine)}`, () => {
    let store: Store;
    storeForEachTest(engine, (opened) => ({ store } = opened));

    it('throws at once on a read through the store instead of the transaction, and rolls back', async () => {
      const run = store.transaction(async (tx) => {
        await tx.outbox.enqueue(chat, { chunks: ['inside'] }, T0);
        return store.outbox.pending();
      });
      await expect(within(run)).rejects.toThrow(TransactionMisuseError);
      await expect(run).rejects.toThrow(/inside store\.transaction\(\).*use the transaction's repositories/);
      expect(await store.outbox.pending()).toEqual([]);
    });

    it('throws on a write, a transaction begun inside one, and a call a few awaits deep', async () => {
      const nested = async () => {
        await new Promise((r) => setTimeout(r, 5));
        await Promise.resolve();
        return store.sessions.count();
      };
      await expect(within(store.transaction(async () => store.outbox.enqueue(chat, { chunks: ['x'] }, T0)))).rejects.toThrow(TransactionMisuseError);
      await expect(within(store.transaction(async () => store.transaction(async () => 1)))).rejects.toThrow(TransactionMisuseError);
      await expect(within(store.transaction(async () => nested()))).rejects.toThrow(TransactionMisuseError);
      await expect(within(store.transaction(async () => store.retention.tableSizes()))).rejects.toThrow(TransactionMisuseError);
    });

    it('lets calls outside the transaction through, also while it is open and after it ended', async () => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let leftBehind: Promise<number> | undefined;
      const run = store.transaction(async (tx) => {
        await tx.outbox.enqueue(chat, { chunks: ['a'] }, T0);
        // Started inside, runs after the commit: the transaction is over by then.
        leftBehind = held.then(() => new Promise((r) => setTimeout(r, 20))).then(() => store.sessions.count());
        await held;
      });
      const outside = store.outbox.heads();
      release();
      await within(run);
      expect((await within(outside)).length).toBeLessThanOrEqual(1);
      expect(await within(leftBehind!)).toBe(0);
      expect((await store.outbox.pending()).map((i) => i.message.chunks[0])).toEqual(['a']);
    });
  });
}
