/**
 * Reading mail off the event loop (ARCHITECTURE.md §11): mailparser's decoding of a raw mail (an
 * 850 KB HTML body took 120–160 ms of the event loop; base64 attachments of megabytes more) and
 * html-to-text (about 1 ms a KB on an idle machine, several times that on a busy one) run in one
 * worker thread (core/worker-pool.ts), started on the first mail and not keeping the process alive. Every door shares the
 * event loop: what is left on it is bounded work on text already cut (parse.ts, reply-cut.ts).
 *
 * A job that takes longer than its timeout ends that worker (the next mail gets a new one) and the
 * caller falls back: HTML to the text without markup, a whole mail to its headers alone, saying so.
 *
 * The worker's code is a string (no file of its own, so the bundle in dist/ needs no extra entry);
 * it loads mailparser and html-to-text from the paths this module resolves. Each line of a
 * `<blockquote>` starts with QUOTE_MARK for the reply cut (reply-cut.ts).
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { QUOTE_MARK } from './reply-cut.js';
import { WorkerPool, WorkerTimeout } from '../../core/worker-pool.js';

/** An HTML conversion still running after this is abandoned (its worker ended). */
export const HTML_WORKER_TIMEOUT_MS = 5_000;
/** A whole mail (up to MAX_SOURCE_BYTES, attachments decoded) still being parsed after this is abandoned. */
export const PARSE_WORKER_TIMEOUT_MS = 15_000;

/** An address of a From or Reply-To header. */
export interface ParsedAddress {
  address: string;
  name?: string;
}

/** One MIME part that is a file, as the worker read it. */
export interface ParsedPart {
  name?: string;
  contentType: string;
  size: number;
  /** In a multipart/related body (an image the HTML shows by `cid:`). */
  related: boolean;
  /** SHA-256 of the bytes (hex); absent with `data` when the part was over the byte limit it was given. */
  sha256?: string;
  data?: Uint8Array;
}

/** What the worker makes of a raw mail: plain data, no class of mailparser's. */
export interface ParsedSource {
  from: ParsedAddress[];
  replyTo: ParsedAddress[];
  subject?: string;
  messageId?: string;
  inReplyTo?: string;
  references: string[];
  /** Epoch ms. */
  date?: number;
  /** The header lines parse.ts reads (lower-cased key, the raw line). */
  headerLines: Array<{ key: string; line: string }>;
  /** A real text/plain body only (no text made from HTML). */
  text?: string;
  html?: string;
  parts: ParsedPart[];
}

/** Header lines the door reads (screen.ts); the rest stay in the worker. */
export const HEADER_KEYS = ['auto-submitted', 'precedence', 'list-id', 'authentication-results', 'x-autoreply', 'x-autorespond'];

const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { compile } = require(workerData.htmlToText);
const { simpleParser } = require(workerData.mailparser);
const MARK = workerData.mark;
const HEADER_KEYS = new Set(workerData.headerKeys);
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
const addresses = (value) => {
  const out = [];
  for (const group of Array.isArray(value) ? value : value ? [value] : []) {
    for (const entry of group.value || []) if (entry.address) out.push({ address: entry.address, name: entry.name || undefined });
  }
  return out;
};
const list = (value) => (Array.isArray(value) ? value : value ? [value] : []);
async function parse(raw, maxPartBytes) {
  const mail = await simpleParser(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  const transfer = [];
  const parts = (mail.attachments || []).map((a) => {
    const size = a.size ?? (a.content ? a.content.length : 0);
    const part = { name: a.filename || undefined, contentType: a.contentType || 'application/octet-stream', size, related: Boolean(a.related) };
    if (a.content && size <= maxPartBytes) {
      // A copy of its own: a small Buffer may sit in a shared pool, which must not be handed over.
      const data = new Uint8Array(a.content);
      part.sha256 = createHash('sha256').update(data).digest('hex');
      part.data = data;
      transfer.push(data.buffer);
    }
    return part;
  });
  const result = {
    from: addresses(mail.from),
    replyTo: addresses(mail.replyTo),
    subject: mail.subject,
    messageId: mail.messageId,
    inReplyTo: mail.inReplyTo,
    references: list(mail.references),
    date: mail.date ? mail.date.getTime() : undefined,
    headerLines: (mail.headerLines || []).filter((h) => HEADER_KEYS.has(h.key)),
    text: mail.text,
    html: typeof mail.html === 'string' ? mail.html : undefined,
    parts,
  };
  return { result, transfer };
}
parentPort.on('message', async ({ id, request: job }) => {
  try {
    if (job.op === 'html') parentPort.postMessage({ id, result: toText(job.html) });
    else {
      const { result, transfer } = await parse(job.raw, job.maxPartBytes);
      parentPort.postMessage({ id, result }, transfer);
    }
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
parentPort.postMessage({ ready: true });
`;

type MailJob = { op: 'html'; html: string } | { op: 'parse'; raw: Uint8Array; maxPartBytes: number };

/** One thread (WorkerPool: started on the first mail, not keeping the process alive while idle). */
let pool: WorkerPool<MailJob, unknown> | null = null;

function mailPool(): WorkerPool<MailJob, unknown> {
  if (pool) return pool;
  const require = createRequire(import.meta.url);
  const workerData = { htmlToText: require.resolve('html-to-text'), mailparser: require.resolve('mailparser'), mark: QUOTE_MARK, headerKeys: HEADER_KEYS };
  pool = new WorkerPool<MailJob, unknown>({
    spawn: () => new Worker(WORKER_CODE, { eval: true, workerData, stdout: false, stderr: false }),
    size: 1,
    timeoutMs: PARSE_WORKER_TIMEOUT_MS,
  });
  return pool;
}

/** Runs `job`; a timeout is said as "`what` took longer than N s to read" (the caller falls back). */
async function run<T>(job: MailJob, timeoutMs: number, what: string, transfer: ArrayBuffer[] = []): Promise<T> {
  try {
    return (await mailPool().run(job, { timeoutMs, transfer })) as T;
  } catch (error) {
    if (error instanceof WorkerTimeout) throw new Error(`${what} took longer than ${timeoutMs / 1000} s to read`, { cause: error });
    throw error;
  }
}

/** HTML as text (blockquote lines marked), converted in the worker thread; rejects after HTML_WORKER_TIMEOUT_MS. */
export function convertHtml(html: string, timeoutMs = HTML_WORKER_TIMEOUT_MS): Promise<string> {
  return run<string>({ op: 'html', html }, timeoutMs, 'the HTML');
}

/**
 * A raw mail parsed by mailparser in the worker thread: headers, bodies, and the bytes of each file
 * part up to `maxPartBytes` (larger ones are described only). With `handOver`, a Buffer that owns its
 * whole memory is moved to the worker, not copied (copying 10 MB is itself tens of milliseconds of
 * the event loop on a busy machine), and is empty afterwards; otherwise the bytes are copied.
 */
export function parseInWorker(raw: Uint8Array, maxPartBytes: number, options: { timeoutMs?: number; handOver?: boolean } = {}): Promise<ParsedSource> {
  const owned = options.handOver && raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength && raw.buffer instanceof ArrayBuffer;
  const bytes = owned ? raw : new Uint8Array(raw);
  return run<ParsedSource>({ op: 'parse', raw: bytes, maxPartBytes }, options.timeoutMs ?? PARSE_WORKER_TIMEOUT_MS, 'the mail', [bytes.buffer as ArrayBuffer]);
}
