/**
 * Bespoke code against the library it stands in for (issue #37, item 9), at a realistic model pace
 * — 300 ms to the first token, then 50 tokens/s (bench/paced-model.ts) — and at the instant model the
 * bespoke pieces were first measured against:
 *   (a) the OpenAI client (openai-http.ts + openai-body.ts) / the official SDK / global fetch + eventsource-parser;
 *   (b) the fetch grammY is given (http-fetch.ts + node-response.ts) / global fetch, on a Bot API call;
 *   (c) /stop controllers from a pool of spares (session-queue.ts) / a new AbortController a turn;
 *   (d) next and previous cron slots in a zone, now croner's (the slot walker over node-cron's matcher
 *       that it replaced was measured beside it: docs/bespoke.md).
 * Each side of each comparison runs in a fresh process (bench/bespoke-child.ts); the sides alternate,
 * round after round, and each figure is the median of the rounds. The gateway's own CPU per message
 * (the whole pipeline at the instant model) is the yardstick for the issue's 10 % rule.
 *
 * `node --import tsx bench/bespoke.ts` runs it alone and prints JSON; `npm run bench` includes it.
 * BENCH_BESPOKE_ROUNDS (default 3) sets the rounds.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Job, Sample } from './bespoke-child.js';
import { startHost } from './gateway.js';
import { startPipeline } from './pipeline.js';
import { round } from './util.js';

export const PACE = { ttftMs: 300, tokensPerSecond: 50, tokens: 50 };
/** A Bot API call's round trip at "realistic": Telegram answers in tens to a few hundred ms. */
export const BOT_API_MS = 100;
const REQUESTS = 200;
const CONCURRENCY = 20;

export interface SideFigures {
  /** Median over the rounds: CPU per call (a cron figure: per next or previous computed), µs. */
  cpuUs: number;
  rssMiB: number;
  rssGrowthMiB: number;
  oldSpaceMiB: number;
  /** CPU per call of each round, µs. */
  rounds: number[];
  check?: string;
}

export interface Comparison {
  piece: 'openai-client' | 'fetch' | 'abort-controller' | 'cron';
  pace: 'realistic' | 'instant';
  /** What one unit is (a streamed model call, a Bot API call, a turn, a slot computed). */
  unit: string;
  sides: Record<string, SideFigures>;
}

export interface BespokeBench {
  rounds: number;
  requests: number;
  concurrency: number;
  pace: typeof PACE;
  botApiMs: number;
  /** The whole gateway (Telegram in, model, Telegram out) at the instant model: CPU per message, µs. */
  gatewayCpuUsPerMessage: number;
  comparisons: Comparison[];
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

function child<T>(file: string, args: string[]): Promise<{ value: T; kill: () => void }> {
  const proc = fork(here(file), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`${file} exited (${code}) before answering`)));
    proc.once('message', (value) => resolve({ value: value as T, kill: () => proc.kill() }));
  });
}

const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

async function compare(piece: Comparison['piece'], pace: Comparison['pace'], unit: string, jobs: Record<string, Job>, rounds: number, log: (l: string) => void): Promise<Comparison> {
  const names = Object.keys(jobs);
  const samples: Record<string, Sample[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    // Interleaved, the order turned each round: a load spike on the shared machine lands on every side.
    const order = r % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const { value, kill } = await child<Sample>('./bespoke-child.ts', [JSON.stringify(jobs[name])]);
      kill();
      samples[name].push(value);
    }
    log(`bespoke: ${piece} (${pace}) round ${r + 1}: ${names.map((n) => `${n} ${round(samples[n][r].cpuUs, 1)} µs`).join(', ')}`);
  }
  const sides: Record<string, SideFigures> = {};
  for (const name of names) {
    const s = samples[name];
    sides[name] = {
      cpuUs: round(median(s.map((x) => x.cpuUs)), 2),
      rssMiB: round(median(s.map((x) => x.rssMiB)), 1),
      rssGrowthMiB: round(median(s.map((x) => x.rssGrowthMiB)), 1),
      oldSpaceMiB: round(median(s.map((x) => x.oldSpaceMiB)), 1),
      rounds: s.map((x) => round(x.cpuUs, 1)),
      ...(s[0].check !== undefined ? { check: s[0].check } : {}),
    };
  }
  return { piece, pace, unit, sides };
}

