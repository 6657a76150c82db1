/**
 * Many instances on one PostgreSQL (ARCHITECTURE.md §9, issue 15), with the real `switchboard start`
 * (compiled, bin/switchboard.js) as separate processes:
 * - scale-out: messages/s through Slack HTTP with 3 instances ÷ 1 instance, same closed-loop load
 *   (USERS users, one message in flight each, spread over the instances; instant model);
 * - failover: SIGKILL the instance holding the Telegram long-polling door, with the default lease
 *   (gateway.lease_seconds 15): time until a message sent right after the kill is answered (p50);
 * - session_search p95 over 100,000 messages on PostgreSQL (the SQLite figure is bench/search.ts).
 *
 * Everything — PostgreSQL, the instances, the fakes and the load — shares this machine's cores, so
 * the scale-out ratio is bounded by them; read it with the core count next to it.
 *
 * Standalone: `node --import tsx bench/instances.ts` prints the result as JSON.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { BIN, COMPILED_BIN, cleanEnv, startCli, type Running } from '../test/helpers/cli.js';
import { eventBody, postSigned, startSlackFake, type SlackFake } from '../test/fakes/slack.js';
import { startTelegramFake, type TelegramFake } from '../test/fakes/telegram.js';
import { startInstantModel, type InstantModel } from './instant-model.js';
import { startBenchPostgres, type BenchPostgres } from './postgres-server.js';
import { benchSearchLatency } from './search.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { freePort } from '../test/helpers/ports.js';

export const USERS = 30;
export const MESSAGES = 900;
const FAILOVER_TRIALS = 3;
export const SECRET = 'bench-instances-secret';

export interface InstancesBench {
  cores: number;
  scaleOut: { users: number; messages: number; onePerSec: number; threePerSec: number; ratio: number; threeStickyPerSec: number; stickyRatio: number };
  failover: { leaseSeconds: number; trialsMs: number[]; p50Ms: number; doorTakenOverMs: number[] };
  search: { messages: number; p50Ms: number; p95Ms: number };
  bin: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bin = existsSync(new URL('../dist/cli.js', import.meta.url)) ? COMPILED_BIN : BIN;

export interface Started {
  id: string;
  gw: Running;
  home: string;
  events?: string;
}

export async function startInstance(id: string, vars: Record<string, string>, config: string): Promise<Started> {
  const home = mkdtempSync(join(tmpdir(), `sb-bench-${id}-`));
  const port = await freePort();
  const gw = startCli(['start'], {
    bin,
    env: cleanEnv({ SWITCHBOARD_HOME: home, SWITCHBOARD_CONFIG: config, SWITCHBOARD_INSTANCE_ID: id, LOG_LEVEL: 'warn', SLACK_PORT: String(port), ...vars }),
  });
  return { id, gw, home, events: `http://127.0.0.1:${port}/slack/events` };
}

export async function stopAll(instances: Started[]): Promise<void> {
  await Promise.all(instances.map((i) => (i.gw.child.exitCode === null && i.gw.child.signalCode === null ? i.gw.stop('SIGTERM') : undefined)));
  for (const i of instances) rmSync(i.home, { recursive: true, force: true });
}

export async function waitReady(instances: Started[]): Promise<void> {
  // LOG_LEVEL=warn hides the ready line: wait for the Slack port to answer instead.
  for (const i of instances) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (i.gw.child.exitCode !== null) throw new Error(`${i.id} exited: ${i.gw.stderr()}`);
      try {
        const res = await fetch(i.events!, { method: 'POST', body: '{}' });
        if (res.status) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${i.id} not ready: ${i.gw.stderr()}`);
      await sleep(100);
    }
  }
}

/** Answers per Slack channel as they arrive (one poll loop for every waiter). */
export function answerWatcher(slack: SlackFake): { next(channel: string): Promise<void>; stop(): void } {
  const waiters = new Map<string, Array<() => void>>();
  let seen = slack.messages.length;
  const timer = setInterval(() => {
    while (seen < slack.messages.length) {
      const m = slack.messages[seen++];
      waiters.get(m.channel)?.shift()?.();
    }
  }, 2);
  return {
    next: (channel) =>
      new Promise<void>((resolve) => {
        const list = waiters.get(channel) ?? [];
        list.push(resolve);
        waiters.set(channel, list);
      }),
    stop: () => clearInterval(timer),
  };
}

