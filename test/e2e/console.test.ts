/**
 * The web console in a real browser (Chromium through puppeteer-core), end to end: `switchboard
 * start` with Telegram (pairing on) and a cron job, against the loopback fakes. With
 * SWITCHBOARD_SCREENSHOTS=1 it also writes docs/console-overview.png and docs/console-session.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, startCli, until, type Running } from '../helpers/cli.js';
import { openSqliteStore, sqlitePath } from '../../src/store/sqlite/index.js';
import { freePort } from '../helpers/ports.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const skipped = haveChromium ? '' : ' (skipped: chromium not installed at /usr/bin/chromium)';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOTS = process.env.SWITCHBOARD_SCREENSHOTS === '1';
const API_KEY = 'sk-console-e2e-known-secret-7f3a';
const XSS = 'look <script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"> here';
const DAY = 86_400_000;

/** A week of earlier conversations, written as the gateway would have (for the chart and the list). */
async function seedHistory(home: string): Promise<void> {
  const store = openSqliteStore({ path: sqlitePath(home), home });
  const people = [
    ['telegram', '1001', 'Plan the release notes for 2.4'],
    ['slack', 'U0ALICE', 'Which invoices are still open?'],
    ['discord', '40412', 'Summarise the incident from Tuesday'],
    ['email', 'bob@example.com', 'Draft a reply to the supplier'],
  ] as const;
  // Each seeded day's turns fall between 09:00 and about 13:00 local time of a past day, whatever the
  // time of the run (an offset from now put day 1's last person into today after 21:00).
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  try {
    for (let day = 6; day >= 1; day--) {
      for (const [i, [platform, user, ask]] of people.entries()) {
        if ((day + i) % 3 === 0) continue;
        const at = midnight.getTime() - day * DAY + (9 + i) * 3_600_000;
        const id = `seed-${platform}-${day}`;
        const text = `You are Switchboard, a helpful assistant.\n\n${platform} formatting rules.`;
        await store.sessions.create({
          id,
          address: { platform, chatId: user, userId: user },
          personKey: `${platform}:${user}`,
          startedAt: at,
          promptLayers: [
            { name: 'identity', text: 'You are Switchboard, a helpful assistant.' },
            { name: 'tool_guidance', text: '\n\nUse memory for lasting facts.' },
            { name: 'platform_hint', text: `\n\n${platform} formatting rules.` },
          ],
          prompt: text,
          promptSha256: 'c0ffee'.repeat(10) + 'abcd',
          toolsSignature: '',
        });
        for (let turn = 0; turn < 2 + ((day + i) % 4); turn++) {
          const input = 2400 + turn * 300;
          const usage = { inputTokens: input, outputTokens: 180, cachedTokens: turn === 0 ? 0 : Math.round(input * (0.55 + day * 0.05)), cacheWriteTokens: 0 };
          await store.messages.append(id, `${platform}:${user}`, [{ role: 'user', content: `${ask} (${turn + 1})` }, { role: 'assistant', content: `Here is what I found (${turn + 1}).` }], at + turn * 60_000, usage);
          await store.sessions.recordTurn(id, at + turn * 60_000, usage, 1);
        }
        await store.sessions.end(id, 'idle', at + 3_600_000);
      }
    }
  } finally {
    await store.close();
  }
}

