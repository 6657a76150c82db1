/**
 * The per-session turn queue (src/core/session-queue.ts, ARCHITECTURE.md §7): one turn at a time per session;
 * what arrives meanwhile waits, at most `max_queued` messages, and is answered together in one
 * follow-up turn in arrival order; `/stop` cancels the running turn; sessions do not hold each other up.
 * And the semaphore that bounds turns across sessions.
 */
import { describe, expect, it } from 'vitest';
import { Semaphore, SessionQueues } from '../../../src/core/gateway/session-queue.js';
import type { InboundMessage } from '../../../src/core/types.js';

let seq = 0;
function message(text: string, userId = '1001'): InboundMessage {
  seq++;
  return {
    platform: 'telegram',
    chatId: userId,
    userId,
    text,
    isDirect: true,
    mentionsBot: false,
    isReplyToBot: false,
    messageId: String(seq),
    updateId: `u${seq}`,
    receivedAt: new Date(),
    replyTarget: { platform: 'telegram', chatId: userId },
  };
}

const texts = (batch: InboundMessage[] | null) => batch?.map((m) => m.text) ?? null;

describe('SessionQueues', () => {
  it('starts the first message at once and answers what arrived meanwhile in one follow-up turn, in arrival order', () => {
    const q = new SessionQueues(32);
    expect(q.offer('s', message('first'))).toBe('start');
    expect(q.isRunning('s')).toBe(true);
    for (const t of ['second', 'third', 'fourth']) expect(q.offer('s', message(t))).toBe('queued');
    expect(texts(q.next('s'))).toEqual(['second', 'third', 'fourth']);
    // the follow-up turn is running now; what arrives during it waits for the turn after
    expect(q.isRunning('s')).toBe(true);
    expect(q.offer('s', message('fifth'))).toBe('queued');
    expect(texts(q.next('s'))).toEqual(['fifth']);
    // nothing waited: the session is idle and the next message starts a turn again
    expect(q.next('s')).toBeNull();
    expect(q.isRunning('s')).toBe(false);
    expect(q.offer('s', message('sixth'))).toBe('start');
  });

  it('lets at most max_queued messages wait, then answers "full" and keeps none of the overflow', () => {
    const q = new SessionQueues(3);
    expect(q.offer('s', message('running'))).toBe('start');
    expect(['w1', 'w2', 'w3'].map((t) => q.offer('s', message(t)))).toEqual(['queued', 'queued', 'queued']);
    expect(q.offer('s', message('overflow 1'))).toBe('full');
    expect(q.offer('s', message('overflow 2'))).toBe('full');
    expect(texts(q.next('s'))).toEqual(['w1', 'w2', 'w3']);
    // the follow-up turn has the whole allowance again
    expect(['w4', 'w5', 'w6', 'w7'].map((t) => q.offer('s', message(t)))).toEqual(['queued', 'queued', 'queued', 'full']);
  });

  it('the default allowance of 32 (config/default.yaml) holds the 32nd message and refuses the 33rd', () => {
    const q = new SessionQueues(32);
    q.offer('s', message('running'));
    const verdicts = Array.from({ length: 33 }, (_, i) => q.offer('s', message(`m${i}`)));
    expect(verdicts.filter((v) => v === 'queued')).toHaveLength(32);
    expect(verdicts.at(-1)).toBe('full');
  });

  it('keeps sessions apart: a busy or full session neither delays nor fills another', () => {
    const q = new SessionQueues(1);
    expect(q.offer('alice', message('a1', 'alice'))).toBe('start');
    expect(q.offer('alice', message('a2', 'alice'))).toBe('queued');
    expect(q.offer('alice', message('a3', 'alice'))).toBe('full');
    expect(q.offer('bob', message('b1', 'bob'))).toBe('start');
    expect(q.offer('bob', message('b2', 'bob'))).toBe('queued');
    expect(q.size).toBe(2);
    expect(texts(q.next('bob'))).toEqual(['b2']);
    expect(q.next('bob')).toBeNull();
    expect(q.size).toBe(1);
    expect(q.isRunning('alice')).toBe(true);
    expect(texts(q.next('alice'))).toEqual(['a2']);
  });

  it('/stop cancels the running turn only; what waited is still answered, in a turn that is not cancelled', () => {
    const q = new SessionQueues(32);
    expect(q.cancel('s')).toBe(false); // nothing is running
    q.offer('s', message('long question'));
    q.offer('s', message('follow-up'));
    const running = q.signal('s');
    expect(running.aborted).toBe(false);
    expect(q.cancel('s')).toBe(true);
    expect(running.aborted).toBe(true);
    expect(texts(q.next('s'))).toEqual(['follow-up']);
    expect(q.signal('s').aborted).toBe(false);
    expect(q.next('s')).toBeNull();
    expect(q.cancel('s')).toBe(false);
  });

  it('each turn of a session gets its own /stop: a /stop between two turns stops the next one, not the finished one', () => {
    const q = new SessionQueues(32);
    q.offer('s', message('first'));
    const first = q.signal('s');
    expect(q.signal('s')).toBe(first); // the same turn asks again
    q.reset('s');
    expect(q.cancel('s')).toBe(true);
    expect(first.aborted).toBe(false);
    expect(q.signal('s').aborted).toBe(true);
    q.reset('s');
    expect(q.signal('s').aborted).toBe(false);
  });

  it("a finished turn's /stop is never handed to a later turn, stopped or not", () => {
    const q = new SessionQueues(32);
    q.offer('alice', message('a', 'alice'));
    const alice = q.signal('alice');
    let heard = 0;
    alice.addEventListener('abort', () => heard++); // something of alice's turn that never let go
    q.finish('alice');
    q.offer('bob', message('b', 'bob'));
    const bob = q.signal('bob');
    expect(bob).not.toBe(alice);
    q.cancel('bob');
    expect(heard).toBe(0); // bob's /stop reaches nothing of alice's
    q.finish('bob');
    q.offer('carol', message('c', 'carol'));
    const carol = q.signal('carol');
    expect(carol).not.toBe(bob); // a stopped one is not handed on
    expect(carol.aborted).toBe(false);
    q.finish('carol');
    // carol's was neither stopped nor listened to: dave's turn still gets its own
    q.offer('dave', message('d', 'dave'));
    const dave = q.signal('dave');
    expect(dave).not.toBe(carol);
    q.cancel('dave');
    expect([dave.aborted, carol.aborted]).toEqual([true, false]);
  });

  it('/stop in one session leaves another running; shutdown cancels every running turn', () => {
    const q = new SessionQueues(32);
    q.offer('alice', message('a', 'alice'));
    q.offer('bob', message('b', 'bob'));
    const alice = q.signal('alice');
    const bob = q.signal('bob');
    q.cancel('alice');
    expect([alice.aborted, bob.aborted]).toEqual([true, false]);
    q.cancelAll();
    expect(bob.aborted).toBe(true);
  });
});

