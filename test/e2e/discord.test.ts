/**
 * `switchboard start` with Discord: the real command as a child process, the real @discordjs/ws gateway client and @discordjs/rest against
 * the loopback REST + gateway fake (found through GET /gateway/bot, or given as DISCORD_GATEWAY_URL), the
 * model fake answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { startDiscordFake, type DiscordFake } from '../fakes/discord.js';
import { messageCreate, snowflake, user } from '../fakes/discord/payloads.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, runCli, startCli, until, type Running } from '../helpers/cli.js';

const ALICE = '300000000000000001';
const BOB = '300000000000000002';
const STRANGER = '300000000000000099';

let model: ModelFake;
let discord: DiscordFake;
let home: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const codePoints = (s: string) => [...s].length;

beforeAll(async () => {
  model = await startModelFake({ script: (req) => ({ text: `You said: **${lastUserText(req).split('\n').at(-1)}**` }) });
  discord = await startDiscordFake({ heartbeatInterval: 500 });
  home = mkdtempSync(join(tmpdir(), 'sb-discord-e2e-'));
});
afterAll(() => cleanUp(() => discord?.close(), () => model?.close(), () => removeDir(home)));

function env(extra: Record<string, string> = {}) {
  return cleanEnv({
    SWITCHBOARD_HOME: home,
    OPENAI_BASE_URL: model.openaiUrl,
    OPENAI_API_KEY: 'sk-e2e',
    MODEL: 'fake-model',
    DISCORD_BOT_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_ALLOWED_USERS: `${ALICE},${BOB}`,
    ...extra,
  });
}

/** Messages the bot posted since index `from`, once `n` of them are there. */
async function postedSince(from: number, n: number, timeoutMs = 8000) {
  return (await discord.waitForMessages(from + n, timeoutMs)).slice(from);
}