describe('web console in a browser', () => {
  let model: ModelFake;
  let tg: TelegramFake;
  let home: string;
  let gw: Running | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let base: string;
  let token: string;
  let profile: string;

  beforeAll(async () => {
    if (!haveChromium) return;
    model = await startModelFake({ script: (req) => ({ text: `You said: ${lastUserText(req)}` }) });
    tg = await startTelegramFake({ maxPollHoldMs: 300 });
    home = mkdtempSync(join(tmpdir(), 'sb-console-e2e-'));
    profile = mkdtempSync(join(tmpdir(), 'sb-console-chromium-'));
    writeFileSync(
      join(home, 'config.yaml'),
      ['telegram: { pairing: true }', 'cron:', '  - id: morning-report', '    schedule: "0 7 * * *"', '    prompt: "Write the morning report."', '    deliver: telegram:1001', ''].join('\n'),
    );
    await seedHistory(home);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    gw = startCli(['start'], {
      env: cleanEnv({
        SWITCHBOARD_HOME: home,
        OPENAI_BASE_URL: model.openaiUrl,
        OPENAI_API_KEY: API_KEY,
        MODEL: 'gpt-4o-mini',
        TELEGRAM_BOT_TOKEN: tg.token,
        TELEGRAM_API_ROOT: tg.url,
        TELEGRAM_ALLOWED_USERS: '1001',
        SWITCHBOARD_CONSOLE_PORT: String(port),
      }),
    });
    await gw.waitFor(/ready \(telegram/);
    token = readFileSync(join(home, 'console.token'), 'utf8').trim();
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      userDataDir: profile,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
  }, 60_000);

  afterAll(() =>
    cleanUp(
      () => browser?.close(),
      () => killIfRunning(gw),
      () => tg?.close(),
      () => model?.close(),
      () => removeDir(home),
      () => removeDir(profile),
    ),
  );

  const visible = () => page.evaluate(() => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText);
  /** A request with the browser's login cookie, as a forged cross-site form would carry it (the page's CSP forbids fetch from it). */
  const withCookie = async (path: string, init: RequestInit = {}) => {
    const cookie = (await browser!.cookies()).find((c) => c.name === 'switchboard_console')!;
    return fetch(base + path, { ...init, headers: { ...(init.headers as Record<string, string>), Cookie: `${cookie.name}=${cookie.value}` } });
  };
  const form = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

  it.skipIf(!haveChromium)(`prints where the token is (never the token) and answers 401 without a login${skipped}`, async () => {
    expect(gw!.stderr()).toContain(`web console on ${base}`);
    expect(gw!.stderr()).toContain(join(home, 'console.token'));
    expect(gw!.stderr() + gw!.stdout()).not.toContain(token);
    for (const path of ['/', '/sessions', '/cron', '/outbox', '/pairing', '/api/overview', '/api/sessions', '/api/cron', '/api/outbox', '/api/pairing']) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(401);
    }
    const res = await page.goto(`${base}/sessions`);
    expect(res?.status()).toBe(401);
  });

  it.skipIf(!haveChromium)(`logs in with the link: an HttpOnly, SameSite=Strict cookie, then the overview${skipped}`, async () => {
    tg.pushText({ text: XSS, userId: 1001 });
    await tg.waitForMessages(1);
    tg.pushText({ text: 'What is on my calendar today?', userId: 1001 });
    await tg.waitForMessages(2);
    tg.pushText({ text: 'And where are the release notes for 2.4?', userId: 1001 });
    await tg.waitForMessages(3);
    await page.goto(`${base}/login?token=${encodeURIComponent(token)}`);
    expect(new URL(page.url()).pathname).toBe('/');
    const cookies = await browser!.cookies();
    const cookie = cookies.find((c) => c.name === 'switchboard_console');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookie!.value).not.toContain(token);
    const text = await visible();
    expect(text).toContain('Messages today');
    expect(text).toMatch(/telegram\s+running/);
    expect(text).toContain('gpt-4o-mini (openai)');
    expect(text).toContain('sqlite');
    expect(await page.$$eval('svg.chart rect.bar', (bars) => bars.length)).toBe(7);
    expect(await page.$eval('#messages-today', (e) => e.textContent)).toBe('6');
    // later turns reuse the cached prompt prefix (the model fake simulates a prefix cache)
    expect(await page.$eval('#cache-today', (e) => e.textContent)).toMatch(/^[1-9]\d? %$/);
    if (SCREENSHOTS) await page.screenshot({ path: join(ROOT, 'docs', 'console-overview.png'), fullPage: true });
  });

  it.skipIf(!haveChromium)(`lists sessions and shows one transcript with its prompt layers; a chat's <script> stays text${skipped}`, async () => {
    await page.goto(`${base}/sessions`);
    const list = await visible();
    expect(list).toMatch(/telegram\s+1001/);
    expect(list).toMatch(/slack\s+U0ALICE/);
    const live = await page.$$eval('a[href^="/sessions/"]', (links) => links.map((a) => a.getAttribute('href')!).filter((h) => !h.includes('seed-')));
    expect(live).toHaveLength(1);
    await Promise.all([page.waitForNavigation(), page.click(`a[href="${live[0]}"]`)]);
    const text = await visible();
    expect(text).toContain(XSS); // shown as the user wrote it
    expect(text).toContain(`You said: ${XSS}`);
    for (const layer of ['identity', 'tool_guidance', 'platform_hint']) expect(text).toContain(layer);
    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.$$eval('script', (s) => s.length)).toBe(0);
    expect(await page.$$eval('main img', (s) => s.length)).toBe(0);
    if (SCREENSHOTS) await page.screenshot({ path: join(ROOT, 'docs', 'console-session.png'), fullPage: true });
  });

  it.skipIf(!haveChromium)(`approving a pairing code in the page lets that user's next message through${skipped}`, async () => {
    const before = tg.sent.length;
    tg.pushText({ text: 'let me in', userId: 3003 });
    await until(() => tg.sent.length > before, 10_000, 'the pairing code', gw);
    const code = /\b([A-Z0-9]{8})\b/.exec(tg.sent.at(-1)!.plain)![1];
    await page.goto(`${base}/pairing`);
    expect(await visible()).toContain(code);
    await Promise.all([page.waitForNavigation(), page.click(`form[action="/pairing/${code}/approve"] button`)]);
    expect(await visible()).toContain('Approved telegram user 3003');
    const n = tg.sent.length;
    tg.pushText({ text: 'paired now', userId: 3003 });
    await until(() => tg.sent.length > n, 10_000, 'the answer to the paired user', gw);
    expect(tg.sent.at(-1)).toMatchObject({ chatId: '3003', plain: 'You said: paired now' });
  });

  it.skipIf(!haveChromium)(`"Run now" on a cron job delivers its report${skipped}`, async () => {
    await page.goto(`${base}/cron`);
    expect(await visible()).toContain('morning-report');
    const n = tg.sent.length;
    await Promise.all([page.waitForNavigation(), page.click('form[action="/cron/morning-report/run"] button')]);
    expect(await visible()).toContain('the report is on its way to telegram:1001');
    await until(() => tg.sent.slice(n).some((m) => m.chatId === '1001' && m.plain.includes('Scheduled run of job morning-report')), 15_000, 'the cron report', gw);
  });

  it.skipIf(!haveChromium)(`a POST without the CSRF token is refused (403) and changes nothing; with the form it pauses and resumes${skipped}`, async () => {
    await page.goto(`${base}/cron`);
    expect((await withCookie('/cron/morning-report/pause', form({}))).status).toBe(403);
    expect((await withCookie('/cron/morning-report/pause', form({ csrf: 'guess' }))).status).toBe(403);
    const jobs = (await (await withCookie('/api/cron')).json()) as { jobs: Array<{ id: string; paused: boolean }> };
    expect(jobs.jobs.find((j) => j.id === 'morning-report')?.paused).toBe(false);
    await Promise.all([page.waitForNavigation(), page.click('form[action="/cron/morning-report/pause"] button')]);
    expect(await visible()).toContain('morning-report paused');
    await Promise.all([page.waitForNavigation(), page.click('form[action="/cron/morning-report/resume"] button')]);
    expect(await visible()).toContain('morning-report resumed');
  });

  it.skipIf(!haveChromium)(`no page and no API answer holds a secret${skipped}`, async () => {
    const sessions = (await (await withCookie('/api/sessions')).json()) as { items: Array<{ id: string }> };
    const paths = ['/', '/sessions', '/sessions?page=2', '/cron', '/outbox', '/pairing', '/api/overview', '/api/sessions', '/api/cron', '/api/outbox', '/api/pairing'];
    for (const s of sessions.items) paths.push(`/sessions/${s.id}`, `/api/sessions/${s.id}`);
    for (const path of paths) {
      const res = await withCookie(path);
      expect(res.status, path).toBe(200);
      const body = await res.text();
      for (const secret of [API_KEY, tg.token, token]) expect(body.includes(secret), `${path} holds a secret`).toBe(false);
    }
  });
});
