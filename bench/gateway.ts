/**
 * Gateway benchmark (issue 10), against loopback fakes hosted — together with the simulated users —
 * in a child process (fakes-host.ts), so the process measured runs only the bot, as in production:
 * - throughput end to end through the Telegram adapter (fake Bot API, fake model answering at once)
 *   versus a bare grammY echo bot polling the same fake server, with the same closed-loop load, and
 *   versus the floor of any gateway with a model: a bare grammY bot that makes the same model call and
 *   replies with its answer, storing nothing;
 * - the gateway's own time per message (update pushed at the fake → answer accepted by the fake,
 *   minus the time spent in model calls), p50/p99, one message at a time;
 * - concurrency: 1,000 sessions sending 3 messages each at once; order kept within every session;
 * - prefix reuse over a 20-turn conversation, from the model fake's recorded request bodies.
 *
 * Standalone: `node --import tsx bench/gateway.ts` prints the result as JSON.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Bot } from 'grammy';
import type { BurstResult, HostCommand, HostReady, PrefixRun } from './fakes-host.js';
import { tmpdir } from 'node:os';
import { startPipeline, type Endpoints } from './pipeline.js';
import { loadSettings } from '../src/core/settings.js';
import { silentLogger } from '../src/core/logger.js';
import { createProvider } from '../src/core/providers/index.js';
import type { PromptLayer } from '../src/core/providers/provider.js';
import { percentile, round } from './util.js';

export interface ThroughputResult {
  /** Messages answered per second by Switchboard (best of the rounds). */
  switchboardPerSec: number;
  /** Messages answered per second by the bare grammY echo bot (best of the rounds). */
  echoPerSec: number;
  /** switchboardPerSec / echoPerSec (goal ≥ 0.5). */
  ratio: number;
  /**
   * Messages answered per second by the floor of any gateway with a model: a bare grammY bot that makes
   * the same streamed model call (Switchboard's provider, a system prompt and the user's text; no
   * history, no storage, no sessions) and replies with the answer (best of the rounds).
   */
  modelBotPerSec: number;
  /** modelBotPerSec / echoPerSec: what the model call alone leaves of the echo bot's rate. */
  modelBotRatio: number;
  /** switchboardPerSec / modelBotPerSec: what journal, sessions, history, prompt, rendering and outbox cost on top. */
  ofModelBot: number;
  messages: number;
  /** Users in the closed loop (messages in flight). */
  users: number;
  rounds: number;
}

export interface OverheadResult {
  /** Gateway time per message, ms: p50 and p99. */
  p50Ms: number;
  p99Ms: number;
  /** Whole round trip (pushed → delivered), ms, p50. */
  endToEndP50Ms: number;
  /** Model call time per message (the fake answering at once), ms, p50. */
  modelP50Ms: number;
  messages: number;
}

export interface ConcurrencyResult {
  sessions: number;
  messagesPerSession: number;
  messages: number;
  /** Inbound messages answered per second. */
  perSec: number;
  elapsedMs: number;
  /** Answers sent (messages that waited behind a running turn are answered together). */
  answers: number;
  /** Sessions whose answers covered every message exactly once, in the order sent. */
  sessionsInOrder: number;
  orderKept: boolean;
}

export interface PrefixResult {
  turns: number;
  /** Mean over turns 2..N of: bytes shared with the previous request ÷ bytes of the previous request plus its answer. */
  meanRatio: number;
  minRatio: number;
  /** Share of input tokens the fake served from its simulated prefix cache over the conversation. */
  cachedShare: number;
}

export interface GatewayBench {
  throughput: ThroughputResult;
  overhead: OverheadResult;
  concurrency: ConcurrencyResult;
  prefix: PrefixResult;
}

const THROUGHPUT_USERS = 50;
const THROUGHPUT_MESSAGES = 2000;
const ROUNDS = 2;
const OVERHEAD_MESSAGES = 300;
const SESSIONS = 1000;
const PER_SESSION = 3;
const TURNS = 20;

/** The fakes and the simulated users, in their own process. */
export interface Host {
  endpoints: Endpoints & { recordingModelUrl: string };
  run<T>(command: HostCommand): Promise<T>;
  close(): Promise<void>;
}