describe('switchboard start with Discord (gateway from GET /gateway/bot)', () => {
  let gw: Running;

  beforeAll(async () => {
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(discord/);
  });
  afterAll(() => killIfRunning(gw));

  it('connected through the real handshake (IDENTIFY with the four intents, heartbeats)', () => {
    const conn = discord.connections.at(-1)!;
    expect(conn.identify?.token).toBe(discord.token);
    // GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES | MESSAGE_CONTENT
    expect(conn.identify!.intents & (1 | 512 | 4096 | 32768)).toBe(1 | 512 | 4096 | 32768);
    expect(discord.requests.some((r) => r.method === 'GET' && r.path === '/gateway/bot')).toBe(true);
  });

  it('answers a DM end to end, as a reply to it, without pinging anyone', async () => {
    const n = discord.messages.length;
    const id = discord.sendDM({ userId: ALICE, content: 'hello from a DM' });
    const [answer] = await postedSince(n, 1);
    expect(answer.channelId).toBe(discord.dmChannelId(ALICE));
    expect(answer.content).toBe('You said: **hello from a DM**');
    expect(answer.replyTo).toBe(id);
    expect(answer.allowedMentions).toEqual({ parse: [] });
    expect(answer.extraKeys).toEqual([]);
  });

  it('answers a DM whose MESSAGE_CREATE carries no channel_type (no guild_id means a DM)', async () => {
    const n = discord.messages.length;
    const channelId = discord.dmChannelId(BOB);
    discord.dispatchRaw('MESSAGE_CREATE', messageCreate({ id: snowflake(), channelId, author: user(BOB, 'bob'), content: 'no channel type here' }));
    const [answer] = await postedSince(n, 1);
    expect(answer.channelId).toBe(channelId);
    expect(answer.content).toBe('You said: **no channel type here**');
  });

  it('splits a long answer into messages of at most 2,000 code points, in order, nothing lost', async () => {
    const para = 'word 🙂 '.repeat(120).trim();
    model.queue({ text: Array.from({ length: 10 }, (_, i) => `Paragraph ${i}: ${para}`).join('\n\n') });
    const n = discord.messages.length;
    discord.sendDM({ userId: ALICE, content: 'tell me a lot' });
    await postedSince(n, 3);
    // wait for the last paragraph to arrive
    const deadline = Date.now() + 8000;
    while (!discord.messages.slice(n).some((m) => m.content.includes('Paragraph 9:')) && Date.now() < deadline) await sleep(50);
    const parts = discord.messages.slice(n);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(codePoints(p.content)).toBeLessThanOrEqual(2000);
      expect(p.channelId).toBe(discord.dmChannelId(ALICE));
      expect(p.allowedMentions).toEqual({ parse: [] });
    }
    const text = parts.map((p) => p.content).join('\n');
    for (let i = 0; i < 10; i++) expect(text.split(`Paragraph ${i}:`).length - 1).toBe(1);
    expect(text.indexOf('Paragraph 3:')).toBeLessThan(text.indexOf('Paragraph 7:'));
    // only the first chunk is a reply
    expect(parts.slice(1).every((p) => p.messageReference === undefined)).toBe(true);
  });

  it('ignores a guild message without a mention (no model call) and answers a mention as a reply in the same channel', async () => {
    const before = model.completions().length;
    const n = discord.messages.length;
    discord.sendGuildMessage({ userId: ALICE, content: 'just chatting with people' });
    await sleep(600);
    expect(model.completions().length).toBe(before);
    expect(discord.messages.length).toBe(n);

    const id = discord.sendGuildMessage({ userId: ALICE, content: 'what now?', mentionsBot: true });
    const [answer] = await postedSince(n, 1);
    expect(answer.channelId).toBe(discord.channelId);
    expect(answer.kind).toBe('channel');
    expect(answer.replyTo).toBe(id);
    expect(answer.content).toBe('You said: **what now?**');
    expect(model.completions().length).toBe(before + 1);
  });

  it('never pings @everyone or @here from the model\'s answer', async () => {
    model.queue({ text: 'Hey @everyone and @here, look at <@&123456789012345678> and <@300000000000000002>!' });
    const n = discord.messages.length;
    discord.sendGuildMessage({ userId: BOB, content: 'announce it', mentionsBot: true });
    const [answer] = await postedSince(n, 1);
    expect(answer.pingsEveryone).toBe(false);
    expect(answer.allowedMentions).toEqual({ parse: [] });
    expect(answer.content).not.toMatch(/@(everyone|here)\b/);
    expect(answer.content).not.toMatch(/<@[!&]?\d+>/);
    expect(answer.content).toContain('everyone');
  });

  it('waits out a 429 from REST as long as Discord says, then sends the chunk exactly once', async () => {
    const n = discord.messages.length;
    const r0 = discord.requests.length;
    const content = 'You said: **rate me**';
    discord.failNext({ route: 'messages', status: 429, retryAfter: 1 });
    // when the 429 was served and when the answer was accepted, sampled every 5 ms
    const seen = { limited: 0, answered: 0 };
    const sample = setInterval(() => {
      if (!seen.limited && discord.requests.slice(r0).some((r) => r.status === 429)) seen.limited = Date.now();
      if (!seen.answered && discord.messages.slice(n).some((m) => m.content === content)) seen.answered = Date.now();
    }, 5);
    try {
      discord.sendDM({ userId: BOB, content: 'rate me' });
      await postedSince(n, 1);
      await until(() => seen.answered > 0, 2000, 'the sampler to see the answer');
      await sleep(500); // a second copy would show up now
    } finally {
      clearInterval(sample);
    }
    const posts = discord.requests.slice(r0).filter((r) => r.method === 'POST' && r.path === `/channels/${discord.dmChannelId(BOB)}/messages`);
    expect(posts.map((r) => [r.status, (r.body as { content?: string }).content])).toEqual([
      [429, content],
      [200, content],
    ]);
    expect(seen.limited).toBeGreaterThan(0);
    expect(seen.answered - seen.limited).toBeGreaterThanOrEqual(900);
    const mine = discord.messages.slice(n).filter((m) => m.content === content);
    expect(mine).toHaveLength(1);
    expect(mine[0].channelId).toBe(discord.dmChannelId(BOB));
  });

  it('refuses a user outside DISCORD_ALLOWED_USERS with one line and no model call', async () => {
    const before = model.requests.length;
    const n = discord.messages.length;
    discord.sendDM({ userId: STRANGER, content: 'let me in' });
    const [refusal] = await postedSince(n, 1);
    await sleep(300);
    expect(discord.messages.length).toBe(n + 1);
    expect(refusal.channelId).toBe(discord.dmChannelId(STRANGER));
    expect(refusal.content.split('\n')).toHaveLength(1);
    expect(refusal.content).toMatch(/private/);
    expect(model.requests.length).toBe(before);
  });

  it('stops on SIGTERM with exit 0, also while a turn is running', async () => {
    model.queue({ text: 'late but complete', delayMs: 1200 });
    const n = discord.messages.length;
    const asked = model.requests.length;
    discord.sendDM({ userId: ALICE, content: 'slow one' });
    await model.waitForRequests(asked + 1, 5000); // the turn is running when the signal comes
    const started = Date.now();
    expect(await gw.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(discord.messages.slice(n).map((m) => m.content)).toContain('late but complete');
    expect(gw.stderr()).not.toMatch(/\n\s+at /);
  });
});