async function scaleRun(pgServer: BenchPostgres, slack: SlackFake, model: InstantModel, count: number, log: (l: string) => void, sticky = false): Promise<number> {
  const url = await pgServer.database(`bench_scale_${count}${sticky ? '_sticky' : ''}`);
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-scale-'));
  const config = join(dir, 'config.yaml');
  writeFileSync(config, '{}\n');
  const vars = {
    DATABASE_URL: url,
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'sk-bench',
    MODEL: 'bench-model',
    SLACK_BOT_TOKEN: slack.token,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    SLACK_ALLOWED_USERS: '*',
  };
  const instances: Started[] = [];
  try {
    // One at a time: the first migrates; the others find the schema.
    for (let i = 0; i < count; i++) {
      instances.push(await startInstance(`scale-${count}-${i}`, vars, config));
      await waitReady(instances.slice(-1));
    }
    const watcher = answerWatcher(slack);
    let ts = 0;
    let sent = 0;
    const perUser = Math.ceil(MESSAGES / USERS);
    const user = async (u: number) => {
      for (let k = 0; k < perUser && sent < MESSAGES; k++) {
        sent++;
        const channel = `DB${count}${sticky ? 'S' : ''}U${u}`;
        const answered = watcher.next(channel);
        // Rotating: each message of a session on the next instance (a lease hand-over every time); sticky: one instance per session.
        const target = instances[(sticky ? u : u + k) % instances.length];
        const body = eventBody({ type: 'message', channel_type: 'im', channel, user: `UB${u}`, text: `question ${k}`, ts: `17200${String(++ts).padStart(5, '0')}.000100` });
        await postSigned(target.events!, SECRET, body);
        await answered;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: USERS }, (_, u) => user(u)));
    const elapsed = performance.now() - t0;
    watcher.stop();
    const perSec = (MESSAGES / elapsed) * 1000;
    log(`instances: ${count} instance(s)${sticky ? ', sessions sticky' : ''}: ${Math.round(perSec)} messages/s`);
    return perSec;
  } finally {
    await stopAll(instances);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function failover(pgServer: BenchPostgres, tg: TelegramFake, model: InstantModel, log: (l: string) => void): Promise<InstancesBench['failover']> {
  const url = await pgServer.database('bench_failover');
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-failover-'));
  const config = join(dir, 'config.yaml');
  writeFileSync(config, '{}\n'); // default gateway.lease_seconds (15)
  const vars = { DATABASE_URL: url, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-bench', MODEL: 'bench-model', TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url, TELEGRAM_ALLOWED_USERS: '*' };
  const store = await openPostgresStore({ url, maxConnections: 2 });
  const instances: Started[] = [];
  const trialsMs: number[] = [];
  const doorTakenOverMs: number[] = [];
  const holder = async () => {
    const lease = await store.leases.get('door:telegram');
    return lease && lease.expiresAt > Date.now() ? lease.holder : null;
  };
  try {
    let n = 0;
    const add = async () => {
      const s = await startInstance(`failover-${n++}`, vars, config);
      instances.push(s);
      return s;
    };
    await add();
    await sleep(1500);
    await add();
    for (let trial = 0; trial < FAILOVER_TRIALS; trial++) {
      // The door is held and answering.
      let current: string | null = null;
      for (let i = 0; i < 300 && !(current = await holder()); i++) await sleep(100);
      const warm = 5000 + trial;
      tg.pushText({ text: `warm-up ${trial}`, userId: warm });
      for (let i = 0; i < 300 && !tg.sent.some((m) => m.chatId === String(warm)); i++) await sleep(50);
      const victim = instances.find((i) => i.id === current && i.gw.child.exitCode === null);
      if (!victim) throw new Error(`no live door holder (${current})`);
      victim.gw.child.kill('SIGKILL');
      const t0 = performance.now();
      const probe = 6000 + trial;
      tg.pushText({ text: `after the kill ${trial}`, userId: probe });
      let took = 0;
      while (!tg.sent.some((m) => m.chatId === String(probe))) {
        if (!took) {
          const h = await holder();
          if (h && h !== current) took = performance.now() - t0;
        }
        if (performance.now() - t0 > 90_000) throw new Error('no failover within 90 s');
        await sleep(50);
      }
      const ms = performance.now() - t0;
      trialsMs.push(Math.round(ms));
      doorTakenOverMs.push(Math.round(took || ms));
      log(`instances: failover ${trial + 1}/${FAILOVER_TRIALS}: door taken over after ${Math.round((took || ms) / 100) / 10} s, answered after ${Math.round(ms / 100) / 10} s`);
      await add(); // a new standby for the next trial
      await sleep(1500);
    }
  } finally {
    await store.close();
    await stopAll(instances);
    rmSync(dir, { recursive: true, force: true });
  }
  const sorted = [...trialsMs].sort((a, b) => a - b);
  return { leaseSeconds: 15, trialsMs, p50Ms: sorted[Math.floor(sorted.length / 2)], doorTakenOverMs };
}

export async function benchInstances(log: (line: string) => void = () => undefined): Promise<InstancesBench> {
  const { cpus } = await import('node:os');
  const pgServer = await startBenchPostgres();
  const slack = await startSlackFake({});
  const tg = await startTelegramFake({});
  const model = await startInstantModel();
  try {
    log('instances: scale-out through Slack HTTP, 1 then 3 instances…');
    const onePerSec = await scaleRun(pgServer, slack, model, 1, log);
    const threePerSec = await scaleRun(pgServer, slack, model, 3, log);
    const threeStickyPerSec = await scaleRun(pgServer, slack, model, 3, log, true);
    log('instances: failover of the Telegram door (default 15 s lease)…');
    const fo = await failover(pgServer, tg, model, log);
    log('instances: session_search over 100,000 messages on PostgreSQL…');
    const searchUrl = await pgServer.database('bench_search');
    const s = await benchSearchLatency(() => openPostgresStore({ url: searchUrl, maxConnections: 4 }));
    const r2 = (v: number) => Math.round(v * 100) / 100;
    return {
      cores: cpus().length,
      scaleOut: { users: USERS, messages: MESSAGES, onePerSec: Math.round(onePerSec), threePerSec: Math.round(threePerSec), ratio: r2(threePerSec / onePerSec), threeStickyPerSec: Math.round(threeStickyPerSec), stickyRatio: r2(threeStickyPerSec / onePerSec) },
      failover: fo,
      search: { messages: s.messages, p50Ms: s.p50Ms, p95Ms: s.p95Ms },
      bin: bin === COMPILED_BIN ? 'bin/switchboard.js (dist/)' : 'bin/switchboard-dev.js (tsx)',
    };
  } finally {
    await Promise.allSettled([slack.close(), tg.close(), model.close()]);
    await pgServer.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const result = await benchInstances((l) => process.stderr.write(`${l}\n`));
  process.stdout.write(`${JSON.stringify({ ...result, totalMs: Math.round(performance.now() - started) }, null, 2)}\n`);
}
