/**
 * One side of one comparison of bench/bespoke.ts, in a process of its own (so each side's CPU and
 * memory are its own, and one side's garbage or JIT state never lands on the other's figures).
 * argv[2] is a JSON `Job`; the result goes back over IPC as a `Sample`.
 *
 * CPU is process.cpuUsage (user + system) over the measured calls only: modules are loaded and
 * connections opened and the code made hot by warm-up calls first (the JIT's first compiles are not
 * what a gateway that runs for days pays per message). Memory is RSS and V8's old space after the calls,
 * without forcing a collection (what the process holds when it is busy).
 */
import { getEventListeners } from 'node:events';
import { getHeapSpaceStatistics } from 'node:v8';
import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import { createParser } from 'eventsource-parser';
import { createOpenAIProvider, toOpenAIMessages } from '../src/core/providers/openai.js';
import type { ModelRequest, PromptLayer } from '../src/core/providers/provider.js';
import { createHttpFetch } from '../src/core/http-fetch.js';
import { CronSchedule } from '../src/core/cron/schedule.js';
import type { ChatMessage } from '../src/core/messages.js';

export type ModelSide = 'bespoke' | 'sdk' | 'fetch';
export type BotSide = 'http-fetch' | 'fetch';
export type AbortSide = 'recycle' | 'new';
export type CronSide = 'croner';

export type Job =
  | { kind: 'model'; side: ModelSide; baseURL: string; requests: number; concurrency: number; warm: number }
  | { kind: 'bot'; side: BotSide; url: string; requests: number; concurrency: number; warm: number }
  | { kind: 'abort'; side: AbortSide; holdMs: number; turns: number; concurrency: number; warm: number }
  | { kind: 'cron'; side: CronSide; instants: number };

export interface Sample {
  /** CPU (user + system) per call, turn or slot computation, µs. */
  cpuUs: number;
  /** Wall time of the measured part, ms. */
  wallMs: number;
  rssMiB: number;
  /** RSS after the measured calls minus before them. */
  rssGrowthMiB: number;
  /** V8 old space in use after the measured calls, MiB. */
  oldSpaceMiB: number;
  /** Model calls: text and usage as the side read them (a check that each side read the whole answer). */
  check?: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const oldSpace = () => mib(getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0);

/** Runs `total` calls of `one`, `concurrency` at a time. */
async function pool(total: number, concurrency: number, one: (slot: number) => Promise<unknown>): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, slot) => {
      while (started < total) {
        started++;
        await one(slot);
      }
    }),
  );
}

/** Measures `run` (after `warm`): CPU per unit, wall, memory. */
async function measure(units: number, warm: () => Promise<unknown>, run: () => Promise<unknown>): Promise<Sample> {
  await warm();
  const rss0 = process.memoryUsage.rss();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await run();
  const c = process.cpuUsage(c0);
  const wallMs = performance.now() - t0;
  const rss = process.memoryUsage.rss();
  return { cpuUs: (c.user + c.system) / units, wallMs, rssMiB: mib(rss), rssGrowthMiB: mib(rss - rss0), oldSpaceMiB: oldSpace() };
}

// --- (a) the OpenAI client: one streamed chat completion per call, as a turn makes it ---

const SYSTEM = 'You are a helpful assistant on a chat platform. '.repeat(80);
/** A session per concurrency slot, its history growing by a user and an assistant message a turn. */
function sessions(count: number): Array<{ system: PromptLayer[]; messages: ChatMessage[] }> {
  return Array.from({ length: count }, (_, i) => {
    const messages: ChatMessage[] = [];
    for (let k = 0; k < 5; k++) {
      messages.push(Object.freeze({ role: 'user', content: `Question ${k} from user ${i}: what about the weather tomorrow in town?` }));
      messages.push(Object.freeze({ role: 'assistant', content: `Answer ${k}: it will be mild, with some rain in the afternoon. `.repeat(3) }));
    }
    // Frozen as the store hands them over (openai-body.ts keeps pieces only for frozen prompts).
    return { system: Object.freeze([Object.freeze({ name: 'base', text: SYSTEM })]) as PromptLayer[], messages };
  });
}

type StreamCall = (request: ModelRequest) => Promise<string>;

function modelCaller(side: ModelSide, baseURL: string): StreamCall {
  const apiKey = 'sk-bench';
  if (side === 'bespoke') {
    const provider = createOpenAIProvider({ apiKey, baseURL, timeoutMs: 60_000, maxRetries: 2 });
    return async (request) => {
      let text = '';
      const r = await provider.complete({ ...request, onText: (d) => (text += d) });
      return `${text.length}/${r.usage.outputTokens}/${r.usage.cachedTokens}`;
    };
  }
  const body = (request: ModelRequest) => ({
    model: request.model,
    messages: toOpenAIMessages(request),
    max_tokens: request.maxOutputTokens,
    stream: true as const,
    stream_options: { include_usage: true },
  });
  if (side === 'sdk') {
    const client = new OpenAI({ apiKey, baseURL, timeout: 60_000, maxRetries: 2 });
    return async (request) => {
      const stream = await client.chat.completions.create(body(request), { signal: request.signal });
      let text = '';
      let out = 0;
      let cached = 0;
      for await (const chunk of stream) {
        if (chunk.usage) {
          out = chunk.usage.completion_tokens;
          cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        }
        text += chunk.choices[0]?.delta?.content ?? '';
      }
      return `${text.length}/${out}/${cached}`;
    };
  }
  // Global fetch (undici inside Node) and eventsource-parser: what the SDK does, minus the SDK.
  return async (request) => {
    const res = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body(request)),
      signal: request.signal,
    });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    let text = '';
    let out = 0;
    let cached = 0;
    const parser = createParser({
      onEvent(event) {
        if (event.data === '[DONE]') return;
        const chunk = JSON.parse(event.data) as OpenAI.ChatCompletionChunk;
        if (chunk.usage) {
          out = chunk.usage.completion_tokens;
          cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        }
        text += chunk.choices[0]?.delta?.content ?? '';
      },
    });
    const decoder = new TextDecoder();
    for await (const piece of res.body) parser.feed(decoder.decode(piece, { stream: true }));
    return `${text.length}/${out}/${cached}`;
  };
}

