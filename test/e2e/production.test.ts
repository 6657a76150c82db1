/**
 * Running it in production (ARCHITECTURE.md §18), through `switchboard start` against the Telegram
 * and model fakes: /healthz, /readyz (and a door that goes down), /metrics (and its token off
 * loopback), the drain that lets an 8 s answer finish before the exit, what a conversation costs in
 * /usage, and a daily budget that stops the model calls of one person.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, runCli, sleep, startCli, type Running } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { costOf, formatUsd } from '../../src/core/cost/pricing.js';

let model: ModelFake;
let tg: TelegramFake;
const homes: string[] = [];

beforeAll(async () => {
  model = await startModelFake({
    script: (req) => {
      const text = lastUserText(req);
      return text.includes('slow question') ? { text: 'A slow answer, written in full.', delayMs: 8000 } : { text: `You said: ${text}` };
    },
  });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
});
afterAll(() => cleanUp(() => tg?.close(), () => model?.close(), ...homes.map((h) => () => removeDir(h))));

function home(config = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-prod-'));
  homes.push(dir);
  writeFileSync(join(dir, 'config.yaml'), `streaming:\n  telegram: off\n${config}`);
  return dir;
}

function env(dir: string, extra: Record<string, string> = {}) {
  return cleanEnv({
    SWITCHBOARD_HOME: dir,
    OPENAI_BASE_URL: model.openaiUrl,
    OPENAI_API_KEY: 'sk-prod-e2e',
    MODEL: 'fake-model',
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.url,
    TELEGRAM_ALLOWED_USERS: '1001,1002,1003',
    ...extra,
  });
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text() };
}

/** The value of one sample line of the Prometheus text, or undefined. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(name + ' ') || l === name);
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('switchboard start: health, readiness and metrics (§18)', () => {
  let gw: Running;
  afterAll(() => killIfRunning(gw));

  it('answers /healthz, is ready with the door connected, counts the traffic, and says at once when the door goes down', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // A Telegram of its own: its getUpdates is made to fail below.
    const tg = await startTelegramFake({ maxPollHoldMs: 300 });
    onTestFinished(() => tg.close());
    gw = startCli(['start'], { env: env(home(), { SWITCHBOARD_HEALTH_PORT: String(port), TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url }) });
    await gw.waitFor(/ready \(telegram/);
    expect(await get(`${base}/healthz`)).toMatchObject({ status: 200 });
    const ready = await get(`${base}/readyz`);
    expect(ready.status, ready.text).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({ status: 'ready', doors: { telegram: 'connected' } });

    const sentBefore = tg.sent.length;
    tg.pushText({ text: 'count me', userId: 1001 });
    await tg.waitForMessages(sentBefore + 1);
    let metrics = '';
    for (let i = 0; i < 50; i++) {
      metrics = (await get(`${base}/metrics`)).text;
      if (sample(metrics, 'switchboard_messages_sent_total{platform="telegram"}')) break;
      await sleep(100);
    }
    expect(sample(metrics, 'switchboard_messages_received_total{platform="telegram"}')).toBeGreaterThanOrEqual(1);
    expect(sample(metrics, 'switchboard_messages_sent_total{platform="telegram"}')).toBeGreaterThanOrEqual(1);
    const usage = model.reported[model.reported.length - 1];
    expect(sample(metrics, 'switchboard_tokens_total{kind="output",model="fake-model"}')).toBeGreaterThanOrEqual(usage.outputTokens);
    expect(metrics).toMatch(/switchboard_turn_duration_seconds_count\{platform="telegram"\} [1-9]/);
    expect(metrics).toMatch(/switchboard_model_latency_seconds_count\{model="fake-model"\} [1-9]/);
    expect(sample(metrics, 'switchboard_outbox_backlog')).toBe(0);
    expect(sample(metrics, 'switchboard_outbox_parked')).toBe(0);
    expect(metrics).toMatch(/switchboard_process_resident_memory_bytes \d+/);
    expect(metrics).toMatch(/switchboard_nodejs_eventloop_lag_seconds [\d.e-]+/);
    expect(metrics).not.toContain('sk-prod-e2e');
    expect(metrics).not.toContain(tg.token);

    // Telegram's getUpdates starts failing: /readyz says which door and why within 5 s.
    tg.failNext('getUpdates', '500', 1000);
    const downAt = Date.now();
    let down = { status: 200, text: '' };
    while (Date.now() - downAt < 5000) {
      down = await get(`${base}/readyz`);
      if (down.status === 503) break;
      await sleep(100);
    }
    expect(down.status, down.text).toBe(503);
    expect(JSON.parse(down.text).problems['door:telegram']).toMatch(/getUpdates failed/);
    expect((await get(`${base}/healthz`)).status).toBe(200);
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toBe(0);
  });

  it('off loopback, /metrics needs SWITCHBOARD_METRICS_TOKEN (start refuses without one); /healthz and /readyz never do', async () => {
    const dir = home();
    const refused = await runCli(['start'], { env: env(dir, { SWITCHBOARD_HEALTH_PORT: String(await freePort()), SWITCHBOARD_HEALTH_HOST: '0.0.0.0' }) });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/SWITCHBOARD_METRICS_TOKEN/);

    const port = await freePort();
    const token = 'metrics-token-for-the-e2e-test';
    gw = startCli(['start'], { env: env(dir, { SWITCHBOARD_HEALTH_PORT: String(port), SWITCHBOARD_HEALTH_HOST: '0.0.0.0', SWITCHBOARD_METRICS_TOKEN: token }) });
    await gw.waitFor(/ready \(telegram/);
    const base = `http://127.0.0.1:${port}`;
    expect((await get(`${base}/metrics`)).status).toBe(401);
    expect((await get(`${base}/metrics`, { authorization: 'Bearer wrong' })).status).toBe(401);
    const ok = await get(`${base}/metrics`, { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('switchboard_messages_received_total');
    expect(ok.text).not.toContain(token);
    expect((await get(`${base}/healthz`)).status).toBe(200);
    expect((await get(`${base}/readyz`)).status).toBe(200);
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toBe(0);
  });
});

describe('switchboard start: the drain (§18)', () => {
  let gw: Running;
  afterAll(() => killIfRunning(gw));

  it('a lone instance stopped during an 8 s answer delivers it before it exits (default grace 20 s), and /readyz says "stopping" meanwhile', async () => {
    const port = await freePort();
    gw = startCli(['start'], { env: env(home(), { SWITCHBOARD_HEALTH_PORT: String(port) }) });
    await gw.waitFor(/ready \(telegram/);
    const sentBefore = tg.sent.length;
    const asked = model.completions().length;
    tg.pushText({ text: 'a slow question', userId: 1002 });
    await model.waitForRequests(asked + 1);
    const t0 = Date.now();
    gw.child.kill('SIGTERM');
    await sleep(500);
    const during = await get(`http://127.0.0.1:${port}/readyz`);
    expect(during.status).toBe(503);
    expect(JSON.parse(during.text).problems.app).toBe('stopping');
    expect(await gw.exited).toBe(0);
    expect(Date.now() - t0).toBeGreaterThan(6000); // it waited for the answer…
    const answer = tg.sent.slice(sentBefore).find((m) => m.chatId === '1002');
    expect(answer?.plain).toBe('A slow answer, written in full.'); // …and delivered it before the exit
  }, 40_000);
});

describe('cost and budgets (§18)', () => {
  let gw: Running;
  afterAll(() => killIfRunning(gw));

  it('/usage shows the cost of the conversation as the pricing arithmetic on the reported usage, and a daily token budget stops the next model call', async () => {
    const price = { input: 3, cached_input: 0.3, output: 15 };
    const dir = home(`pricing:\n  fake-model: { input: ${price.input}, cached_input: ${price.cached_input}, output: ${price.output} }\nbudgets:\n  person: { daily_tokens: 100000 }\n`);
    gw = startCli(['start'], { env: env(dir) });
    await gw.waitFor(/ready \(telegram/);
    const first = model.reported.length;
    let sent = tg.sent.length;
    for (const text of ['first question about costs', 'second question about costs']) {
      tg.pushText({ text, userId: 1003 });
      await tg.waitForMessages(++sent);
    }
    const reported = model.reported.slice(first);
    expect(reported).toHaveLength(2);
    const total = reported.reduce((a, u) => ({ inputTokens: a.inputTokens + u.inputTokens, cachedTokens: a.cachedTokens + u.cachedTokens, outputTokens: a.outputTokens + u.outputTokens }));
    expect(total.cachedTokens).toBeGreaterThan(0); // the second request reused the first one's prefix
    tg.pushText({ text: '/usage', userId: 1003 });
    const [usage] = (await tg.waitForMessages(++sent)).slice(-1);
    const cost = costOf(total, price);
    expect(usage.plain).toContain(`This conversation: ${total.inputTokens} in (${total.cachedTokens} cached`);
    expect(usage.plain).toContain(`${total.outputTokens} out; ${formatUsd(cost.usd)}, the prompt cache saved ${formatUsd(cost.savedUsd)}`);
    expect(usage.plain).toMatch(/Today \(UTC\): \d+ tokens; \$[\d.]+; budget left today: [\d,]+ tokens/);
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toBe(0);

    // The same person, a budget already spent: one line, no model call; someone else goes on.
    writeFileSync(join(dir, 'config.yaml'), `streaming:\n  telegram: off\nbudgets:\n  person: { daily_tokens: 10 }\n`);
    gw = startCli(['start'], { env: env(dir) });
    await gw.waitFor(/ready \(telegram/);
    const calls = model.completions().length;
    tg.pushText({ text: 'one more question', userId: 1003 });
    const [refusal] = (await tg.waitForMessages(++sent)).slice(-1);
    expect(refusal.chatId).toBe('1003');
    expect(refusal.plain).toMatch(/^Your daily budget \(10 tokens\) is spent, so I cannot answer now; it renews at 00:00 UTC, in \d+ (h \d+ )?min\.$/);
    expect(model.completions().length).toBe(calls);
    tg.pushText({ text: 'a fresh person asks', userId: 1001 });
    const [other] = (await tg.waitForMessages(sent + 1)).slice(-1);
    expect(other.plain).toBe('You said: a fresh person asks');
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toBe(0);
  }, 40_000);
});
