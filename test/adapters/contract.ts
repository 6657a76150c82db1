/**
 * The contract every adapter keeps (the `Adapter` interface in src/core/types.ts, ARCHITECTURE.md §6b), as one
 * suite that each platform runs against its loopback fake through a small harness:
 *
 *   adapterContract({ name: 'telegram', platform: 'telegram', …, setup: async () => fixture });
 *
 * A harness says statically what its platform has (inbound events, 429s, a connection pool, typing),
 * so a case that does not apply to a door is not defined for it (rather than passing without checking anything).
 */
import { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlatformApiError } from '../../src/core/errors.js';
import { PLATFORM_HINTS, type PlatformHint } from '../../src/core/prompt/hints.js';
import type { Adapter, Delivery, DeliveryTarget, InboundMessage } from '../../src/core/types.js';
import { formatAddress, parseDeliverableAddress, sameAddress } from '../../src/platform/address.js';
import { isDeliverable, type PlatformId } from '../../src/platform/ids.js';

/** An inbound event the fake can send: a direct message, or a message in a thread (topic) of a group. */
export type InboundKind = 'direct' | 'thread';

/**
 * A group message the fake can send (harnesses with `groups`): one that does not address the bot
 * at all, or one that replies to a message of the bot's (without mentioning it).
 */
export type GroupFact = 'unaddressed' | 'reply-to-bot';

/** One message as the fake accepted it; `chat` is where it landed, in the fake's own terms. */
export interface Landed {
  chat: string;
  text: string;
}

/** An event the fake sent to the adapter. */
export interface Injected {
  /**
   * Whether the platform was told the event was taken (Telegram: an offset past it; Slack: HTTP 200).
   * Absent where the platform has no such confirmation (Discord's gateway, the terminal).
   */
  confirmed?(): Promise<boolean>;
}

/** A fresh fake and an adapter pointed at it, for one test. */
export interface Fixture {
  adapter: Adapter;
  /** A direct chat on the fake that test deliveries go to. */
  target: DeliveryTarget;
  /** Everything the fake accepted from the adapter, in arrival order. */
  landed(): Landed[];
  /** Ports the fake listens on, to find this process's own sockets to it. */
  ports: number[];
  /** Makes the fake send one event from a user the bot may talk to (harnesses with `inbound`). */
  inject?(kind: InboundKind, text: string): Promise<Injected>;
  /**
   * Makes the fake send one group message from a user the bot may talk to (harnesses with `groups`);
   * for `reply-to-bot` the harness first has the bot post the message replied to, if it must.
   */
  injectGroup?(fact: GroupFact, text: string): Promise<void>;
  /** The fake answers the adapter's next send with 429 and `Retry-After: seconds` (harnesses with `rateLimits`). */
  rateLimitNextSend?(seconds: number): void;
  /** 429s the fake has served so far. */
  served429?(): number;
  /** Typing indications the fake has seen (harnesses with `typing`). */
  typingSeen?(): number;
  /** Connections from the adapter the fake sees open (harnesses with `pooled`). */
  openConnections?(): number;
  /** Stops the fake; the suite has closed the adapter by then. */
  dispose(): Promise<void>;
}

export interface AdapterHarness {
  name: string;
  platform: PlatformId;
  /** How a delivery shows: one message per chunk, or one message (a mail) for the whole delivery. */
  shape: 'per-chunk' | 'whole';
  /** Inbound events the fake can send; empty for a door that only sends. */
  inbound: readonly InboundKind[];
  /** The platform has group chats (channels, guilds) where a message need not address the bot. */
  groups: boolean;
  /** The fake can answer a send with 429 and Retry-After. */
  rateLimits: boolean;
  /** The adapter keeps connections open between sends (a pool) that only close() ends. */
  pooled: boolean;
  /** The adapter declares sendTyping and the fake records typing. */
  typing: boolean;
  setup(): Promise<Fixture>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` without keeping a timer armed while it runs (the timer count is part of what is checked). */
async function until(check: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what()}`);
    await sleep(20);
  }
}

