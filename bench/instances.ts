/**
 * Many instances on one PostgreSQL (ARCHITECTURE.md §9, issue 15), with the real `switchboard start`
 * (compiled, bin/switchboard.js) as separate processes:
 * - scale-out: messages/s through Slack HTTP with 3 instances ÷ 1 instance, same closed-loop load
 *   (USERS users, one message in flight each, spread over the instances; instant model);
 * - failover: SIGKILL the instance holding the Telegram long-polling door, with the default lease
 *   (gateway.lease_seconds 15): time until a message sent right after the kill is answered (p50);
 * - hand-over: SIGTERM of the instance holding the Telegram door (lease HANDOVER_LEASE_S): time until the
 *   standby holds the door and polls, against one heartbeat (a third of the lease);
 * - rolling restart: two instances on Slack HTTP under steady traffic, SIGTERM one, start it again, then
 *   the other: messages lost and doubled, and whether each conversation was answered in order;
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
import type { Lease } from '../src/core/store/types.js';
import { freePort } from '../test/helpers/ports.js';

export const USERS = 30;
export const MESSAGES = 900;
const FAILOVER_TRIALS = 3;
/** The hand-over run's lease (seconds): the heartbeat is a third of it. */
const HANDOVER_LEASE_S = 6;
const HANDOVER_TRIALS = 3;
/** The rolling restart's steady load: ROLLING_USERS conversations, one message each per ROLLING_GAP_MS. */
const ROLLING_USERS = 6;
const ROLLING_GAP_MS = 250;
export const SECRET = 'bench-instances-secret';

