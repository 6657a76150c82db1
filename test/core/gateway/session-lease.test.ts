/**
 * A session's lease around its turns (ARCHITECTURE.md §7, §9; issues #14, #42) on both engines: what the
 * store is asked for one message to an idle session — one call takes the lease with the batch, one
 * call writes the turn and gives the lease up when nothing else of the session is pending, so there
 * is no separate release and no extra read of the journal, and the check for messages journaled
 * meanwhile still follows. A message that arrives during a turn is still answered in a second turn
 * (the first write's read of the journal is its batch); a turn answered elsewhere writes nothing,
 * its release included; Presence stops renewing a lease given up in a write only once that
 * succeeded, and never counts it as lost.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseClaim, Repositories, Store, TurnCommit, TurnWrites } from '../../../src/core/store/types.js';
import { leaseTiming, Presence } from '../../../src/core/presence.js';
import { sessionLease } from '../../../src/core/gateway/turns.js';
import { formatSessionKey } from '../../../src/platform/address.js';
import { silentLogger } from '../../../src/core/logger.js';
import { startModelFake, lastUserText, type ModelFake } from '../../fakes/model.js';
import { inbound, makeCore, until, type CoreHarness } from '../../helpers/core.js';
import { ENGINES, reportSkips, skipNote, type EngineDb } from '../../helpers/engines.js';

reportSkips();

const RECORDED = new Set(['claim', 'journal', 'mark', 'pending', 'pendingFor', 'acquire', 'release', 'releaseAll', 'begin', 'commit']);

type Fail = (call: string, result: unknown) => void;

/** How a turn's write ended, as recorded: `turns.commit (released)`, `(kept)` (the lease stays) or `(answered elsewhere)`. */
function commitOutcome(result: unknown): string {
  const r = result as TurnCommit;
  return !r.settled ? 'answered elsewhere' : r.released ? 'released' : 'kept';
}

/**
 * `store`, recording the journal, lease and turn calls made on it (`tx …` inside a transaction) and how
 * each transaction ended. `fail` may throw before a turn's write (`turns.commit`), which then writes nothing.
 */
function recording(store: Store, calls: string[], fail: Fail = () => undefined): Store {
  const watch = <T extends object>(repo: T, label: string, inTx: boolean): T =>
    new Proxy(repo, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function' || typeof name !== 'string' || !RECORDED.has(name)) return value;
        return async (...args: unknown[]) => {
          const call = `${inTx ? 'tx ' : ''}${label}.${name}`;
          if (call === 'turns.commit') {
            try {
              fail(call, undefined);
            } catch (error) {
              calls.push(`${call} (failed)`);
              throw error;
            }
          }
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          calls.push(call === 'turns.commit' ? `${call} (${commitOutcome(result)})` : call);
          return result;
        };
      },
    });
  const bound = (tx: Repositories): Repositories =>
    new Proxy(tx, {
      get: (t, name, r) => (name === 'inbound' ? watch(t.inbound, 'inbound', true) : name === 'leases' ? watch(t.leases, 'leases', true) : Reflect.get(t, name, r)),
    });
  const inboundRepo = watch(store.inbound, 'inbound', false);
  const leaseRepo = watch(store.leases, 'leases', false);
  const turnRepo = watch(store.turns, 'turns', false);
  const transaction: Store['transaction'] = async (fn) => {
    calls.push('begin');
    try {
      const value = await store.transaction((tx) => fn(bound(tx)));
      calls.push('commit');
      return value;
    } catch (error) {
      calls.push('rollback');
      throw error;
    }
  };
  return new Proxy(store, {
    get: (target, name, r) =>
      name === 'inbound' ? inboundRepo : name === 'leases' ? leaseRepo : name === 'turns' ? turnRepo : name === 'transaction' ? transaction : Reflect.get(target, name, r),
  });
}

const USER = '4242';
const key = formatSessionKey({ platform: 'telegram', chatId: USER, userId: USER });
const lease = sessionLease(key);