export async function startHost(): Promise<Host> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./fakes-host.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const endpoints = await new Promise<Host['endpoints']>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench fakes host exited (${code})`)));
    child.on('message', (m: HostReady | { id: number; result?: unknown; error?: string }) => {
      if ('ready' in m) return resolve({ telegram: m.telegram, modelUrl: m.modelUrl, recordingModelUrl: m.recordingModelUrl });
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve(m.result);
    });
  });
  return {
    endpoints,
    run<T>(command: HostCommand): Promise<T> {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, ...command });
      });
    },
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ id: 0, cmd: 'close' });
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** A bare grammY bot answering each message with `answer`, polling the same fake, under the closed-loop load. */
async function bareBotRound(host: Host, firstUser: number, total: number, answer: (text: string) => Promise<string>): Promise<number> {
  const { url, token } = host.endpoints.telegram;
  const bot = new Bot(token, { client: { apiRoot: url } });
  bot.on('message', async (ctx) => void (await ctx.reply(await answer(ctx.message.text ?? '(no text)'))));
  bot.catch(() => undefined);
  await new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
  try {
    const ms = await host.run<number>({ cmd: 'closedLoop', users: THROUGHPUT_USERS, total, firstUser });
    return total / (ms / 1000);
  } finally {
    await bot.stop();
  }
}

const echoRound = (host: Host, firstUser: number, total: number) => bareBotRound(host, firstUser, total, async (text) => text);

/** A system prompt the size of a Switchboard session's (about 2,700 characters). */
const FLOOR_PROMPT = Object.freeze([
  Object.freeze({ name: 'identity', text: 'You are a helpful assistant talking to people in a chat. Answer briefly and plainly. '.repeat(32) }),
]);

/** The model-call floor: grammY, the same provider and instant model, a reply; nothing stored. */
function modelBotRound(host: Host, firstUser: number, total: number): Promise<number> {
  const settings = loadSettings({ SWITCHBOARD_HOME: tmpdir(), OPENAI_BASE_URL: host.endpoints.modelUrl, OPENAI_API_KEY: 'sk-bench', MODEL: 'fake-model' });
  const provider = createProvider(settings, silentLogger);
  return bareBotRound(host, firstUser, total, async (text) => {
    const response = await provider.complete({
      model: settings.model.name,
      system: FLOOR_PROMPT as PromptLayer[],
      messages: [{ role: 'user', content: text }],
      tools: [],
      maxOutputTokens: settings.config.model.max_output_tokens,
      onText: () => undefined,
    });
    return response.text;
  });
}

async function switchboardRound(host: Host, firstUser: number, total: number): Promise<number> {
  const p = await startPipeline(host.endpoints);
  try {
    const ms = await host.run<number>({ cmd: 'closedLoop', users: THROUGHPUT_USERS, total, firstUser });
    return total / (ms / 1000);
  } finally {
    await p.stop();
  }
}

async function throughput(host: Host): Promise<ThroughputResult> {
  // Warm-up for both (JIT, sockets, SQLite), not measured.
  await echoRound(host, 10_000, 200);
  await modelBotRound(host, 15_000, 200);
  await switchboardRound(host, 20_000, 200);
  let echo = 0;
  let floor = 0;
  let sb = 0;
  for (let r = 0; r < ROUNDS; r++) {
    echo = Math.max(echo, await echoRound(host, 30_000 + r * 1000, THROUGHPUT_MESSAGES));
    floor = Math.max(floor, await modelBotRound(host, 35_000 + r * 1000, THROUGHPUT_MESSAGES));
    sb = Math.max(sb, await switchboardRound(host, 40_000 + r * 1000, THROUGHPUT_MESSAGES));
  }
  return {
    switchboardPerSec: round(sb, 0),
    echoPerSec: round(echo, 0),
    ratio: round(sb / echo, 2),
    modelBotPerSec: round(floor, 0),
    modelBotRatio: round(floor / echo, 2),
    ofModelBot: round(sb / floor, 2),
    messages: THROUGHPUT_MESSAGES,
    users: THROUGHPUT_USERS,
    rounds: ROUNDS,
  };
}

async function overhead(host: Host): Promise<OverheadResult> {
  const p = await startPipeline(host.endpoints);
  try {
    const warm = 20;
    const trips = await host.run<number[]>({ cmd: 'sequential', messages: warm + OVERHEAD_MESSAGES, userId: 60_001 });
    const modelMs = p.provider.durations;
    if (modelMs.length !== trips.length) throw new Error(`bench: ${trips.length} messages but ${modelMs.length} model calls`);
    const total = trips.slice(warm);
    const model = modelMs.slice(warm);
    const gateway = total.map((t, i) => t - model[i]);
    return {
      p50Ms: round(percentile(gateway, 50)),
      p99Ms: round(percentile(gateway, 99)),
      endToEndP50Ms: round(percentile(total, 50)),
      modelP50Ms: round(percentile(model, 50)),
      messages: OVERHEAD_MESSAGES,
    };
  } finally {
    await p.stop();
  }
}

async function concurrency(host: Host): Promise<ConcurrencyResult> {
  const p = await startPipeline(host.endpoints);
  try {
    const r = await host.run<BurstResult>({ cmd: 'burst', sessions: SESSIONS, perSession: PER_SESSION, firstUser: 500_000 });
    return {
      sessions: SESSIONS,
      messagesPerSession: PER_SESSION,
      messages: r.messages,
      perSec: round(r.messages / (r.elapsedMs / 1000), 0),
      elapsedMs: round(r.elapsedMs, 0),
      answers: r.answers,
      sessionsInOrder: r.sessionsInOrder,
      orderKept: r.sessionsInOrder === SESSIONS,
    };
  } finally {
    await p.stop();
  }
}

async function prefix(host: Host): Promise<PrefixResult> {
  const p = await startPipeline({ ...host.endpoints, modelUrl: host.endpoints.recordingModelUrl });
  try {
    const run = await host.run<PrefixRun>({ cmd: 'prefix', turns: TURNS, userId: 70_001 });
    let input = 0;
    let cached = 0;
    for (const s of await p.app.store.sessions.list({ limit: 1_000_000 })) {
      input += s.usage.inputTokens;
      cached += s.usage.cachedTokens;
    }
    return {
      turns: run.turns,
      meanRatio: round(run.ratios.reduce((a, b) => a + b, 0) / run.ratios.length, 4),
      minRatio: round(Math.min(...run.ratios), 4),
      cachedShare: input ? round(cached / input, 3) : 0,
    };
  } finally {
    await p.stop();
  }
}

export async function benchGateway(log: (line: string) => void = () => undefined): Promise<GatewayBench> {
  const host = await startHost();
  try {
    log('gateway: throughput vs. grammY echo bot…');
    const t = await throughput(host);
    log('gateway: overhead per message…');
    const o = await overhead(host);
    log('gateway: 1,000 sessions at once…');
    const c = await concurrency(host);
    log('gateway: prefix reuse over 20 turns…');
    const pr = await prefix(host);
    return { throughput: t, overhead: o, concurrency: c, prefix: pr };
  } finally {
    await host.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchGateway((l) => process.stderr.write(`${l}\n`));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