export interface InstancesBench {
  cores: number;
  scaleOut: { users: number; messages: number; onePerSec: number; threePerSec: number; ratio: number; threeStickyPerSec: number; stickyRatio: number };
  failover: { leaseSeconds: number; trialsMs: number[]; p50Ms: number; doorTakenOverMs: number[] };
  search: { messages: number; p50Ms: number; p95Ms: number };
  /** SIGTERM of the Telegram door holder → the standby holds the door and polls (ms per trial). */
  handover?: { leaseSeconds: number; heartbeatMs: number; trialsMs: number[]; maxMs: number; polledMs: number[] };
  /** Two instances restarted one after the other under steady Slack traffic. */
  rolling?: { instances: number; users: number; sent: number; answered: number; lost: number; doubled: number; outOfOrder: number; seconds: number };
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

/**
 * Two instances on one PostgreSQL database behind the Telegram fake (failover and hand-over below):
 * `lease()` reads the door's live lease and `holder()` its holder, `add()` starts one more standby, `warmUp` sends a message and
 * waits for its answer, `waitHolder()` the instance holding the door (polling until there is one).
 */
interface TelegramDoorPair {
  instances: Started[];
  lease(): Promise<Lease | null>;
  holder(): Promise<string | null>;
  waitHolder(): Promise<string | null>;
  add(): Promise<Started>;
  warmUp(userId: number, text: string): Promise<void>;
  close(): Promise<void>;
}

async function telegramDoorPair(pgServer: BenchPostgres, tg: TelegramFake, model: InstantModel, name: string, configYaml: string): Promise<TelegramDoorPair> {
  const url = await pgServer.database(`bench_${name}`);
  const dir = mkdtempSync(join(tmpdir(), `sb-bench-${name}-`));
  const config = join(dir, 'config.yaml');
  writeFileSync(config, configYaml);
  const vars = { DATABASE_URL: url, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-bench', MODEL: 'bench-model', TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url, TELEGRAM_ALLOWED_USERS: '*' };
  const store = await openPostgresStore({ url, maxConnections: 2 });
  const instances: Started[] = [];
  let n = 0;
  const lease = async () => {
    const live = await store.leases.get('door:telegram');
    return live && live.expiresAt > Date.now() ? live : null;
  };
  const holder = async () => (await lease())?.holder ?? null;
  const pair: TelegramDoorPair = {
    instances,
    lease,
    holder,
    async waitHolder() {
      let current: string | null = null;
      for (let i = 0; i < 300 && !(current = await holder()); i++) await sleep(100);
      return current;
    },
    async add() {
      const s = await startInstance(`${name}-${n++}`, vars, config);
      instances.push(s);
      return s;
    },
    async warmUp(userId, text) {
      tg.pushText({ text, userId });
      for (let i = 0; i < 300 && !tg.sent.some((m) => m.chatId === String(userId)); i++) await sleep(50);
    },
    async close() {
      await store.close();
      await stopAll(instances);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await pair.add();
    await sleep(1500);
    await pair.add();
  } catch (error) {
    await pair.close();
    throw error;
  }
  return pair;
}

async function failover(pgServer: BenchPostgres, tg: TelegramFake, model: InstantModel, log: (l: string) => void): Promise<InstancesBench['failover']> {
  const pair = await telegramDoorPair(pgServer, tg, model, 'failover', '{}\n'); // default gateway.lease_seconds (15)
  const { instances, holder, add } = pair;
  const trialsMs: number[] = [];
  const doorTakenOverMs: number[] = [];
  try {
    for (let trial = 0; trial < FAILOVER_TRIALS; trial++) {
      // The door is held and answering.
      const current = await pair.waitHolder();
      await pair.warmUp(5000 + trial, `warm-up ${trial}`);
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
    await pair.close();
  }
  const sorted = [...trialsMs].sort((a, b) => a - b);
  return { leaseSeconds: 15, trialsMs, p50Ms: sorted[Math.floor(sorted.length / 2)], doorTakenOverMs };
}

/**
 * SIGTERM of the instance holding the Telegram door: how long until the standby holds the door and
 * polls. The stopping instance gives the lease up at once (ARCHITECTURE.md §18); the standby tries at
 * its next heartbeat (a third of the lease), so the goal is one heartbeat.
 */
export async function sigtermHandover(pgServer: BenchPostgres, tg: TelegramFake, model: InstantModel, log: (l: string) => void): Promise<NonNullable<InstancesBench['handover']>> {
  const pair = await telegramDoorPair(pgServer, tg, model, 'handover', `gateway:\n  lease_seconds: ${HANDOVER_LEASE_S}\n`);
  const { instances, add } = pair;
  const trialsMs: number[] = [];
  const polledMs: number[] = [];
  try {
    for (let trial = 0; trial < HANDOVER_TRIALS; trial++) {
      const current = await pair.waitHolder();
      await pair.warmUp(7000 + trial, `warm-up ${trial}`);
      // The standby has seen the holder renew at least once: it waits for its next heartbeat.
      await sleep(HANDOVER_LEASE_S * 1000 / 3 + 200);
      const victim = instances.find((i) => i.id === current && i.gw.child.exitCode === null);
      if (!victim) throw new Error(`no live door holder (${current})`);
      const wall0 = Date.now();
      const exited = victim.gw.stop('SIGTERM');
      // The lease row keeps when its holder took it (`acquiredAt`, the taker's clock; one machine here).
      let taken: Lease | null = null;
      for (;;) {
        const l = await pair.lease();
        if (l && l.holder !== current) {
          taken = l;
          break;
        }
        if (Date.now() - wall0 > 60_000) throw new Error('no hand-over within 60 s');
        await sleep(20);
      }
      const took = Math.max(0, taken.acquiredAt - wall0);
      // The new holder's first getUpdates: the first one at or after it took the door. The stopping instance
      // makes its last poll before it gives the door up, so every poll from then on is the new holder's —
      // including one made before this loop read the lease (a search from the moment it was read would miss
      // that poll and find the next one, a long-poll hold later).
      let polled = 0;
      for (let i = 0; i < 500 && !polled; i++) {
        const first = tg.requests.find((r) => r.method === 'getUpdates' && r.at >= taken.acquiredAt);
        if (first) polled = first.at - wall0;
        else await sleep(10);
      }
      if (await exited !== 0) throw new Error(`${victim.id} did not exit 0 on SIGTERM: ${victim.gw.stderr().slice(-500)}`);
      trialsMs.push(Math.round(took));
      polledMs.push(Math.round(polled || took));
      log(`instances: hand-over ${trial + 1}/${HANDOVER_TRIALS}: SIGTERM → standby holds the door after ${Math.round(took)} ms, polls after ${Math.round(polled || took)} ms (lease ${HANDOVER_LEASE_S} s)`);
      await add(); // a new standby for the next trial
      await sleep(1500);
    }
  } finally {
    await pair.close();
  }
  return { leaseSeconds: HANDOVER_LEASE_S, heartbeatMs: Math.round((HANDOVER_LEASE_S * 1000) / 3), trialsMs, maxMs: Math.max(...polledMs), polledMs };
}

/**
 * A rolling restart under steady traffic: two instances behind one Slack app (each event goes to one of
 * them, once its /readyz says 200; one that cannot be reached gets the event again at the other, with the
 * same event_id, as Slack retries); SIGTERM the first, start it again, then the same with the second. Every conversation sends
 * one message per ROLLING_GAP_MS throughout. Counted afterwards: messages never answered, answered more
 * than once, and answers out of the order they were sent in.
 */
export async function rollingRestart(pgServer: BenchPostgres, slack: SlackFake, model: InstantModel, log: (l: string) => void): Promise<NonNullable<InstancesBench['rolling']>> {
  const url = await pgServer.database('bench_rolling');
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-rolling-'));
  const config = join(dir, 'config.yaml');
  writeFileSync(config, 'streaming:\n  slack: off\n');
  const vars = { DATABASE_URL: url, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-bench', MODEL: 'bench-model', SLACK_BOT_TOKEN: slack.token, SLACK_SIGNING_SECRET: SECRET, SLACK_API_URL: slack.apiUrl, SLACK_ALLOWED_USERS: '*' };
  const live: Array<Started | null> = [null, null];
  const all: Started[] = [];
  let n = 0;
  // As a load balancer in front of a rolling restart would: an instance gets traffic once /readyz says 200.
  const start = async (slot: number) => {
    const healthPort = await freePort();
    const s = await startInstance(`rolling-${slot}-${n++}`, { ...vars, SWITCHBOARD_HEALTH_PORT: String(healthPort) }, config);
    all.push(s);
    await waitReady([s]);
    for (let i = 0; ; i++) {
      const ok = await fetch(`http://127.0.0.1:${healthPort}/readyz`).then((r) => r.status === 200, () => false);
      if (ok) break;
      if (i > 600) throw new Error(`${s.id} not ready within 30 s`);
      await sleep(50);
    }
    live[slot] = s;
  };
  const sentBy = new Map<string, string[]>();
  let ts = 0;
  let sending = true;
  const t0 = performance.now();
  try {
    await start(0);
    await start(1);
    const post = async (body: string, first: number): Promise<void> => {
      // Slack retries an event that was not acknowledged; here at the other instance, at once.
      for (let attempt = 0; attempt < 40; attempt++) {
        const target = live[(first + attempt) % live.length];
        if (target) {
          try {
            const res = await postSigned(target.events!, SECRET, body);
            if (res.status === 200) return;
          } catch {
            // stopped or not listening yet
          }
        }
        await sleep(50);
      }
      throw new Error('an event no instance acknowledged for 2 s');
    };
    const user = async (u: number) => {
      const channel = `DROLL${u}`;
      const sent: string[] = [];
      sentBy.set(channel, sent);
      for (let k = 0; sending; k++) {
        const token = `r${u}k${k}`;
        sent.push(token);
        const body = eventBody({ type: 'message', channel_type: 'im', channel, user: `UROLL${u}`, text: `rolling ${token}`, ts: `17300${String(++ts).padStart(5, '0')}.000100` });
        await post(body, (u + k) % 2);
        await sleep(ROLLING_GAP_MS);
      }
    };
    const load = Promise.all(Array.from({ length: ROLLING_USERS }, (_, u) => user(u)));
    await sleep(2000);
    for (const slot of [0, 1]) {
      const old = live[slot]!;
      live[slot] = null; // the balancer stops sending to it as it stops
      const code = await old.gw.stop('SIGTERM');
      if (code !== 0) throw new Error(`${old.id} exited ${code} on SIGTERM: ${old.gw.stderr().slice(-500)}`);
      log(`instances: rolling restart: ${old.id} stopped (exit 0); starting it again…`);
      await start(slot);
      await sleep(2000);
    }
    sending = false;
    await load;
    // Whatever is still being answered arrives now.
    const tokens = () => slack.messages.filter((m) => m.channel.startsWith('DROLL')).flatMap((m) => [...(m.text ?? '').matchAll(/r\d+k\d+/g)].map((x) => x[0]));
    const expected = [...sentBy.values()].reduce((a, l) => a + l.length, 0);
    for (let i = 0; i < 200 && new Set(tokens()).size < expected; i++) await sleep(50);
    await sleep(1000);
    const counts = new Map<string, number>();
    for (const t of tokens()) counts.set(t, (counts.get(t) ?? 0) + 1);
    let lost = 0;
    let outOfOrder = 0;
    for (const [channel, sent] of sentBy) {
      lost += sent.filter((t) => !counts.has(t)).length;
      const answeredOrder = [...new Set(slack.messages.filter((m) => m.channel === channel).flatMap((m) => [...(m.text ?? '').matchAll(/r\d+k\d+/g)].map((x) => x[0])))];
      const sentOrder = sent.filter((t) => counts.has(t));
      const misplaced = answeredOrder.filter((t, i) => t !== sentOrder[i]);
      outOfOrder += misplaced.length;
      if (misplaced.length) log(`instances: rolling restart: ${channel} answered ${answeredOrder.join(' ')}`);
    }
    const doubled = [...counts.values()].filter((c) => c > 1).length;
    const seconds = Math.round((performance.now() - t0) / 100) / 10;
    log(`instances: rolling restart: ${expected} messages sent, ${counts.size} answered, ${lost} lost, ${doubled} doubled, ${outOfOrder} out of order (${seconds} s)`);
    return { instances: 2, users: ROLLING_USERS, sent: expected, answered: counts.size, lost, doubled, outOfOrder, seconds };
  } finally {
    sending = false;
    await stopAll(all);
    rmSync(dir, { recursive: true, force: true });
  }
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
    log('instances: SIGTERM hand-over of the Telegram door…');
    const handover = await sigtermHandover(pgServer, tg, model, log);
    log('instances: rolling restart of two instances under steady Slack traffic…');
    const rolling = await rollingRestart(pgServer, slack, model, log);
    log('instances: session_search over 100,000 messages on PostgreSQL…');
    const searchUrl = await pgServer.database('bench_search');
    const s = await benchSearchLatency(() => openPostgresStore({ url: searchUrl, maxConnections: 4 }));
    const r2 = (v: number) => Math.round(v * 100) / 100;
    return {
      cores: cpus().length,
      scaleOut: { users: USERS, messages: MESSAGES, onePerSec: Math.round(onePerSec), threePerSec: Math.round(threePerSec), ratio: r2(threePerSec / onePerSec), threeStickyPerSec: Math.round(threeStickyPerSec), stickyRatio: r2(threeStickyPerSec / onePerSec) },
      failover: fo,
      search: { messages: s.messages, p50Ms: s.p50Ms, p95Ms: s.p95Ms },
      handover,
      rolling,
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