/**
 * The read of the journal after a session's loop, for messages journaled meanwhile (another instance, or a
 * local one that raced): on PostgreSQL only when the write that gave the lease up says another instance
 * asked for it meanwhile (or a message was queued here); SQLite cannot tell, and always reads.
 */
const lateRead = (engine: string, contested = false) => (engine === 'sqlite' || contested ? ['inbound.pendingFor'] : []);

/** The calls of one message to an idle session after its journal row is written, as the gateway makes them now. */
const oneMessage = (engine: string) => [
  'turns.begin', // the lease and the batch
  'turns.commit (released)', // history, reply, journal row; nothing else pending: the lease goes with the answer
  ...lateRead(engine),
];

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`session lease around turns (${engine.name})${skipNote(engine)}`, () => {
    let model: ModelFake;
    let db: EngineDb;
    const cores: CoreHarness[] = [];
    const stores: Store[] = [];

    async function core(calls: string[], options: { yaml?: string; fail?: Fail; wrap?: (store: Store) => Store } = {}): Promise<CoreHarness> {
      const store = recording(await db.open(), calls, options.fail);
      const c = makeCore({ home: db.home, modelUrl: model.openaiUrl, yaml: options.yaml, store: options.wrap ? options.wrap(store) : store });
      cores.push(c);
      return c;
    }

    /** Calls from the first lease acquisition on (the journal write before it is the intake's). */
    const fromAcquire = (calls: string[]) => calls.slice(calls.indexOf('turns.begin'));

    beforeEach(async () => {
      model = await startModelFake();
      db = await engine.create();
    });
    afterEach(async () => {
      for (const c of cores.splice(0)) await c.close();
      for (const s of stores.splice(0)) await s.close();
      await model.close();
      await db.cleanup();
    });

    it('one message to an idle session: the lease goes in the turn’s commit, then the late check; no separate release', async () => {
      model.setScript((req) => ({ text: `got: ${lastUserText(req)}` }));
      const calls: string[] = [];
      const c = await core(calls);
      await c.gateway.handle(inbound('hello', { user: USER }));
      await until(() => c.door.sent.length === 1);
      await c.gateway.idle();
      expect(c.door.sent.map((s) => s.text)).toEqual(['got: hello']);
      expect(calls[0]).toBe('inbound.journal');
      expect(fromAcquire(calls)).toEqual(oneMessage(engine.name));
      expect(await c.store.leases.get(lease)).toBeUndefined();
      expect(c.app.presence.holds(lease)).toBe(false);
      expect(await c.store.inbound.pendingFor(key)).toEqual([]);
    });

    it('a failed turn ends the same way: its apology and the release in one commit', async () => {
      model.queue({ status: 500 });
      const calls: string[] = [];
      const c = await core(calls);
      await c.gateway.handle(inbound('hello', { user: USER }));
      await until(() => c.door.sent.length === 1);
      await c.gateway.idle();
      expect(c.door.sent[0].text).toMatch(/^Sorry, I could not answer that/);
      expect(fromAcquire(calls)).toEqual(oneMessage(engine.name));
      expect(calls.filter((x) => x.endsWith('leases.release'))).toEqual([]);
      expect(await c.store.leases.get(lease)).toBeUndefined();
    });

    it('a message arriving during a turn is answered in a second turn; the lease goes with the second commit', async () => {
      const calls: string[] = [];
      let c!: CoreHarness;
      const during: string[] = [];
      model.setScript(async (req) => {
        const text = lastUserText(req);
        if (text === 'one') {
          during.push(`held: ${String(c.app.presence.holds(lease))}`);
          await c.gateway.handle(inbound('two', { user: USER }));
        }
        return { text: `got: ${text}` };
      });
      c = await core(calls);
      await c.gateway.handle(inbound('one', { user: USER }));
      await until(() => c.door.sent.length === 2);
      await c.gateway.idle();
      expect(c.door.sent.map((s) => s.text)).toEqual(['got: one', 'got: two']);
      expect(during).toEqual(['held: true']);
      expect(fromAcquire(calls)).toEqual([
        'turns.begin',
        'inbound.journal', // "two", journaled while the model writes
        'turns.commit (kept)', // finds "two" pending: the lease stays, and "two" is the next batch
        'turns.commit (released)',
        'inbound.pendingFor', // "two" was queued behind the loop here: read again on both engines
      ]);
      expect(await c.store.leases.get(lease)).toBeUndefined();
    });

    it('a message another instance journals while this one’s last write is under way, finding the session taken, is answered at the end of the loop, not left to the sweep', async () => {
      const calls: string[] = [];
      const other = await db.open();
      stores.push(other);
      const late = inbound('meanwhile', { user: USER });
      model.setScript((req) => ({ text: `got: ${lastUserText(req)}` }));
      // The other instance's attempt at the lease fails while this one holds it; its message is journaled
      // only after this one's write read the journal (a claim committed just after that write began).
      let raced = false;
      const wrap = (store: Store): Store =>
        Object.assign(Object.create(store) as Store, {
          turns: {
            begin: (k: string, claim: LeaseClaim) => store.turns.begin(k, claim),
            commit: async (w: TurnWrites) => {
              if (!raced) expect((await other.turns.begin(key, { name: lease, holder: 'other', now: Date.now(), ttlMs: 30_000 })).acquired).toBe(false);
              const done = await store.turns.commit(w);
              if (!raced) expect(await other.inbound.claim(late, key)).toBe(true);
              raced = true;
              return done;
            },
          },
        });
      const c = await core(calls, { wrap });
      await c.gateway.handle(inbound('first', { user: USER }));
      await until(() => c.door.sent.length === 2, 5_000, 'the message journaled meanwhile');
      await c.gateway.idle();
      expect(c.door.sent.map((s) => s.text)).toEqual(['got: first', 'got: meanwhile']);
      expect(fromAcquire(calls).slice(0, 3)).toEqual(['turns.begin', 'turns.commit (released)', 'inbound.pendingFor']);
    });

    it('a turn another instance answered first commits nothing: no reply, and the lease is given up on its own', async () => {
      const calls: string[] = [];
      const other = await db.open();
      stores.push(other);
      const message = inbound('hello', { user: USER });
      model.setScript(async () => {
        // Another instance settles the row while this one's model writes.
        expect(await other.inbound.mark('telegram', message.updateId, 'done')).toBe(true);
        return { text: 'answered twice?' };
      });
      const c = await core(calls);
      await c.gateway.handle(message);
      await until(() => model.completions().length === 1);
      await c.gateway.idle();
      await new Promise((r) => setTimeout(r, 100));
      expect(c.door.sent).toEqual([]);
      expect(await c.store.outbox.pending()).toEqual([]);
      expect(fromAcquire(calls)).toEqual([
        'turns.begin',
        'turns.commit (answered elsewhere)', // its row already done: nothing written
        'turns.begin', // read again: nothing pending
        'leases.release',
        'inbound.pendingFor', // a loop that did not end with its write's release reads again
      ]);
      expect(await c.store.messages.count((await c.store.sessions.findOpen({ platform: 'telegram', chatId: USER, userId: USER }))!.id)).toBe(0);
      expect(await c.store.leases.get(lease)).toBeUndefined();
      expect(c.app.presence.holds(lease)).toBe(false);
    });

    it('a turn write that fails keeps the lease held (Presence too) for the next write, which gives it up', async () => {
      const calls: string[] = [];
      const held: boolean[] = [];
      let c!: CoreHarness;
      let failures = 1;
      const fail: Fail = () => {
        held.push(c.app.presence.holds(lease));
        if (failures-- > 0) throw new Error('disk full');
      };
      model.setScript(() => ({ text: 'fine' }));
      c = await core(calls, { fail });
      await c.gateway.handle(inbound('hello', { user: USER }));
      await until(() => c.door.sent.length === 1);
      await c.gateway.idle();
      // The answer's write failed; the apology's write found the lease row again and gave it up.
      expect(c.door.sent[0].text).toMatch(/^Sorry, I could not answer that/);
      expect(held).toEqual([true, true]);
      expect(fromAcquire(calls)).toEqual(['turns.begin', 'turns.commit (failed)', 'turns.commit (released)', ...lateRead(engine.name)]);
      expect(await c.store.leases.get(lease)).toBeUndefined();
      expect(c.app.presence.holds(lease)).toBe(false);
    });

    it('Presence renews the lease during the turn, forgets it once the turn’s commit gave it up, and never reports it lost', async () => {
      const calls: string[] = [];
      let c!: CoreHarness;
      const seen: Array<{ held: boolean; holder?: string }> = [];
      model.setScript(async () => {
        // Two renewals while the model writes.
        for (let ticks = 0; ticks < 2; ) await new Promise<void>((r) => c.app.presence.onTick(() => (ticks++, r())));
        seen.push({ held: c.app.presence.holds(lease), holder: (await c.store.leases.get(lease))?.holder });
        return { text: 'done' };
      });
      c = await core(calls, { yaml: 'gateway:\n  lease_seconds: 1\n' });
      const lost: string[] = [];
      c.app.presence.onLost((name) => lost.push(name));
      await c.app.presence.start();
      await c.gateway.handle(inbound('hello', { user: USER }));
      await until(() => c.door.sent.length === 1);
      await c.gateway.idle();
      expect(seen).toEqual([{ held: true, holder: c.app.presence.id }]);
      // Renewals after the commit do not bring it back.
      await new Promise<void>((r) => c.app.presence.onTick(r));
      await new Promise<void>((r) => c.app.presence.onTick(r));
      expect(c.app.presence.holds(lease)).toBe(false);
      expect(await c.store.leases.get(lease)).toBeUndefined();
      expect(lost).toEqual([]);
    });
  });

  describe.skipIf(Boolean(engine.skip))(`Presence: a lease given up inside a transaction (${engine.name})${skipNote(engine)}`, () => {
    let db: EngineDb;
    let store: Store;
    let presence: Presence;
    const lost: string[] = [];
    const name = 'session:telegram:1:1';
    const tick = () => new Promise<void>((r) => presence.onTick(r));

    beforeEach(async () => {
      db = await engine.create();
      store = await db.open();
      presence = new Presence({ store, instanceId: 'one', timing: leaseTiming(1), logger: silentLogger, now: () => new Date() });
      lost.length = 0;
      presence.onLost((n) => lost.push(n));
      await presence.start();
      expect(await presence.acquire(name)).toBe(true);
    });
    afterEach(async () => {
      await presence.stop();
      await store.close();
      await db.cleanup();
    });

    it('committed: a renewal before `settled` does not count it as lost; afterwards it is neither held nor renewed', async () => {
      await store.transaction((tx) => presence.releaseIn(tx, name));
      expect(await store.leases.get(name)).toBeUndefined();
      await tick();
      await tick();
      expect(lost).toEqual([]);
      presence.settled(name, true);
      expect(presence.holds(name)).toBe(false);
      await tick();
      expect(await store.leases.get(name)).toBeUndefined();
      expect(lost).toEqual([]);
    });

    it('rolled back: still held, still renewed', async () => {
      const before = (await store.leases.get(name))!.expiresAt;
      await expect(
        store.transaction(async (tx) => {
          await presence.releaseIn(tx, name);
          throw new Error('answered elsewhere');
        }),
      ).rejects.toThrow('answered elsewhere');
      presence.settled(name, false);
      expect(presence.holds(name)).toBe(true);
      await tick();
      await tick();
      expect(presence.holds(name)).toBe(true);
      expect((await store.leases.get(name))!.expiresAt).toBeGreaterThan(before);
      expect(lost).toEqual([]);
    });
  });
}
