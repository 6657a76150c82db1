/**
 * `switchboard sessions list|search` and the usage figures: turns run through the real gateway to
 * the model fake via a recording proxy, which keeps the usage the fake reported in each response;
 * `/usage` and `sessions list` must show exactly those sums.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/commands/sessions.js';
import type { CommandIO } from '../../src/commands/io.js';
import { UsageError } from '../../src/core/errors.js';
import { dm, startHarness, type Harness } from '../core/search/harness.js';
import { cleanUp } from '../helpers/cli.js';
import type { ModelFake } from '../fakes/model.js';

interface ReportedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

/** A loopback proxy in front of the fake that keeps each completion's reported usage. */
async function usageProxy(fake: ModelFake): Promise<{ url: string; usages: ReportedUsage[]; server: Server }> {
  const origin = new URL(fake.openaiUrl).origin;
  const usages: ReportedUsage[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const upstream = await fetch(origin + (req.url ?? '/'), {
          method: req.method,
          headers: { 'content-type': 'application/json', authorization: String(req.headers.authorization ?? '') },
          body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
        });
        const text = await upstream.text();
        const usage = (JSON.parse(text) as { usage?: ReportedUsage }).usage;
        if (usage) usages.push(usage);
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(text);
      })().catch((error: unknown) => {
        // the gateway then sees a failed model call, and the usage sums below do not match
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `usage proxy: ${String(error)}` } }));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, usages, server };
}

function io(env: NodeJS.ProcessEnv): CommandIO & { out: () => string } {
  let out = '';
  const stdout = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out += chunk.toString();
      cb();
    },
  });
  return { stdin: Readable.from([]), stdout, stderr: stdout, env, cwd: process.cwd(), out: () => out };
}

function sum(list: ReportedUsage[]) {
  const input = list.reduce((n, u) => n + u.prompt_tokens, 0);
  const cached = list.reduce((n, u) => n + (u.prompt_tokens_details?.cached_tokens ?? 0), 0);
  const output = list.reduce((n, u) => n + u.completion_tokens, 0);
  return { input, cached, output, rate: `${Math.round((100 * cached) / input)}%` };
}

describe('sessions command on an empty store', () => {
  it('prints a friendly line', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-sessions-empty-'));
    try {
      const a = io({ SWITCHBOARD_HOME: home });
      expect(await run(['list'], a)).toBe(0);
      expect(a.out()).toMatch(/^No sessions stored yet/);
      const b = io({ SWITCHBOARD_HOME: home });
      expect(await run(['search', 'anything'], b)).toBe(0);
      expect(b.out()).toMatch(/^No sessions stored yet.*nothing to search/);
      await expect(run(['frobnicate'], b)).rejects.toThrow(UsageError);
      await expect(run(['search'], b)).rejects.toThrow(/give the words/);
      await expect(run(['list', '--limit', 'x'], b)).rejects.toThrow(/--limit/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('usage figures', () => {
  let h: Harness;
  let proxy: Awaited<ReturnType<typeof usageProxy>>;

  beforeAll(async () => {
    h = await startHarness({
      configYaml: 'people:\n  alice: [telegram:1001, slack:U1001]\n',
      baseURL: async (fake) => {
        proxy = await usageProxy(fake);
        return proxy.url;
      },
    });
    for (const text of ['My cat eats tuna.', 'She is called Miso.', 'She is three years old.']) await h.say('telegram', '1001', text);
    for (const text of ['Any news?', 'Thanks!']) await h.say('slack', 'U1001', text, 'D1');
    await h.say('telegram', '2002', 'Hello from bob.');
  });
  afterAll(() =>
    cleanUp(
      () => h?.close(),
      () => {
        if (!proxy) return;
        proxy.server.closeAllConnections();
        return new Promise<void>((r) => proxy.server.close(() => r()));
      },
    ),
  );

  it('/usage shows the fake model’s reported usage for the conversation and for the person', async () => {
    expect(proxy.usages).toHaveLength(6);
    expect(proxy.usages.some((u) => (u.prompt_tokens_details?.cached_tokens ?? 0) > 0)).toBe(true);
    const slack = sum(proxy.usages.slice(3, 5));
    const alice = sum(proxy.usages.slice(0, 5));
    const reply = await h.say('slack', 'U1001', '/usage', 'D1');
    const lines = reply.split('\n');
    expect(lines).toHaveLength(3);
    // The fake's model has no price: the tokens, and a note saying so (the cost is tested in test/e2e/production.test.ts).
    expect(lines[0]).toBe(`**This conversation**: ${slack.input} in (${slack.cached} cached, ${slack.rate}), ${slack.output} out; no price for main-model (pricing:)`);
    expect(lines[1]).toMatch(/^\*\*Today\*\* \(UTC\): \d+ tokens; \$0$/);
    expect(lines[2]).toBe(`**All your conversations** (2): ${alice.input} in (${alice.cached} cached, ${alice.rate}), ${alice.output} out; $0`);
  });

  it('sessions list shows each session and each person with the same figures', async () => {
    const c = io(h.env);
    expect(await run(['list'], c)).toBe(0);
    const out = c.out();
    const lines = out.split('\n');
    const tg = (await h.store.sessions.findOpen(dm('telegram', '1001')))!;
    const telegram = sum(proxy.usages.slice(0, 3));
    const tgLine = lines.find((l) => l.startsWith(tg.id))!;
    expect(tgLine.split(/\s{2,}/)).toEqual([
      tg.id,
      'telegram:1001:1001',
      'telegram',
      'alice',
      '2025-03-10 10:00',
      '2025-03-10 10:00',
      'open',
      '3',
      String(telegram.input),
      String(telegram.output),
      String(telegram.cached),
      telegram.rate,
      '0',
    ]);
    const alice = sum(proxy.usages.slice(0, 5));
    const personLine = lines.slice(lines.indexOf('Usage per person (all sessions):')).find((l) => l.startsWith('alice'))!;
    expect(personLine.split(/\s+/)).toEqual(['alice', '2', '5', String(alice.input), String(alice.output), String(alice.cached), alice.rate]);
    expect(out).toContain('telegram-2002');

    const onlyBob = io(h.env);
    expect(await run(['list', '--person', 'telegram-2002'], onlyBob)).toBe(0);
    expect(onlyBob.out()).toContain('telegram:2002:2002');
    expect(onlyBob.out()).not.toContain('alice');

    // one of three shown: the note about the rest says "one", not "the 1 most recently active"
    const one = io(h.env);
    expect(await run(['list', '--limit', '1'], one)).toBe(0);
    expect(one.out()).toContain('\n(only the most recently active one; --limit N shows more)\n');
  });

  it('sessions search finds across everyone, with person, session, platform and date', async () => {
    const c = io(h.env);
    expect(await run(['search', 'tuna'], c)).toBe(0);
    const tg = (await h.store.sessions.findOpen(dm('telegram', '1001')))!;
    expect(c.out()).toMatch(new RegExp(`^1\\. alice  ${tg.id} \\(telegram\\)  2025-03-10 10:00  user: My cat eats \\[tuna\\]`));
    const none = io(h.env);
    await run(['search', 'zeppelin'], none);
    expect(none.out()).toBe("No stored message matches 'zeppelin'.\n");
  });
});
