/**
 * The render worker's thread (ARCHITECTURE.md §6d): the same renderFor as on the event loop, run on
 * a worker thread for answers long enough to stall it. `{ ready: true }` once loaded, then one request
 * at a time: `{ id, request }` in, `{ id, result }` or `{ id, error }` out (src/core/worker-pool.ts). An answer whose
 * render throws — a stack overflow the bounds did not foresee, any bug — is reported as an error
 * line, and the caller sends the answer as written; the thread lives on for the next one.
 *
 * Built as its own entry point (dist/render-worker.js, scripts/build.mjs); src/app-render.ts starts it.
 */
import { parentPort } from 'node:worker_threads';
import { renderFor } from './index.js';
import type { RenderRequest } from './request.js';

const port = parentPort;
if (!port) throw new Error('src/render/thread.ts runs as a worker thread (src/app-render.ts starts it)');

port.on('message', ({ id, request }: { id: number; request: RenderRequest }) => {
  try {
    port.postMessage({ id, result: renderFor(request.platform, request.markdown, { color: request.color }) });
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
});
port.postMessage({ ready: true });