/** Rejects when `promise` takes longer than `ms`. */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sockets of this process connected to one of `ports`: the client side of connections to the fake.
 * `_getActiveHandles` lists only handles that keep the event loop alive (idle keep-alive sockets are unref'd).
 */
function liveSocketsTo(ports: number[]): string[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles
    .filter((h): h is Socket => h instanceof Socket && ports.includes(h.remotePort ?? -1) && !ports.includes(h.localPort ?? -1))
    .map((s) => `${s.localPort} → ${s.remotePort}`);
}

/** Timers that keep the event loop alive. */
const liveTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

function delivery(target: DeliveryTarget, chunks: string[], firstChunk = 0, onSent?: (i: number) => void): Delivery & { sent: number[] } {
  const sent: number[] = [];
  const onChunkSent = (i: number) => {
    sent.push(i);
    onSent?.(i);
  };
  return { id: 1, target, message: { chunks }, firstChunk, onChunkSent, sent };
}

/** Collects what the adapter hands over. */
function inbox() {
  const received: InboundMessage[] = [];
  return {
    received,
    texts: () => received.map((m) => m.text),
    handler: async (m: InboundMessage): Promise<void> => void received.push(m),
    async waitFor(text: string): Promise<InboundMessage> {
      await until(() => received.some((m) => m.text === text), 5000, () => `'${text}' not handed over (got ${JSON.stringify(received.map((m) => m.text))})`);
      return received.find((m) => m.text === text)!;
    },
  };
}

/** `limit` units of the profile's unit with astral characters (2 UTF-16 units, 1 code point), so a wrong unit shows. */
function textOfLength(profile: PlatformHint, limit: number): string {
  if (profile.unit === 'codepoint') return '😀'.repeat(limit);
  return '😀'.repeat(Math.floor(limit / 2)) + (limit % 2 ? 'a' : '');
}

export function adapterContract(h: AdapterHarness): void {
  const limit = PLATFORM_HINTS[h.platform].messageLimit;

  describe(`${h.name} adapter contract`, () => {
    let f: Fixture;
    let ready = false;
    /** Hand-overs a test holds open; released before teardown. */
    const held: (() => void)[] = [];

    beforeEach(async () => {
      ready = false;
      f = await h.setup();
      ready = true;
    });
    afterEach(async () => {
      for (const release of held.splice(0)) release();
      if (!ready) return;
      try {
        await f.adapter.close();
      } finally {
        await f.dispose();
      }
    });

    const landedTexts = () => f.landed().map((m) => m.text);

    if (h.inbound.length > 0) it('start then stop resolves; handled events are confirmed, events after stop are neither handed over nor confirmed', async () => {
      const box = inbox();
      await f.adapter.start(box.handler);
      const before = await f.inject!('direct', 'before stop');
      await box.waitFor('before stop');
      await within(5000, f.adapter.stop(), 'stop()');
      if (before.confirmed) expect(await before.confirmed()).toBe(true);
      const after = await f.inject!('direct', 'after stop');
      await sleep(300);
      expect(box.texts()).toEqual(['before stop']);
      if (after.confirmed) expect(await after.confirmed()).toBe(false);
    });

    if (h.inbound.length > 0) it('stop during a hand-over resolves, confirms only events the handler was given, and hands over nothing after', async () => {
      const given: string[] = [];
      const gate = new Promise<void>((r) => held.push(r));
      await f.adapter.start(async (m) => {
        given.push(m.text);
        await gate;
      });
      const events = { one: await f.inject!('direct', 'one'), two: await f.inject!('direct', 'two'), three: await f.inject!('direct', 'three') };
      await until(() => given.length > 0, 5000, () => 'nothing was handed over');
      await sleep(200); // time to fetch what is queued behind the first event
      await within(8000, f.adapter.stop(), 'stop() with a hand-over still running');
      const atStop = [...given];
      for (const release of held.splice(0)) release();
      await sleep(200);
      expect(given).toEqual(atStop);
      for (const [text, event] of Object.entries(events)) {
        if (event.confirmed && (await event.confirmed())) expect(given, `'${text}' was confirmed`).toContain(text);
      }
    });

    // Doors report facts, the core decides (ARCHITECTURE.md §2): no door drops a group message for policy.
    if (h.groups) it('hands over a group message that does not address the bot, with mentionsBot and isReplyToBot false', async () => {
      const box = inbox();
      await f.adapter.start(box.handler);
      await f.injectGroup!('unaddressed', 'just chatting among us');
      const m = await box.waitFor('just chatting among us');
      expect(m).toMatchObject({ platform: h.platform, isDirect: false, mentionsBot: false, isReplyToBot: false });
      expect(m.command).toBeUndefined();
    });

    if (h.groups) it('hands over a reply to one of the bot\'s messages with isReplyToBot: true', async () => {
      const box = inbox();
      await f.adapter.start(box.handler);
      await f.injectGroup!('reply-to-bot', 'about what you said');
      const m = await box.waitFor('about what you said');
      expect(m).toMatchObject({ platform: h.platform, isDirect: false, isReplyToBot: true });
    });

    it('a delivery after stop still arrives: stop ends intake only', async () => {
      await f.adapter.start(async () => undefined);
      await f.adapter.stop();
      const d = delivery(f.target, ['after stop']);
      await f.adapter.deliver(d);
      expect(landedTexts()).toEqual(['after stop']);
      expect(d.sent).toEqual([0]);
    });

    it('close releases everything: no socket or timer of the adapter keeps the process alive', async () => {
      const timersBefore = liveTimers();
      await f.adapter.start(async () => undefined);
      await f.adapter.deliver(delivery(f.target, ['hello']));
      await f.adapter.stop();
      // A pool really is held until close(), so the checks below can see a leak.
      if (h.pooled) expect(f.openConnections!()).toBeGreaterThan(0);
      await f.adapter.close();
      await f.adapter.close(); // idempotent
      await until(
        () => liveSocketsTo(f.ports).length === 0 && liveTimers() <= timersBefore && (f.openConnections?.() ?? 0) === 0,
        3000,
        () => `still open: sockets [${liveSocketsTo(f.ports).join(', ')}], ${liveTimers() - timersBefore} timer(s), ${f.openConnections?.() ?? 0} connection(s) the fake sees`,
      );
    });

    it(h.shape === 'per-chunk' ? 'sends 3 chunks in order, one message each, reporting 0, 1, 2' : 'sends 3 chunks in order in one message, reporting 0, 1, 2', async () => {
      const chunks = ['first chunk', 'second chunk', 'third chunk'];
      const d = delivery(f.target, chunks);
      await f.adapter.deliver(d);
      if (h.shape === 'per-chunk') {
        expect(landedTexts()).toEqual(chunks);
      } else {
        const [whole, ...more] = landedTexts();
        expect(more).toEqual([]);
        const at = chunks.map((c) => whole.indexOf(c));
        expect(at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1])), `chunks in order in ${JSON.stringify(whole)}`).toBe(true);
      }
      expect(d.sent).toEqual([0, 1, 2]);
    });

    it(h.shape === 'per-chunk' ? 'resumes from firstChunk 1: sends only chunks 1 and 2' : 'resumes from firstChunk 1: sends nothing (the whole message went with chunk 0)', async () => {
      const d = delivery(f.target, ['first chunk', 'second chunk', 'third chunk'], 1);
      await f.adapter.deliver(d);
      if (h.shape === 'per-chunk') {
        expect(landedTexts()).toEqual(['second chunk', 'third chunk']);
        expect(d.sent).toEqual([1, 2]);
      } else {
        expect(landedTexts()).toEqual([]);
      }
    });

    if (h.rateLimits) it('waits out a 429 with Retry-After on chunk 2 and then sends chunk 2 exactly once', async () => {
      let limitedAt = 0;
      const d = delivery(f.target, ['first chunk', 'second chunk', 'third chunk'], 0, (i) => {
        if (i !== 1) return;
        f.rateLimitNextSend!(1);
        limitedAt = Date.now();
      });
      await f.adapter.deliver(d);
      expect(f.served429!()).toBe(1);
      expect(Date.now() - limitedAt).toBeGreaterThanOrEqual(950);
      expect(landedTexts()).toEqual(['first chunk', 'second chunk', 'third chunk']);
      expect(d.sent).toEqual([0, 1, 2]);
    });

    if (limit !== null) it("takes a chunk of exactly the profile's message limit; one unit more is refused as not retryable", async () => {
      const { profile } = f.adapter;
      expect(profile.messageLimit).toBe(limit);
      const full = textOfLength(profile, limit!);
      await f.adapter.deliver(delivery(f.target, [full]));
      expect(landedTexts()).toEqual([full]);
      const error = await f.adapter.deliver(delivery(f.target, [`${full}a`])).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlatformApiError);
      expect((error as PlatformApiError).retryable).toBe(false);
      expect(landedTexts()).toHaveLength(1);
    });

    it(h.typing ? 'sendTyping is declared and the platform sees it' : 'declares no sendTyping (the platform has none to show)', async () => {
      expect(typeof f.adapter.sendTyping).toBe(h.typing ? 'function' : 'undefined');
      if (!h.typing) return;
      const before = f.typingSeen!();
      await f.adapter.sendTyping!(f.target);
      await until(() => f.typingSeen!() > before, 3000, () => 'the fake saw no typing');
    });

    // cli and cron are not addresses a reply can be sent to by name.
    const addressKinds = isDeliverable(h.platform) ? h.inbound : [];
    for (const kind of addressKinds) {
      it(`a ${kind} event carries its address; its text form parses back to the chat the reply goes to`, async () => {
        const box = inbox();
        await f.adapter.start(box.handler);
        await f.inject!(kind, `hello from a ${kind} chat`);
        const m = await box.waitFor(`hello from a ${kind} chat`);
        expect(m.platform).toBe(h.platform);
        expect(m.userId).toMatch(/\S/);
        expect(Boolean(m.threadId)).toBe(kind === 'thread');
        const text = formatAddress(m);
        const parsed = parseDeliverableAddress(text);
        expect(sameAddress(parsed, m.replyTarget), `${text} → ${formatAddress(parsed)}, reply goes to ${formatAddress(m.replyTarget)}`).toBe(true);
        // And a delivery by that address (a cron `deliver:`) lands where the reply lands.
        await f.adapter.deliver(delivery(m.replyTarget, ['as a reply']));
        await f.adapter.deliver(delivery(parsed, ['by address']));
        const [reply, byAddress] = f.landed().slice(-2);
        expect(byAddress).toEqual({ chat: reply.chat, text: 'by address' });
      });
    }
  });
}
