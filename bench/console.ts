/**
 * The web console (ARCHITECTURE.md §12): how fast its pages answer on a big store, and what it adds to the
 * memory of `switchboard start`.
 *
 * 1. Pages: a SQLite store seeded directly with 1,000 sessions and 100,000 messages over the last
 *    7 days; the console app served on a loopback port; every page and API answer requested
 *    `REQUESTS` times over HTTP (keep-alive), p50 and p95 per path (goal: p95 < 100 ms).
 * 2. Memory: the compiled `switchboard start` on that store (no platform credentials: the terminal
 *    channel on stdin and the e-mail door, an instant model fake), with the console off (port 0) and
 *    on. Both first answer `WARM_MESSAGES` lines through the model, so both have paid for what a
 *    working gateway always loads (the HTTP client of the model SDK); then, with the console on,
 *    every page is requested `PAGE_ROUNDS` times. Resident memory at ready and at the end; the
 *    console's cost is the difference of the ends (medians of `RUNS`). V8 sizes its young generation
 *    by the allocation rate, which makes that difference swing by ±10 MiB from run to run; the same
 *    pair with `--max-semi-space-size=1` (young generation capped in both) shows what the console
 *    itself keeps.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getRequestListener } from '@hono/node-server';
import { openSqliteStore, sqlitePath } from '../src/store/sqlite/index.js';
import { createConsoleApp } from '../src/console/app.js';
import type { Store } from '../src/core/store/types.js';
import { cleanEnv, COMPILED_BIN, startCli } from '../test/helpers/cli.js';
import { percentile, round, rssMiB, sleep } from './util.js';
import { startInstantModel } from './instant-model.js';
import { freePort } from '../test/helpers/ports.js';

const SESSIONS = 1_000;
const MESSAGES_PER_SESSION = 100;
const REQUESTS = 60;
const RUNS = 5;
const WARM_MESSAGES = 30;
const PAGE_ROUNDS = 20;
const DAY = 86_400_000;
const CAPPED = '--max-semi-space-size=1';

export interface ConsoleBench {
  sessions: number;
  messages: number;
  pages: Array<{ path: string; p50Ms: number; p95Ms: number }>;
  /** The first overview of a fresh console, which reads the whole week. */
  coldOverviewMs: number;
  worstP95Ms: number;
  rss: { offReadyMiB: number; offMiB: number; onReadyMiB: number; onAfterPagesMiB: number; addedMiB: number; perRunAddedMiB: number[]; cappedAddedMiB: number };
}

async function seed(store: Store, now: number): Promise<string> {
  let busiest = '';
  for (let s = 0; s < SESSIONS; s++) {
    const platform = (['telegram', 'slack', 'discord', 'email'] as const)[s % 4];
    const user = `${platform === 'email' ? `user${s}@example.com` : String(100_000 + s)}`;
    const id = `bench-${s}`;
    const started = now - (s % 7) * DAY - 3_600_000;
    await store.transaction(async (tx) => {
      await tx.sessions.create({
        id,
        address: { platform, chatId: user, userId: user },
        personKey: `${platform}:${user}`,
        startedAt: started,
        promptLayers: [
          { name: 'identity', text: 'You are Switchboard. '.repeat(30) },
          { name: 'tool_guidance', text: 'Use the tools. '.repeat(80) },
          { name: 'platform_hint', text: `${platform} formatting. `.repeat(20) },
        ],
        prompt: 'x'.repeat(2600),
        promptSha256: 'ab'.repeat(32),
        toolsSignature: '',
      });
      for (let t = 0; t < MESSAGES_PER_SESSION / 2; t++) {
        const at = started + t * 30_000;
        const usage = { inputTokens: 2000 + t * 40, outputTokens: 120, cachedTokens: t === 0 ? 0 : 1800 + t * 30, cacheWriteTokens: 0 };
        await tx.messages.append(id, `${platform}:${user}`, [{ role: 'user', content: `Question ${t} about the quarterly numbers and the open invoices?` }, { role: 'assistant', content: `Answer ${t}: the numbers are in, three invoices are still open. `.repeat(3) }], at, usage);
        await tx.sessions.recordTurn(id, at, usage, 1);
      }
    });
    if (s === 0) busiest = id;
  }
  return busiest;
}

async function time(base: string, path: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(base + path, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  return performance.now() - t0;
}

async function pages(home: string, log: (line: string) => void): Promise<{ pages: ConsoleBench['pages']; session: string; coldOverviewMs: number }> {
  const store = openSqliteStore({ path: sqlitePath(home), home });
  let server: Server | undefined;
  try {
    const t0 = performance.now();
    const session = await seed(store, Date.now());
    log(`console: seeded ${SESSIONS} sessions, ${SESSIONS * MESSAGES_PER_SESSION} messages in ${round((performance.now() - t0) / 1000, 1)} s`);
    const token = 'bench-console-token';
    const app = createConsoleApp({
      store,
      token,
      secrets: [],
      doors: () => [{ platform: 'telegram', state: 'running' }],
      model: () => 'bench-model (openai)',
      cron: { nextRuns: () => new Map(), runNow: async () => ({ ok: true, detail: '' }), changed: () => undefined },
      kickDelivery: () => undefined,
    });
    server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const headers = { Authorization: `Bearer ${token}` };
    const paths = ['/', '/api/overview', '/sessions', '/sessions?page=15', '/api/sessions', `/sessions/${session}`, `/sessions/${session}?page=2`, `/api/sessions/${session}`, '/cron', '/outbox', '/pairing'];
    // The very first overview reads the whole week (later ones only today; the finished days are kept 5 minutes).
    const coldOverviewMs = round(await time(base, '/', headers));
    const out: ConsoleBench['pages'] = [];
    for (const path of paths) {
      for (let i = 0; i < 5; i++) await time(base, path, headers);
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) times.push(await time(base, path, headers));
      out.push({ path: path.replace(session, '<id>'), p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) });
    }
    return { pages: out, session, coldOverviewMs };
  } finally {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server?.closeAllConnections();
    await store.close();
  }
}

