/**
 * HTML mail to text off the event loop (ARCHITECTURE.md §11): html-to-text takes about 1 ms a KB on
 * an idle machine and several times that on a busy one, and every door shares the event loop. One
 * worker thread, started on the first HTML mail and not keeping the process alive, converts; a
 * conversion that takes longer than HTML_WORKER_TIMEOUT_MS ends that worker (the next mail gets a
 * new one) and the caller falls back to the text without markup.
 *
 * The worker's code is a string (no file of its own, so the bundle in dist/ needs no extra entry);
 * it loads html-to-text from the path this module resolves. Each line of a `<blockquote>` starts
 * with QUOTE_MARK for the reply cut (reply-cut.ts).
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { QUOTE_MARK } from './reply-cut.js';

/** A conversion still running after this is abandoned (its worker ended). */
export const HTML_WORKER_TIMEOUT_MS = 5_000;

const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { compile } = require(workerData.htmlToText);
const MARK = workerData.mark;
const markedBlockquote = (elem, walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 1 });
  walk(elem.children, builder);
  builder.closeBlock({
    trailingLineBreaks: 1,
    blockTransform: (str) => str.replace(/^\\n+|\\n+$/g, '').split('\\n').map((line) => (line.startsWith(MARK) ? line : MARK + line)).join('\\n'),
  });
};
const toText = compile({
  wordwrap: false,
  formatters: { markedBlockquote },
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'blockquote', format: 'markedBlockquote' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
  ],
});
parentPort.on('message', ({ id, html }) => {
  try {
    parentPort.postMessage({ id, text: toText(html) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Pending {
  resolve: (text: string) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

function failAll(error: Error): void {
  for (const p of pending.values()) {
    clearTimeout(p.timer);
    p.reject(error);
  }
  pending.clear();
}

function started(): Worker {
  if (worker) return worker;
  const htmlToText = createRequire(import.meta.url).resolve('html-to-text');
  const w = new Worker(WORKER_CODE, { eval: true, workerData: { htmlToText, mark: QUOTE_MARK } });
  w.unref();
  w.on('message', (m: { id: number; text?: string; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (!pending.size) w.unref();
    clearTimeout(p.timer);
    if (m.text !== undefined) p.resolve(m.text);
    else p.reject(new Error(m.error ?? 'the HTML could not be read'));
  });
  w.on('error', (error) => {
    if (worker === w) worker = null;
    failAll(error);
  });
  w.on('exit', () => {
    if (worker === w) worker = null;
    failAll(new Error('the HTML worker stopped'));
  });
  worker = w;
  return w;
}

/** HTML as text (blockquote lines marked), converted in the worker thread; rejects after HTML_WORKER_TIMEOUT_MS. */
export function convertHtml(html: string, timeoutMs = HTML_WORKER_TIMEOUT_MS): Promise<string> {
  const w = started();
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      // The worker is busy with this one for who knows how long: end it; the next mail starts another.
      if (worker === w) worker = null;
      void w.terminate();
      reject(new Error(`the HTML took longer than ${timeoutMs / 1000} s to read`));
    }, timeoutMs);
    pending.set(id, { resolve, reject, timer });
    // Held open while it has work (the answer is awaited), let go when idle.
    w.ref();
    w.postMessage({ id, html });
  });
}
