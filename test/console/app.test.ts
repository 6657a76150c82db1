/**
 * The console's access rules and its store queries, through Hono's `app.request` on a real store
 * (both engines). The browser drives the same app end to end in test/e2e/console.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleApp } from '../../src/console/app.js';
import { consoleToken } from '../../src/console/auth.js';
import { checkConsoleSettings } from '../../src/console/settings.js';
import type { ConsoleDeps } from '../../src/console/types.js';
import { costOf, priceList } from '../../src/core/cost/pricing.js';
import type { Store } from '../../src/core/store/types.js';
import { ENGINES, reportSkips, skipNote, type EngineDb } from '../helpers/engines.js';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

reportSkips();
const TOKEN = 'console-test-token-0123456789';
const SECRET = 'sk-very-secret-api-key-42';
const DAY = 86_400_000;
const PRICE = { input: 3, cached_input: 0.3, output: 15 };

async function seed(store: Store, now: number): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const id = `s${i}`;
    await store.sessions.create({
      id,
      address: { platform: 'telegram', chatId: String(1000 + i), userId: String(1000 + i) },
      personKey: `telegram:${1000 + i}`,
      startedAt: now - DAY * i - 1000,
      promptLayers: [
        { name: 'identity', text: 'You are Switchboard.' },
        { name: 'platform_hint', text: 'Telegram: HTML.' },
      ],
      prompt: 'You are Switchboard.\n\nTelegram: HTML.',
      promptSha256: 'ab'.repeat(32),
      toolsSignature: '',
    });
    const at = now - DAY * i;
    await store.messages.append(id, `telegram:${1000 + i}`, [{ role: 'user', content: `hello ${i} <script>x()</script> ${SECRET}` }, { role: 'assistant', content: `hi ${i}` }], at, {
      inputTokens: 1000,
      outputTokens: 50,
      cachedTokens: 800,
      cacheWriteTokens: 0,
    });
    await store.sessions.recordTurn(id, at, { inputTokens: 1000, outputTokens: 50, cachedTokens: 800, cacheWriteTokens: 0 }, 1);
  }
  const parked = await store.outbox.enqueue({ platform: 'slack', chatId: 'C1', extra: { response_url: 'https://hooks.example/secret-hook' } }, { chunks: ['a parked reply'] }, now);
  await store.outbox.failed(parked, 'channel_not_found');
  await store.outbox.enqueue({ platform: 'telegram', chatId: '1000' }, { chunks: ['waiting'] }, now);
  await store.pairing.request('telegram', '3003', '3003', now);
}

function depsFor(store: Store, now: Date, calls: string[]): ConsoleDeps {
  return {
    store,
    token: TOKEN,
    secrets: [SECRET],
    doors: () => [{ platform: 'telegram', state: 'running' }, { platform: 'discord', state: 'standby', detail: 'lease held by host-b' }],
    model: () => 'fake-model (openai)',
    costs: { prices: priceList({ 'fake-model': PRICE }), defaultModel: 'fake-model', budgets: { person: { daily_tokens: 1000 } } },
    cron: { nextRuns: () => new Map(), runNow: async (id) => (calls.push(`run ${id}`), { ok: true, detail: 'ran' }), changed: () => calls.push('changed') },
    kickDelivery: () => calls.push('kick'),
    now: () => now,
    pageSize: 2,
  };
}

async function login(app: ReturnType<typeof createConsoleApp>): Promise<string> {
  const res = await app.request(`/login?token=${TOKEN}`);
  expect(res.status).toBe(303);
  const cookie = res.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  expect(cookie).not.toContain(TOKEN);
  return cookie.split(';')[0];
}

const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)?.[1];

describe.each(ENGINES)('web console on $name', (engine) => {
  let db: EngineDb;
  let store: Store;
  const now = new Date('2026-11-20T12:00:00Z');
  const calls: string[] = [];
  let app: ReturnType<typeof createConsoleApp>;

  beforeAll(async () => {
    if (engine.skip) return;
    db = await engine.create();
    store = await db.open();
    await seed(store, now.getTime());
    app = createConsoleApp(depsFor(store, now, calls));
  });
  afterAll(async () => {
    await store?.close();
    await db?.cleanup();
  });

  it.skipIf(Boolean(engine.skip))(`shows what each session cost, today's cost and who is near their daily budget (ARCHITECTURE.md §18)${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, async () => {
    const cookie = await login(app);
    const turn = { inputTokens: 1000, cachedTokens: 800, outputTokens: 50 };
    const expected = costOf(turn, PRICE);
    const sessions = (await (await app.request('/api/sessions', { headers: { Cookie: cookie } })).json()) as { items: Array<{ id: string; cost: { usd: number; savedUsd: number } | null }> };
    for (const s of sessions.items) expect(s.cost, s.id).toEqual(expected);
    const o = (await (await app.request('/api/overview', { headers: { Cookie: cookie } })).json()) as {
      spending: { todayUsd: number; todaySavedUsd: number; nearBudget: Array<{ person: string; spent: string; budget: string; percent: number }> };
    };
    // Only s0's turn was today (UTC): one turn's cost, and its person at 105 % of 1,000 tokens.
    expect(o.spending.todayUsd).toBeCloseTo(expected.usd, 12);
    expect(o.spending.todaySavedUsd).toBeCloseTo(expected.savedUsd, 12);
    expect(o.spending.nearBudget).toEqual([{ person: 'telegram:1000', spent: '1,050 tokens', budget: '1,000 tokens', percent: 105 }]);
    const page = await (await app.request('/', { headers: { Cookie: cookie } })).text();
    expect(page).toContain('Model cost today (UTC)');
    expect(page).toMatch(/<table id="near-budget">[\s\S]*telegram:1000[\s\S]*105%/);
    const list = await (await app.request('/sessions', { headers: { Cookie: cookie } })).text();
    expect(list).toContain('<th>Cost</th>');
  });

  it.skipIf(Boolean(engine.skip))(`refuses pages and the API without a login (401), and a wrong token${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, async () => {
    for (const path of ['/', '/sessions', '/sessions/s0', '/cron', '/outbox', '/pairing', '/api/overview', '/api/sessions', '/api/sessions/s0', '/api/cron', '/api/outbox', '/api/pairing']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(401);
      expect(await res.text()).not.toContain('hello');
    }
    expect((await app.request('/login?token=wrong')).status).toBe(401);
    expect((await app.request('/api/overview', { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await app.request('/api/overview', { headers: { Cookie: 'switchboard_console=forged.value' } })).status).toBe(401);
    const bearer = await app.request('/api/overview', { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it.skipIf(Boolean(engine.skip))(`shows today, the 7-day figures, doors, sessions with cache hit rate, paged${skipNote(engine)}`, async () => {
    const cookie = await login(app);
    const o = (await (await app.request('/api/overview', { headers: { Cookie: cookie } })).json()) as {
      today: { messages: number; cacheHitRate: number };
      days: Array<{ date: string; messages: number }>;
      outbox: { pending: number; parked: number };
      doors: Array<{ state: string }>;
      engine: string;
    };
    expect(o.engine).toBe(engine.name);
    expect(o.days).toHaveLength(7);
    expect(o.today.messages).toBe(2);
    expect(o.today.cacheHitRate).toBeCloseTo(0.8);
    expect(o.days.reduce((n, d) => n + d.messages, 0)).toBe(6);
    expect(o.outbox).toMatchObject({ pending: 1, parked: 1 });
    expect(o.doors.map((d) => d.state)).toEqual(['running', 'standby']);

    const p1 = (await (await app.request('/api/sessions', { headers: { Cookie: cookie } })).json()) as { total: number; hasNext: boolean; items: Array<{ id: string; cacheHitRate: number; tokens: { total: number } }> };
    expect(p1.total).toBe(3);
    expect(p1.items.map((s) => s.id)).toEqual(['s0', 's1']);
    expect(p1.hasNext).toBe(true);
    expect(p1.items[0]).toMatchObject({ cacheHitRate: 0.8, tokens: { total: 1050 } });
    const p2 = (await (await app.request('/api/sessions?page=2', { headers: { Cookie: cookie } })).json()) as { items: Array<{ id: string }>; hasNext: boolean };
    expect(p2.items.map((s) => s.id)).toEqual(['s2']);
    expect(p2.hasNext).toBe(false);

    const detail = (await (await app.request('/api/sessions/s0', { headers: { Cookie: cookie } })).json()) as { transcript: { items: Array<{ content: string }>; hasNext: boolean }; layers: Array<{ name: string; chars: number }> };
    expect(detail.transcript.items.map((m) => m.content)).toEqual([expect.stringContaining('hello 0'), 'hi 0']);
    expect(detail.transcript.hasNext).toBe(false);
    expect(detail.layers).toEqual([{ name: 'identity', chars: 20, text: 'You are Switchboard.' }, { name: 'platform_hint', chars: 15, text: 'Telegram: HTML.' }]);
    expect((await store.messages.transcript('s0', 'telegram:1000', { offset: 1, limit: 1 })).map((l) => l.content)).toEqual(['hi 0']);
    expect(await store.messages.transcript('s0', 'telegram:1001')).toEqual([]); // someone else's session: nothing
    expect((await app.request('/api/sessions/nope', { headers: { Cookie: cookie } })).status).toBe(404);
    const page = await (await app.request('/sessions/s0', { headers: { Cookie: cookie } })).text();
    expect(page).toContain('platform_hint');
    expect(page).toContain('&lt;script&gt;x()&lt;/script&gt;');
    expect(page).not.toContain('<script>');
  });

  it.skipIf(Boolean(engine.skip))(`never shows a secret or a target's response_url${skipNote(engine)}`, async () => {
    const cookie = await login(app);
    for (const path of ['/', '/sessions', '/sessions/s0', '/outbox', '/pairing', '/cron', '/api/overview', '/api/sessions', '/api/sessions/s0', '/api/outbox', '/api/pairing']) {
      const text = await (await app.request(path, { headers: { Cookie: cookie } })).text();
      expect(text, path).not.toContain(SECRET);
      expect(text, path).not.toContain(TOKEN);
      expect(text, path).not.toContain('secret-hook');
    }
  });

  it.skipIf(Boolean(engine.skip))(`refuses a POST without the CSRF token (403) and changes nothing; with it, retry and approve work${skipNote(engine)}`, async () => {
    const cookie = await login(app);
    const parked = (await (await app.request('/api/outbox', { headers: { Cookie: cookie } })).json()) as { items: Array<{ id: number }> };
    const id = parked.items[0].id;
    const code = (await store.pairing.list(now.getTime()))[0].code;
    const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

    expect((await app.request(`/outbox/${id}/retry`, form({}))).status).toBe(403);
    expect((await app.request(`/pairing/${code}/approve`, form({ csrf: 'forged' }))).status).toBe(403);
    expect((await app.request('/cron/daily/pause', form({}))).status).toBe(403);
    expect((await store.outbox.get(id))?.status).toBe('failed');
    expect(await store.pairing.isPaired('telegram', '3003')).toBe(false);
    expect(calls).toEqual([]);
    // another login's token is no good either
    const other = await login(app);
    const otherCsrf = csrfOf(await (await app.request('/outbox', { headers: { Cookie: other } })).text())!;
    expect((await app.request(`/outbox/${id}/retry`, form({ csrf: otherCsrf }))).status).toBe(403);

    const csrf = csrfOf(await (await app.request('/outbox', { headers: { Cookie: cookie } })).text())!;
    const retried = await app.request(`/outbox/${id}/retry`, form({ csrf }));
    expect(retried.status).toBe(200);
    expect(await retried.text()).toContain('back in line');
    expect((await store.outbox.get(id))).toMatchObject({ status: 'pending', attempts: 0 });
    expect(calls).toEqual(['kick']);
    const approved = await app.request(`/pairing/${code}/approve`, form({ csrf }));
    expect(await approved.text()).toContain('Approved telegram user 3003');
    expect(await store.pairing.isPaired('telegram', '3003')).toBe(true);
  });

  it.skipIf(Boolean(engine.skip))(`refuses a Bearer POST without the CSRF token too (403, nothing changes); with the token from /api/csrf it works${skipNote(engine)}`, async () => {
    const asked = await store.pairing.request('telegram', '4004', '4004', now.getTime());
    if (asked.status === 'full') throw new Error('no pairing code could be issued');
    const code = asked.code;
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const post = (headers: Record<string, string>) => ({ method: 'POST', headers: { ...auth, ...headers } });
    expect((await app.request(`/pairing/${code}/deny`, post({}))).status).toBe(403);
    expect((await app.request(`/pairing/${code}/deny`, post({ 'X-CSRF-Token': 'forged' }))).status).toBe(403);
    expect((await app.request('/cron/daily/pause', post({}))).status).toBe(403);
    expect((await store.pairing.list(now.getTime())).map((p) => p.code)).toContain(code);
    expect((await store.cron.get('daily'))?.paused).toBeFalsy();
    const { csrf } = (await (await app.request('/api/csrf', { headers: auth })).json()) as { csrf: string };
    expect(csrf).toMatch(/\S{16,}/);
    // a login cookie's CSRF token is not the Bearer client's
    const cookieCsrf = csrfOf(await (await app.request('/pairing', { headers: { Cookie: await login(app) } })).text())!;
    expect((await app.request(`/pairing/${code}/deny`, post({ 'X-CSRF-Token': cookieCsrf }))).status).toBe(403);
    const denied = await app.request(`/pairing/${code}/deny`, post({ 'X-CSRF-Token': csrf }));
    expect(denied.status).toBe(200);
    expect((await store.pairing.list(now.getTime())).map((p) => p.code)).not.toContain(code);
  });

  it.skipIf(Boolean(engine.skip))(`a pause from the console outlives the config sync at the next start; enabled: false still wins${skipNote(engine)}`, async () => {
    const job = { id: 'daily', schedule: '0 9 * * *', prompt: 'report', deliver: { platform: 'telegram' as const, chatId: '1000' }, enabled: true };
    const at = now.getTime();
    await store.cron.syncConfig([job], at);
    await store.cron.setPaused('daily', true, at);
    await store.cron.syncConfig([job], at + 1000);
    expect((await store.cron.get('daily'))?.paused).toBe(true);
    await store.cron.setPaused('daily', false, at + 2000);
    await store.cron.syncConfig([job], at + 3000);
    expect((await store.cron.get('daily'))?.paused).toBe(false);
    await store.cron.syncConfig([{ ...job, enabled: false }], at + 4000);
    await store.cron.setPaused('daily', false, at + 5000);
    await store.cron.syncConfig([{ ...job, enabled: false }], at + 6000);
    expect((await store.cron.get('daily'))?.paused).toBe(true);
    await store.cron.syncConfig([], at + 7000);
  });
});

describe('console token and host', () => {
  it('generates the token once into console.token (0600) and reuses it; an explicit one wins', () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-console-token-'));
    try {
      const first = consoleToken(home, undefined);
      expect(first.source).toMatchObject({ kind: 'file', created: true });
      expect(first.token.length).toBeGreaterThanOrEqual(40);
      expect(statSync(join(home, 'console.token')).mode & 0o777).toBe(0o600);
      expect(consoleToken(home, undefined).token).toBe(first.token);
      expect(consoleToken(home, 'explicit-token').token).toBe('explicit-token');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses a host other than loopback without SWITCHBOARD_CONSOLE_TOKEN, in one line naming it', () => {
    expect(() => checkConsoleSettings({ port: 8787, host: '0.0.0.0' })).toThrow(/SWITCHBOARD_CONSOLE_TOKEN/);
    expect(() => checkConsoleSettings({ port: 8787, host: '0.0.0.0', token: 'set' })).not.toThrow();
    expect(() => checkConsoleSettings({ port: 8787, host: '127.0.0.1' })).not.toThrow();
    expect(() => checkConsoleSettings({ port: 0, host: '0.0.0.0' })).not.toThrow();
  });
});
