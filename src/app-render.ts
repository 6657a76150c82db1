/**
 * Rendering off the event loop (ARCHITECTURE.md §6d). An ordinary long answer — 30 KB of headings,
 * lists, code, links and tables — takes 100–250 ms to parse and serialize, and every door shares the
 * event loop. Answers longer than INLINE_MAX_CHARS are rendered on a worker thread
 * (src/render/thread.ts, the same renderFor); shorter ones inline, where a render costs less than
 * the round trip to a thread. A render that fails on the thread (a stack overflow, a dead thread)
 * or takes longer than RENDER_TIMEOUT_MS (the thread is ended; the next answer gets a new one) goes
 * out as written — renderAsWritten, the escaped text of render/fallback.ts, linear in its length —
 * never a lost answer.
 *
 * The thread's code: src/render/thread.ts through tsx when running from the sources (`npm run dev`,
 * the tests), dist/render-worker.js in the bundle (an entry point of scripts/build.mjs, beside the
 * bundled code in dist/ or dist/chunks/ as esbuild splits it, so both are looked for).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { WorkerPool } from './core/worker-pool.js';
import { assertRenderPlatform, renderAsWritten, renderFor, type RenderedMessage } from './render/index.js';
import type { RenderRequest } from './render/request.js';
import type { PlatformId } from './platform/ids.js';

/**
 * Answers up to this many characters render inline. Measured (slack, medians of 21, on this 2-core VM
 * while it was shared, load 15): a round trip to the thread holds the event loop 0.5–1 ms whatever the
 * size, and answers in 1.3–2× the inline time; inline, 250 characters take 11 ms, 2,000 take 29, 4,000
 * take 114 (on an idle core about a fifth of that). So an answer up to 2,000 characters — most chat
 * replies — is not delayed by a thread's round trip (or its start), and no inline render holds the
 * loop much past 10 ms on an idle core.
 */
export const INLINE_MAX_CHARS = 2_000;

/**
 * A render still running on the thread after this is abandoned (the thread ended) and sent as written: a
 * bounded answer (§6c) takes at most about 250 ms on an idle core, so this is a render gone wrong, not a
 * busy machine (a 30 KB answer took over 5 s once here, at a load of 18 on 2 cores).
 */
export const RENDER_TIMEOUT_MS = 10_000;

/**
 * The thread's limits. Its stack is the event loop's (V8's default, about 1 MB, not a worker's 4 MB), so
 * a tree too deep for one is too deep for the other and both write the same; its heap is bounded so a
 * runaway render ends the thread, not the process.
 */
const THREAD_LIMITS: ResourceLimits = { stackSizeMb: 1, maxOldGenerationSizeMb: 256 };

/** Where the bundled thread code may be, relative to the bundled module that starts it. */
const BUNDLED_ENTRY = ['./render-worker.js', '../render-worker.js'];

/** Starts one render thread (see the module comment for which code it runs). */
export function spawnRenderThread(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const entry = new URL('./render/thread.ts', here).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
    return new Worker(boot, { eval: true, resourceLimits: THREAD_LIMITS });
  }
  const entry = BUNDLED_ENTRY.map((rel) => new URL(rel, here)).find((url) => existsSync(fileURLToPath(url)));
  if (!entry) throw new Error(`no render-worker.js beside the bundle (looked in ${BUNDLED_ENTRY.map((r) => fileURLToPath(new URL(r, here))).join(', ')}); run \`npm run build\``);
  return new Worker(entry, { resourceLimits: THREAD_LIMITS });
}

export type RenderPool = WorkerPool<RenderRequest, RenderedMessage>;

/** A pool of render threads: one on a 2-core machine, two with more cores. */
export function createRenderPool(options: { spawn?: () => Worker; timeoutMs?: number; size?: number } = {}): RenderPool {
  return new WorkerPool<RenderRequest, RenderedMessage>({
    spawn: options.spawn ?? spawnRenderThread,
    size: options.size ?? Math.min(2, Math.max(1, availableParallelism() - 1)),
    timeoutMs: options.timeoutMs ?? RENDER_TIMEOUT_MS,
  });
}

let shared: RenderPool | null = null;

/** The process's render pool (threads are started on the first long answer). */
export function sharedRenderPool(): RenderPool {
  return (shared ??= createRenderPool());
}

export interface RenderServiceOptions {
  /** Default: the process's shared pool. */
  pool?: RenderPool;
  /** Default INLINE_MAX_CHARS; 0 sends every non-empty answer to the thread. */
  inlineMaxChars?: number;
  /** Told when an answer went out as written because the thread failed or timed out. */
  onFallback?: (reason: string, request: RenderRequest) => void;
}

/**
 * Renders an answer for its platform as renderFor does, long ones off the event loop. Returns the
 * message itself for a short answer (no promise, no tick), a promise for a long one, which never
 * rejects for the thread's sake. A platform that is no render target throws RenderError at once.
 */
export type RenderService = (platform: PlatformId, markdown: string, options?: { color?: boolean }) => RenderedMessage | Promise<RenderedMessage>;

export function createRenderService(options: RenderServiceOptions = {}): RenderService {
  const inlineMax = options.inlineMaxChars ?? INLINE_MAX_CHARS;
  return (platform, markdown, { color } = {}) => {
    assertRenderPlatform(platform);
    if (markdown.length <= inlineMax) return renderFor(platform, markdown, { color });
    const request: RenderRequest = { platform, markdown, ...(color === undefined ? {} : { color }) };
    return (options.pool ?? sharedRenderPool()).run(request).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      options.onFallback?.(reason, request);
      return renderAsWritten(platform, markdown, { color });
    });
  };
}
