/**
 * Rendering off the event loop (ARCHITECTURE.md §6d, issue 38 point 13): an ordinary long answer —
 * what a model really writes: headings, bold, code, links, lists, tables — renders on the render
 * worker with the event loop never stalled past 100 ms on any platform; the worker writes exactly
 * what renderFor writes on the event loop; a render that kills its thread or runs past the timeout
 * goes out as written, and the next answer gets a new thread.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderPool, createRenderService, INLINE_MAX_CHARS, sharedRenderPool, spawnRenderThread } from '../../src/app-render.js';
import { WorkerFailed } from '../../src/core/worker-pool.js';
import { RENDER_PLATFORMS, renderAsWritten, renderFor } from '../../src/render/index.js';
import { commonmarkExamples, LLM_ANSWERS, ordinaryAnswer, stressDocs } from './corpus.js';
import { loopStallMs } from '../helpers/loop-stall.js';

const ordinary = ordinaryAnswer;


/**
 * The best of up to five runs, stopping at the first within `goal`: a garbage collection, or a busy
 * machine keeping the loop's thread off a core (on a shared 2-core box the idle loop alone misses a
 * 1 ms timer by up to 200 ms now and then: bench/render.ts, idle rows), stalls one run, not all five.
 */
async function bestStall(work: () => unknown, goal: number): Promise<number> {
  let best = Infinity;
  for (let k = 0; k < 5 && best > goal; k++) best = Math.min(best, await loopStallMs(work));
  return best;
}

/** A thread that runs `code` (CommonJS, parentPort in scope) instead of the renderer; ready at once. */
function threadOf(code: string): Worker {
  return new Worker(`const { parentPort } = require('node:worker_threads');\n${code}\nparentPort.postMessage({ ready: true });`, { eval: true });
}

afterAll(() => sharedRenderPool().close());