describe('switchboard start with Discord and chats: require_mention: false', () => {
  const RAW_GUILD = '310000000000000001';
  const CLOSED_RAW = '310000000000000003';
  let gw: Running;
  let openHome: string;

  beforeAll(async () => {
    openHome = mkdtempSync(join(tmpdir(), 'sb-discord-e2e-open-'));
    writeFileSync(join(openHome, 'config.yaml'), `chats:\n  "discord:${discord.channelId}": { require_mention: false }\n`);
    gw = startCli(['start'], { env: env({ SWITCHBOARD_HOME: openHome }) });
    await gw.waitFor(/ready \(discord/);
  });
  afterAll(() => cleanUp(() => killIfRunning(gw), () => removeDir(openHome)));

  it('answers an unmentioned guild message in that channel, as a reply, and in its threads', async () => {
    const n = discord.messages.length;
    const id = discord.sendGuildMessage({ userId: ALICE, content: 'no mention, still answered' });
    const [answer] = await postedSince(n, 1);
    expect(answer).toMatchObject({ channelId: discord.channelId, kind: 'channel', replyTo: id, content: 'You said: **no mention, still answered**' });

    const inThread = discord.sendGuildMessage({ userId: ALICE, channelId: discord.threadId, content: 'and in the thread' });
    const [threadAnswer] = await postedSince(n + 1, 1);
    expect(threadAnswer).toMatchObject({ channelId: discord.threadId, replyTo: inThread, content: 'You said: **and in the thread**' });
  });

  it('still ignores an unmentioned message in a chat without the setting (an uncached guild here), with no model call', async () => {
    const n = discord.messages.length;
    const before = model.completions().length;
    discord.dispatchRaw('MESSAGE_CREATE', messageCreate({ id: snowflake(), channelId: CLOSED_RAW, guildId: RAW_GUILD, author: user(ALICE, 'alice'), content: 'chatter elsewhere' }));
    // a DM after it is answered: the chatter before it was ignored, not just slow
    discord.sendDM({ userId: ALICE, content: 'marker' });
    const [answer] = await postedSince(n, 1);
    expect(answer.content).toBe('You said: **marker**');
    await sleep(300);
    expect(discord.messages.length).toBe(n + 1);
    expect(model.completions().length).toBe(before + 1);
  });
});

describe('switchboard start with DISCORD_GATEWAY_URL', () => {
  it('connects to the given gateway without asking GET /gateway/bot, answers a DM, and stops with exit 0', async () => {
    const askedBefore = discord.requests.filter((r) => r.path === '/gateway/bot').length;
    // written the way people copy them: the version on the REST base, the query on the gateway URL
    const gw = startCli(['start'], { env: env({ DISCORD_API_URL: `${discord.apiUrl}/v10/`, DISCORD_GATEWAY_URL: `${discord.gatewayUrl}/?v=10&encoding=json` }) });
    try {
      await gw.waitFor(/ready \(discord/);
      const n = discord.messages.length;
      discord.sendDM({ userId: BOB, content: 'via the fixed gateway' });
      const [answer] = await postedSince(n, 1);
      expect(answer.content).toBe('You said: **via the fixed gateway**');
      expect(discord.requests.filter((r) => r.path === '/gateway/bot').length).toBe(askedBefore);
      expect(await gw.stop('SIGTERM')).toBe(0);
    } finally {
      await killIfRunning(gw);
    }
  });
});

describe('switchboard start with a bad DISCORD_BOT_TOKEN', () => {
  for (const withGateway of [false, true]) {
    it(`exits non-zero with one clear line and no stack trace${withGateway ? ' (DISCORD_GATEWAY_URL set)' : ''}`, async () => {
      const res = await runCli(['start'], {
        env: env({ DISCORD_BOT_TOKEN: 'MTIz.bad.token', ...(withGateway ? { DISCORD_GATEWAY_URL: discord.gatewayUrl } : {}) }),
        timeoutMs: 20_000,
      });
      expect(res.code).not.toBe(0);
      expect(res.code).not.toBeNull();
      // the whole of stderr is the one line
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^switchboard: .*DISCORD_BOT_TOKEN/);
      expect(res.stderr).not.toMatch(/\n\s+at /);
      expect(res.stderr).not.toContain('MTIz.bad.token');
    });
  }
});

describe('switchboard start with a wrong DISCORD_API_URL', () => {
  // Some other web server: 404 with an HTML page for every path.
  let html: Server;
  let htmlUrl = '';
  beforeAll(async () => {
    html = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise<void>((resolve) => html.close(() => resolve())));
  const cases: Array<[string, () => string]> = [
    // The loopback fake answers 404 to anything outside /api/v10/ (a base with the wrong path).
    ['answers 404 (not the REST base)', () => discord.apiUrl.replace(/\/api$/, '/wrong')],
    ['answers 404 with an HTML page (some other web server)', () => htmlUrl],
    ['cannot be reached', () => 'http://127.0.0.1:9/api'],
  ];
  for (const [what, url] of cases) {
    it(`exits non-zero with exactly one line naming DISCORD_API_URL when it ${what}, no stack trace`, async () => {
      const res = await runCli(['start'], { env: env({ DISCORD_API_URL: url() }), timeoutMs: 20_000 });
      expect(res.code).not.toBe(0);
      expect(res.code).not.toBeNull();
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^switchboard: .*DISCORD_API_URL/);
      expect(lines[0]).toContain(url());
      expect(res.stderr).not.toMatch(/\n\s+at /);
      expect(res.stderr).not.toContain(discord.token);
    });
  }
});