describe('Semaphore', () => {
  /** Acquires in the background; `held` says whether it got the slot yet. */
  function contender(s: Semaphore) {
    const c = { held: false, release: (() => undefined) as () => void };
    void s.acquire().then((release) => {
      c.held = true;
      c.release = release;
    });
    return c;
  }
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('lets `limit` turns run at once; the next waits for a release, first come first served', async () => {
    const s = new Semaphore(2);
    const [a, b, c, d] = [contender(s), contender(s), contender(s), contender(s)];
    await settle();
    expect([a.held, b.held, c.held, d.held]).toEqual([true, true, false, false]);
    a.release();
    await settle();
    expect([c.held, d.held]).toEqual([true, false]);
    b.release();
    await settle();
    expect(d.held).toBe(true);
  });

  it('a release called twice frees one slot, not two', async () => {
    const s = new Semaphore(1);
    const a = contender(s);
    await settle();
    const [b, c] = [contender(s), contender(s)];
    a.release();
    a.release();
    await settle();
    expect([b.held, c.held]).toEqual([true, false]);
  });

  // Known bug, src/core/session-queue.ts:68-77: release() wakes the first waiter and decrements `active`;
  // the waiter increments it again only after its await. An acquire() in between takes the "free" slot
  // too. The gateway does exactly that (gateway.ts runSession: release(), then next(), then acquire() for
  // the follow-up batch in the same tick), so with every slot busy the limit is passed by one per
  // follow-up turn. Remove `.fails` once release hands the slot to the waiter instead of freeing it.
  it('never lets more than `limit` hold a slot, even when someone acquires right after a release', async () => {
    const s = new Semaphore(1);
    const a = contender(s);
    await settle();
    const waiter = contender(s);
    a.release();
    const newcomer = contender(s); // same tick as the release
    await settle();
    expect([waiter.held, newcomer.held].filter(Boolean)).toHaveLength(1);
  });
});