async function modelJob(j: Extract<Job, { kind: 'model' }>): Promise<Sample> {
  const call = modelCaller(j.side, j.baseURL);
  const all = sessions(j.concurrency);
  let check = '';
  const one = async (slot: number) => {
    const s = all[slot];
    s.messages.push(Object.freeze({ role: 'user', content: `A new question for turn ${s.messages.length}` }));
    const request: ModelRequest = { model: 'gpt-bench', system: s.system, messages: [...s.messages], tools: [], maxOutputTokens: 512, signal: new AbortController().signal };
    check = await call(request);
    s.messages.push(Object.freeze({ role: 'assistant', content: 'the answer' }));
  };
  const sample = await measure(j.requests, () => pool(j.warm, j.concurrency, one), () => pool(j.requests, j.concurrency, one));
  return { ...sample, check };
}

// --- (b) the fetch grammY is given: a Bot API call (sendMessage) ---

async function botJob(j: Extract<Job, { kind: 'bot' }>): Promise<Sample> {
  const f = j.side === 'http-fetch' ? createHttpFetch() : fetch;
  let check = '';
  const one = async () => {
    // What grammY sends: a plain headers object and a JSON string body.
    const res = await f(`${j.url}/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: 1, text: 'Echo: hello there', parse_mode: 'HTML' }) });
    const answer = (await res.json()) as { ok: boolean };
    check = String(answer.ok);
  };
  const sample = await measure(j.requests, () => pool(j.warm, j.concurrency, one), () => pool(j.requests, j.concurrency, one));
  return { ...sample, check };
}

// --- (c) a turn's /stop controller: from a pool of spares (session-queue.ts) or new each turn ---

async function abortJob(j: Extract<Job, { kind: 'abort' }>): Promise<Sample> {
  const spare: AbortController[] = [];
  const take = (): AbortController => (j.side === 'recycle' ? (spare.pop() ?? new AbortController()) : new AbortController());
  const give = (c: AbortController) => {
    // session-queue.ts's rule: back to the spares unless aborted or still listened to (at most 64).
    if (j.side === 'recycle' && !c.signal.aborted && spare.length < 64 && getEventListeners(c.signal, 'abort').length === 0) spare.push(c);
  };
  const hold = j.holdMs > 0 ? () => new Promise<void>((r) => setTimeout(r, j.holdMs)) : () => Promise.resolve();
  const one = async () => {
    const c = take();
    // The model call listens for the turn's whole length, then lets go.
    const onAbort = () => undefined;
    c.signal.addEventListener('abort', onAbort, { once: true });
    await hold();
    c.signal.removeEventListener('abort', onAbort);
    give(c);
  };
  return measure(j.turns, () => pool(j.warm, j.concurrency, one), () => pool(j.turns, j.concurrency, one));
}

// --- (d) next and previous slots in a time zone ---

export const CRON_PATTERNS = ['0 9 * * 1-5', '*/7 * * * * *', '15 */3 * * *', '0 0 12 L * *', '0 30 6 * * sat,sun', '30 2 * * *', '0 8 * * 1#1', '0 */20 8-18 * * 1-5'];
export const CRON_ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Pacific/Auckland', 'Asia/Kolkata'];

/**
 * next and previous as the scheduler asks them, from 200 instants over a year (DST days included),
 * for 8 patterns in 5 zones. The walker this was measured against (schedule.ts before croner) is
 * gone; its figures are in docs/bespoke.md. The child still runs one side, so the bench keeps
 * reporting what a slot costs now.
 */
async function cronJob(j: Extract<Job, { kind: 'cron' }>): Promise<Sample> {
  const start = Date.UTC(2026, 0, 1);
  const instants = Array.from({ length: j.instants }, (_, i) => new Date(start + Math.floor((i * 365 * 86_400_000) / j.instants) + i * 7919));
  const schedules = CRON_PATTERNS.flatMap((p) => CRON_ZONES.map((z) => new CronSchedule(p, z)));
  let found = 0;
  const run = () => {
    for (const s of schedules) {
      for (const at of instants) {
        if (s.next(at)) found++;
        if (s.previous(at)) found++;
      }
    }
    return Promise.resolve();
  };
  const sample = await measure(schedules.length * instants.length * 2, run, run);
  return { ...sample, check: String(found) };
}

const run = { model: modelJob, bot: botJob, abort: abortJob, cron: cronJob } as const;
if (process.send) {
  const result = await (run[job.kind] as (j: Job) => Promise<Sample>)(job);
  process.send(result, () => process.exit(0));
}
