/**
 * Leases and instances (ARCHITECTURE.md §9) on both engines through the Store interface: acquire, renew,
 * expire, steal after expiry, release; conditional settling of the journal (of two instances
 * answering one event, one commits); on PostgreSQL, two stores (two instances) racing for a lease.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store/types.js';
import { ENGINES, storeForEachTest, reportSkips, type EngineDb } from '../../helpers/engines.js';
import { storedInbound } from '../../helpers/inbound.js';

reportSkips();

const T0 = Date.parse('2026-03-10T10:00:00Z');
const TTL = 15_000;

const inbound = (updateId: string, userId = '1001', at = T0) => storedInbound(updateId, userId, at);

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`leases on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
    let db: EngineDb;
    let store: Store;
    storeForEachTest(engine, (opened) => ({ db, store } = opened));

    it('gives a free lease to one holder, renews it for that holder only, and lets another take it once expired', async () => {
      expect(await store.leases.acquire('session:a', 'i1', T0, TTL)).toBe(true);
      expect(await store.leases.acquire('session:a', 'i2', T0 + 1000, TTL)).toBe(false);
      // The holder renews by acquiring again; acquiredAt stays, the expiry moves.
      expect(await store.leases.acquire('session:a', 'i1', T0 + 5000, TTL)).toBe(true);
      expect(await store.leases.get('session:a')).toEqual({ name: 'session:a', holder: 'i1', acquiredAt: T0, expiresAt: T0 + 5000 + TTL });
      expect(await store.leases.acquire('session:a', 'i2', T0 + 5000 + TTL - 1, TTL)).toBe(false);
      // Expired: the other instance steals it.
      expect(await store.leases.acquire('session:a', 'i2', T0 + 5000 + TTL, TTL)).toBe(true);
      expect(await store.leases.get('session:a')).toMatchObject({ holder: 'i2', acquiredAt: T0 + 5000 + TTL });
      // The old holder can no longer renew it, nor release it.
      expect(await store.leases.renewAll('i1', T0 + 5000 + TTL + 1, TTL)).toEqual([]);
      expect(await store.leases.release('session:a', 'i1')).toBe(false);
      expect((await store.leases.get('session:a'))?.holder).toBe('i2');
    });

    it('renews all unexpired leases of a holder and leaves expired ones for others', async () => {
      await store.leases.acquire('door:telegram', 'i1', T0, TTL);
      await store.leases.acquire('session:b', 'i1', T0 + 10_000, TTL);
      await store.leases.acquire('session:c', 'i2', T0, TTL);
      // At T0+TTL the first lease has just expired: it is not renewed (it was lost), the second is.
      expect(await store.leases.renewAll('i1', T0 + TTL, TTL)).toEqual(['session:b']);
      expect((await store.leases.get('session:b'))?.expiresAt).toBe(T0 + 2 * TTL);
      expect((await store.leases.get('door:telegram'))?.expiresAt).toBe(T0 + TTL);
      expect(await store.leases.acquire('door:telegram', 'i2', T0 + TTL, TTL)).toBe(true);
    });

    it('releases one lease or all of a holder, so another takes them at once', async () => {
      await store.leases.acquire('door:discord', 'i1', T0, TTL);
      await store.leases.acquire('session:x', 'i1', T0, TTL);
      await store.leases.acquire('session:y', 'i2', T0, TTL);
      expect(await store.leases.release('door:discord', 'i1')).toBe(true);
      expect(await store.leases.acquire('door:discord', 'i2', T0 + 1, TTL)).toBe(true);
      expect(await store.leases.releaseAll('i1')).toBe(1);
      expect(await store.leases.acquire('session:x', 'i3', T0 + 1, TTL)).toBe(true);
      expect((await store.leases.list()).map((l) => `${l.name}=${l.holder}`)).toEqual(['door:discord=i2', 'session:x=i3', 'session:y=i2']);
    });

    it('keeps one row per instance with its heartbeat, and removes it on a clean stop', async () => {
      await store.instances.heartbeat({ id: 'i1', host: 'h1', pid: 11, startedAt: T0 }, T0, TTL);
      await store.instances.heartbeat({ id: 'i2', host: 'h2', pid: 22, startedAt: T0 }, T0, TTL);
      await store.instances.heartbeat({ id: 'i1', host: 'h1', pid: 11, startedAt: T0 }, T0 + 5000, TTL);
      expect(await store.instances.list()).toEqual([
        { id: 'i1', host: 'h1', pid: 11, startedAt: T0, heartbeatAt: T0 + 5000, expiresAt: T0 + 5000 + TTL },
        { id: 'i2', host: 'h2', pid: 22, startedAt: T0, heartbeatAt: T0, expiresAt: T0 + TTL },
      ]);
      await store.instances.remove('i2');
      expect((await store.instances.list()).map((i) => i.id)).toEqual(['i1']);
      // Long dead: pruned, with its expired leases; live rows stay.
      await store.instances.heartbeat({ id: 'old', host: 'h3', pid: 33, startedAt: T0 - 100_000 }, T0 - 100_000, TTL);
      await store.leases.acquire('session:old', 'old', T0 - 100_000, TTL);
      expect(await store.instances.prune(T0)).toBe(1);
      expect(await store.leases.prune(T0)).toBe(1);
      expect((await store.instances.list()).map((i) => i.id)).toEqual(['i1']);
    });

    it('settles a journal row once: the second answer to the same event rolls back with its reply', async () => {
      await store.inbound.claim(inbound('u1'), 'telegram:1001:1001');
      await store.inbound.claim(inbound('u2', '1002', T0 + 1), 'telegram:1002:1002');
      await store.inbound.claim(inbound('u3', '1001', T0 + 2), 'telegram:1001:1001');
      expect((await store.inbound.pendingFor('telegram:1001:1001')).map((m) => m.updateId)).toEqual(['u1', 'u3']);
      const answer = (text: string) =>
        store.transaction(async (tx) => {
          await tx.outbox.enqueue({ platform: 'telegram', chatId: '1001' }, { chunks: [text] }, T0);
          if (!(await tx.inbound.mark('telegram', 'u1', 'done'))) throw new Error('answered elsewhere');
        });
      await answer('first');
      await expect(answer('second')).rejects.toThrow('answered elsewhere');
      expect((await store.outbox.pending()).map((o) => o.message.chunks[0])).toEqual(['first']);
      expect((await store.inbound.pendingFor('telegram:1001:1001')).map((m) => m.updateId)).toEqual(['u3']);
    });

    it('leaves a cron run whose lease is held to its instance, and closes it once the lease expired', async () => {
      await store.cron.insertChatJob({ id: 'daily', owner: 'alice', schedule: '0 9 * * *', timezone: null, prompt: 'p', deliver: { platform: 'telegram', chatId: '1001' } }, T0);
      const claim = await store.cron.claim('daily', T0, T0, false);
      if (claim.kind !== 'claimed') throw new Error(claim.kind);
      await store.leases.acquire(`cron-run:${claim.runId}`, 'i1', T0, TTL);
      // Another instance starting: the run is older than `before` but its lease is live.
      expect(await store.cron.closeInterrupted(T0 + 5000, T0 + 5000)).toBe(0);
      expect((await store.cron.runs('daily'))[0].status).toBe('running');
      // Its instance died: the lease was not renewed.
      expect(await store.cron.closeInterrupted(T0 + TTL, T0 + TTL)).toBe(1);
      expect((await store.cron.runs('daily'))[0]).toMatchObject({ status: 'error', detail: 'interrupted: the gateway stopped during the run' });
    });

    // PostgreSQL only: separate pools stand for separate instances (SQLite is one process).
    if (engine.name === 'postgres') {
      it('gives a contended lease to exactly one of several instances', async () => {
        const others = await Promise.all([db.open(), db.open(), db.open()]);
        try {
          for (let round = 0; round < 5; round++) {
            const name = `door:race-${round}`;
            const wins = await Promise.all([store, ...others].map((s, i) => s.leases.acquire(name, `i${i}`, T0, TTL)));
            expect(wins.filter(Boolean)).toHaveLength(1);
          }
          await store.leases.acquire('session:z', 'i0', T0, 1000);
          const steals = await Promise.all(others.map((s, i) => s.leases.acquire('session:z', `i${i + 1}`, T0 + 1000, TTL)));
          expect(steals.filter(Boolean)).toHaveLength(1);
        } finally {
          await Promise.all(others.map((s) => s.close()));
        }
      });
    }
  });
}
