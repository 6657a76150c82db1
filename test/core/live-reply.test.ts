/**
 * LiveReply (ARCHITECTURE.md §10) against a recording door: the first update after 40 characters (or the
 * first-update delay), then at most one call per interval; a 429 skips updates until its
 * retry-after and the next update shows the latest text, never the ones in between; a message that
 * outgrows its chunk is finished and the stream goes on in a new one; posted ids are persisted.
 */
import { describe, expect, it } from 'vitest';
import { LiveReply } from '../../src/core/streaming/live-reply.js';
import { PlatformApiError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/logger.js';
import type { StreamingCapability } from '../../src/core/types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function door(failFirstEdits = 0, retryAfterMs = 300) {
  const calls: Array<{ kind: 'post' | 'edit'; id: string; text: string; at: number }> = [];
  let next = 1;
  let failures = failFirstEdits;
  const capability: StreamingCapability = {
    resolve: () => 'edit',
    async post(_t, chunk) {
      const id = String(next++);
      calls.push({ kind: 'post', id, text: chunk, at: Date.now() });
      return id;
    },
    async edit(_t, id, chunk) {
      if (failures-- > 0) throw new PlatformApiError({ platform: 'telegram', method: 'editMessageText', message: '429', retryAfterMs, retryable: true });
      calls.push({ kind: 'edit', id, text: chunk, at: Date.now() });
    },
  };
  return { calls, capability };
}

/** Chunks of at most 20 characters, like a tiny platform limit. */
const render = (markdown: string) => markdown.match(/[\s\S]{1,20}/g) ?? [];

describe('LiveReply', () => {
  it('shows the first update once 40 characters are there, then one call per interval, the latest text each time', async () => {
    const { calls, capability } = door();
    const saved: string[][] = [];
    const live = new LiveReply({ capability, mode: 'edit', target: { platform: 'telegram', chatId: '-1' }, render: (m) => [m], logger: silentLogger, intervalMs: 200, persist: async (ids) => void saved.push([...ids]) });
    live.update('short');
    await sleep(50);
    expect(calls).toEqual([]);
    live.update('x'.repeat(45));
    await sleep(20);
    expect(calls.map((c) => c.kind)).toEqual(['post']);
    for (let i = 0; i < 10; i++) {
      live.update(`${'x'.repeat(45)} ${i}`);
      await sleep(40);
    }
    await sleep(250);
    expect(await live.finish()).toEqual(['1']);
    expect(saved).toEqual([['1']]);
    for (let i = 1; i < calls.length; i++) expect(calls[i].at - calls[i - 1].at).toBeGreaterThanOrEqual(195);
    expect(calls.length).toBeLessThanOrEqual(4);
    expect(calls.at(-1)!.text).toBe(`${'x'.repeat(45)} 9`);
  });

  it('skips updates during a 429 and then shows the latest text, not the skipped ones', async () => {
    const { calls, capability } = door(1, 300);
    const live = new LiveReply({ capability, mode: 'edit', target: { platform: 'telegram', chatId: '-1' }, render: (m) => [m], logger: silentLogger, intervalMs: 50 });
    live.update('a'.repeat(40));
    await sleep(20);
    live.update(`${'a'.repeat(40)} one`); // this edit meets the 429
    await sleep(80);
    const afterRefusal = calls.length;
    live.update(`${'a'.repeat(40)} two`);
    await sleep(100);
    live.update(`${'a'.repeat(40)} three`);
    await sleep(100);
    expect(calls.length).toBe(afterRefusal); // blocked: nothing sent, nothing queued
    await sleep(250);
    await live.finish();
    expect(calls.map((c) => c.text)).toEqual(['a'.repeat(40), `${'a'.repeat(40)} three`]);
    expect(live.stats.skipped).toBe(1);
  });

  it('finishes a message that outgrew its chunk and goes on in a new one; a restarted stream edits the old messages', async () => {
    const { calls, capability } = door();
    const live = new LiveReply({ capability, mode: 'edit', target: { platform: 'telegram', chatId: '-1' }, render, logger: silentLogger, intervalMs: 30, firstChars: 1 });
    live.update('0123456789012345');
    await sleep(50);
    live.update('0123456789012345678901234');
    await sleep(150);
    expect(await live.finish()).toEqual(['1', '2']);
    expect(calls.map((c) => [c.kind, c.id, c.text])).toEqual([
      ['post', '1', '0123456789012345'],
      ['edit', '1', '01234567890123456789'],
      ['post', '2', '01234'],
    ]);

    const again = door();
    const resumed = new LiveReply({ capability: again.capability, mode: 'edit', target: { platform: 'telegram', chatId: '-1' }, render, logger: silentLogger, intervalMs: 30, firstChars: 1, resume: ['7'] });
    resumed.update('hello');
    await sleep(50);
    expect(await resumed.finish()).toEqual(['7']);
    expect(again.calls.map((c) => [c.kind, c.id])).toEqual([['edit', '7']]);
  });

  it('in draft mode finishes the messages the answer outgrew as real messages and drafts only the rest', async () => {
    const { calls, capability } = door();
    const drafts: string[] = [];
    capability.draft = async (_t, _id, text) => void drafts.push(text);
    const saved: string[][] = [];
    const live = new LiveReply({ capability, mode: 'draft', target: { platform: 'telegram', chatId: '1001' }, render, logger: silentLogger, intervalMs: 30, firstChars: 1, persist: async (ids) => void saved.push([...ids]) });
    live.update('0123456789');
    await sleep(50);
    live.update('0123456789012345678901234');
    await sleep(150);
    // the first 20 characters became a real message; the draft shows what follows it
    expect(calls.map((c) => [c.kind, c.text])).toEqual([['post', '01234567890123456789']]);
    expect(drafts).toEqual(['0123456789', '01234']);
    expect(saved).toEqual([['1']]);
    // the final delivery edits that message (to the final text) and sends the rest
    expect(await live.finish()).toEqual(['1']);
  });

  it('falls back to edits when the platform refuses drafts (an older server), so the answer still grows', async () => {
    const { calls, capability } = door();
    let refused = 0;
    capability.draft = async () => {
      refused++;
      throw new PlatformApiError({ platform: 'telegram', method: 'sendMessageDraft', message: 'Not Found: method not found', retryable: false });
    };
    const live = new LiveReply({ capability, mode: 'draft', target: { platform: 'telegram', chatId: '1001' }, render: (m) => [m], logger: silentLogger, intervalMs: 30, firstChars: 1 });
    live.update('hello');
    await sleep(80);
    live.update('hello world');
    await sleep(80);
    expect(refused).toBe(1);
    expect(calls.map((c) => [c.kind, c.text])).toEqual([['post', 'hello'], ['edit', 'hello world']]);
    expect(await live.finish()).toEqual(['1']);
  });
});