/** The whole pipeline's CPU per message at the instant model: the fakes and users in their own process. */
async function gatewayCpu(): Promise<number> {
  const host = await startHost();
  try {
    const warm = await startPipeline(host.endpoints);
    await host.run<number>({ cmd: 'closedLoop', users: 20, total: 500, firstUser: 1 });
    await warm.stop();
    const p = await startPipeline(host.endpoints);
    const messages = 2000;
    const c0 = process.cpuUsage();
    await host.run<number>({ cmd: 'closedLoop', users: 20, total: messages, firstUser: 10_000 });
    const c = process.cpuUsage(c0);
    await p.stop();
    return round((c.user + c.system) / messages, 1);
  } finally {
    await host.close();
  }
}

export async function benchBespoke(log: (line: string) => void = () => undefined): Promise<BespokeBench> {
  const rounds = Number(process.env.BENCH_BESPOKE_ROUNDS ?? 3);
  const server = await child<{ url: string }>('./paced-model.ts', []);
  const base = server.value.url;
  const comparisons: Comparison[] = [];
  try {
    log('bespoke: the gateway\'s CPU per message (instant model), the yardstick…');
    const gatewayCpuUsPerMessage = await gatewayCpu();
    for (const pace of ['realistic', 'instant'] as const) {
      const m = pace === 'realistic' ? PACE : { ...PACE, ttftMs: 0, tokensPerSecond: 0 };
      const baseURL = `${base}/m/${m.ttftMs}/${m.tokensPerSecond}/${m.tokens}/v1`;
      const model = (side: 'bespoke' | 'sdk' | 'fetch'): Job => ({ kind: 'model', side, baseURL, requests: REQUESTS, concurrency: CONCURRENCY, warm: pace === 'realistic' ? 100 : REQUESTS });
      comparisons.push(await compare('openai-client', pace, `streamed chat completion (${m.tokens} tokens)`, { bespoke: model('bespoke'), sdk: model('sdk'), fetch: model('fetch') }, rounds, log));
      const url = `${base}/t/${pace === 'realistic' ? BOT_API_MS : 0}/bot123:bench`;
      const bot = (side: 'http-fetch' | 'fetch'): Job => ({ kind: 'bot', side, url, requests: REQUESTS, concurrency: CONCURRENCY, warm: REQUESTS });
      comparisons.push(await compare('fetch', pace, 'Bot API call (sendMessage)', { 'http-fetch': bot('http-fetch'), fetch: bot('fetch') }, rounds, log));
      // Realistic: 2,000 turns of a model call's length, 200 at a time (a busy gateway, ~150 turns/s),
      // enough turns for their garbage to show in old space; instant: 100,000 back to back.
      const holdMs = pace === 'realistic' ? PACE.ttftMs + (1000 * PACE.tokens) / PACE.tokensPerSecond : 0;
      const abort = (side: 'recycle' | 'new'): Job =>
        pace === 'realistic' ? { kind: 'abort', side, holdMs, turns: 2000, concurrency: 200, warm: 200 } : { kind: 'abort', side, holdMs, turns: 100_000, concurrency: CONCURRENCY, warm: 20_000 };
      comparisons.push(await compare('abort-controller', pace, 'turn', { recycle: abort('recycle'), new: abort('new') }, rounds, log));
    }
    // The walker croner replaced is gone (docs/bespoke.md has its figures): croner alone, what a slot costs now.
    comparisons.push(await compare('cron', 'instant', 'slot computed (next or previous)', { croner: { kind: 'cron', side: 'croner', instants: 200 } }, rounds, log));
    return { rounds, requests: REQUESTS, concurrency: CONCURRENCY, pace: PACE, botApiMs: BOT_API_MS, gatewayCpuUsPerMessage, comparisons };
  } finally {
    server.kill();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchBespoke((l) => process.stderr.write(`${l}\n`));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