describe('rendering off the event loop', () => {
  const render = createRenderService();

  it('a 30 KB and a 100 KB ordinary answer never stall the event loop past 100 ms, on every platform', async () => {
    await render('telegram', ordinary(30_000)); // the thread's start (and tsx's, from the sources) is not what is measured
    for (const size of [30_000, 100_000]) {
      const md = ordinary(size);
      for (const platform of RENDER_PLATFORMS) {
        let out: unknown;
        const ms = await bestStall(async () => (out = await render(platform, md)), 100);
        expect(ms, `${platform}, ${size / 1000} KB: the event loop stalled ${ms.toFixed(0)} ms`).toBeLessThanOrEqual(100);
        expect(out, `${platform}, ${size / 1000} KB`).toEqual(renderFor(platform, md));
      }
    }
  }, 60_000);

  it('short answers render inline: no promise, no thread', () => {
    const md = ordinary(INLINE_MAX_CHARS);
    const pool = createRenderPool();
    const out = createRenderService({ pool })('slack', md);
    expect(out).not.toBeInstanceOf(Promise);
    expect(out).toEqual(renderFor('slack', md));
    expect(pool.started).toBe(0);
  });

  it('the worker writes exactly what renderFor writes on the event loop', async () => {
    const offLoop = createRenderService({ inlineMaxChars: 0 });
    const docs = [
      ...LLM_ANSWERS,
      ordinary(8_000),
      ordinary(40_000),
      ...stressDocs()
        .filter((d) => /table|emoji|CJK|hostile|mentions|deep|long link|surrogate/.test(d.name))
        .map((d) => d.markdown),
      ...commonmarkExamples()
        .filter((_, k) => k % 29 === 0)
        .map((e) => e.markdown),
    ];
    for (const platform of RENDER_PLATFORMS) {
      const got = await Promise.all(docs.map((md) => offLoop(platform, md)));
      expect(got, platform).toEqual(docs.map((md) => renderFor(platform, md)));
    }
    const colored = await offLoop('cli', LLM_ANSWERS[0], { color: true });
    expect(colored).toEqual(renderFor('cli', LLM_ANSWERS[0], { color: true }));
    expect(colored.chunks[0]).toContain('\x1b[');
  }, 60_000);

  it('a render that throws on the thread is reported, and the thread renders the next answer', async () => {
    const pool = createRenderPool({ size: 1 });
    try {
      // cron is no render target: renderFor throws on the thread as it would inline.
      await expect(pool.run({ platform: 'cron', markdown: 'x' })).rejects.toThrow(/RenderError: cron is not a render target/);
      const md = ordinary(10_000);
      expect(await pool.run({ platform: 'discord', markdown: md })).toEqual(renderFor('discord', md));
      expect(pool.started).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('a thread that dies mid-render (a stack overflow nobody caught) sends the answer as written; the next answer gets a new thread', async () => {
    let spawned = 0;
    const pool = createRenderPool({ size: 1, spawn: () => (spawned++ === 0 ? threadOf('const deeper = (n) => deeper(n + 1) + 1;\nparentPort.on("message", () => deeper(0));') : spawnRenderThread()) });
    const fallbacks: string[] = [];
    const render = createRenderService({ pool, inlineMaxChars: 0, onFallback: (reason) => fallbacks.push(reason) });
    try {
      const md = ordinary(20_000);
      expect(await render('telegram', md)).toEqual(renderAsWritten('telegram', md));
      expect(fallbacks).toEqual([expect.stringMatching(/the worker thread failed: Maximum call stack size exceeded/)]);
      expect(renderAsWritten('telegram', md).chunks.join('')).toContain('**TL;DR:**');
      expect(await render('telegram', md)).toEqual(renderFor('telegram', md));
      expect(renderFor('telegram', md).chunks.join('')).toContain('<b>TL;DR:</b>');
      expect(spawned).toBe(2);
    } finally {
      await pool.close();
    }
  }, 30_000);

  it('a render past the timeout ends its thread and goes out as written, without stalling the event loop; the next gets a new thread', async () => {
    let spawned = 0;
    const pool = createRenderPool({ size: 1, timeoutMs: 1_000, spawn: () => (spawned++ === 0 ? threadOf('parentPort.on("message", () => { for (;;); });') : spawnRenderThread()) });
    const fallbacks: string[] = [];
    const render = createRenderService({ pool, inlineMaxChars: 0, onFallback: (reason) => fallbacks.push(reason) });
    try {
      const md = ordinary(30_000);
      let out: unknown;
      const started = performance.now();
      const stall = await loopStallMs(async () => (out = await render('email', md)));
      expect(performance.now() - started).toBeGreaterThanOrEqual(990);
      expect(stall).toBeLessThan(100);
      expect(out).toEqual(renderAsWritten('email', md));
      expect(fallbacks).toEqual(['took longer than 1000 ms']);
      expect(pool.threads).toBe(0);
      const next = ordinary(3_000);
      expect(await render('email', next)).toEqual(renderFor('email', next));
      expect(spawned).toBe(2);
    } finally {
      await pool.close();
    }
  }, 30_000);

  it('answers waiting behind a slow one are not timed out with it', async () => {
    let spawned = 0;
    const pool = createRenderPool({ size: 1, timeoutMs: 1_000, spawn: () => (spawned++ === 0 ? threadOf('parentPort.on("message", () => { for (;;); });') : spawnRenderThread()) });
    try {
      const md = ordinary(3_000);
      const [slow, next] = await Promise.allSettled([pool.run({ platform: 'slack', markdown: md }), pool.run({ platform: 'slack', markdown: md })]);
      expect(slow).toMatchObject({ status: 'rejected', reason: { name: 'WorkerTimeout' } });
      expect(next).toEqual({ status: 'fulfilled', value: renderFor('slack', md) });
    } finally {
      await pool.close();
    }
  }, 30_000);

  it('a thread that cannot start fails the job, never the caller', async () => {
    const pool = createRenderPool({
      spawn: () => {
        throw new Error('no render-worker.js beside the bundle');
      },
    });
    await expect(pool.run({ platform: 'telegram', markdown: 'x' })).rejects.toBeInstanceOf(WorkerFailed);
    const md = ordinary(5_000);
    const out = await createRenderService({ pool, inlineMaxChars: 0 })('telegram', md);
    expect(out).toEqual(renderAsWritten('telegram', md));
  });
});