const median = (values: number[]) => percentile(values, 50);

/** A port free right now (the machine is shared: fixed ports may be taken). */

async function startRss(home: string, modelUrl: string, port: number, session: string, nodeOptions = ''): Promise<{ ready: number; after: number }> {
  const gw = startCli(['start'], {
    env: cleanEnv({ SWITCHBOARD_HOME: home, SWITCHBOARD_CONSOLE_PORT: String(port), OPENAI_BASE_URL: modelUrl, OPENAI_API_KEY: 'sk-bench', MODEL: 'bench', NODE_OPTIONS: nodeOptions }),
    bin: COMPILED_BIN,
  });
  try {
    await gw.waitFor(/ready \(/, 30_000);
    await sleep(1000);
    const ready = rssMiB(gw.child.pid!);
    for (let i = 0; i < WARM_MESSAGES; i++) gw.child.stdin.write(`warm-up message ${i}\n`);
    const deadline = Date.now() + 60_000;
    while (gw.stdout().split('\n').filter(Boolean).length < WARM_MESSAGES && Date.now() < deadline) await sleep(50);
    if (port !== 0) {
      const token = readFileSync(join(home, 'console.token'), 'utf8').trim();
      const base = /web console on (http:\/\/[^ ]+)/.exec(gw.stderr())?.[1];
      if (!base) throw new Error(`the console did not start:\n${gw.stderr()}`);
      const headers = { Authorization: `Bearer ${token}` };
      for (let i = 0; i < PAGE_ROUNDS; i++) {
        for (const path of ['/', '/api/overview', '/sessions', '/sessions?page=7', '/api/sessions', `/sessions/${session}`, '/cron', '/outbox', '/pairing']) await time(base, path, headers);
      }
    }
    await sleep(1500);
    return { ready, after: rssMiB(gw.child.pid!) };
  } finally {
    await gw.stop('SIGTERM');
  }
}

export async function benchConsole(log: (line: string) => void = () => undefined): Promise<ConsoleBench> {
  const home = mkdtempSync(join(tmpdir(), 'sb-bench-console-'));
  try {
    const { pages: figures, session, coldOverviewMs } = await pages(home, log);
    log(`console: first overview (the whole week read) ${coldOverviewMs} ms`);
    for (const p of figures) log(`console: ${p.path} p50 ${p.p50Ms} ms, p95 ${p.p95Ms} ms`);
    const model = await startInstantModel();
    const offReady: number[] = [];
    const off: number[] = [];
    const onReady: number[] = [];
    const onAfter: number[] = [];
    const cappedOff: number[] = [];
    const cappedOn: number[] = [];
    try {
      for (let i = 0; i < RUNS; i++) {
        const o = await startRss(home, model.url, 0, session);
        offReady.push(o.ready);
        off.push(o.after);
        const on = await startRss(home, model.url, await freePort(), session);
        onReady.push(on.ready);
        onAfter.push(on.after);
        log(`console: start RSS, console off: ${o.ready} MiB at ready, ${o.after} after ${WARM_MESSAGES} messages; on: ${on.ready} at ready, ${on.after} after the messages and the pages`);
      }
      for (let i = 0; i < RUNS; i++) {
        const o = await startRss(home, model.url, 0, session, CAPPED);
        cappedOff.push(o.after);
        const on = await startRss(home, model.url, await freePort(), session, CAPPED);
        cappedOn.push(on.after);
        log(`console: start RSS with ${CAPPED}, console off: ${o.after} MiB, on: ${on.after} MiB after the messages (and the pages)`);
      }
    } finally {
      await model.close();
    }
    const rss = {
      offReadyMiB: median(offReady),
      offMiB: median(off),
      onReadyMiB: median(onReady),
      onAfterPagesMiB: median(onAfter),
      addedMiB: round(median(onAfter) - median(off), 1),
      perRunAddedMiB: onAfter.map((v, i) => round(v - off[i], 1)),
      cappedAddedMiB: round(median(cappedOn) - median(cappedOff), 1),
    };
    return {
      sessions: SESSIONS,
      messages: SESSIONS * MESSAGES_PER_SESSION,
      pages: figures,
      coldOverviewMs,
      worstP95Ms: Math.max(...figures.map((p) => p.p95Ms)),
      rss,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
