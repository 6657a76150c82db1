/**
 * Bad input: thousands of random and malformed updates, events and payloads into each adapter's entry
 * point — Telegram updates through getUpdates, Slack events and commands signed correctly (and some
 * forged) into Bolt's receiver, Discord gateway dispatches — with the whole runtime behind them and
 * every user allowed. Nothing crashes, the model is never called, each rejection is logged, and a
 * real message afterwards is still answered on every platform.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { startSlackFake, postSigned, eventBody, type SlackFake } from '../fakes/slack.js';
import { startDiscordFake, type DiscordFake } from '../fakes/discord.js';
import { createTelegramAdapter } from '../../src/adapters/telegram/index.js';
import { createSlackAdapter, SLACK_EVENTS_PATH, type SlackAdapter } from '../../src/adapters/slack/index.js';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import { cleanUp } from '../helpers/cli.js';
import { makeHarness, until, type Harness } from './harness.js';
import { discordDispatch, rng, slackBody, telegramUpdate } from './junk.js';

const SECRET = 'slack-signing-secret-for-faults';
let model: ModelFake;
let tg: TelegramFake;
let slack: SlackFake;
let discord: DiscordFake;
let h: Harness;
let slackAdapter: SlackAdapter;
const crashes: unknown[] = [];
const onCrash = (e: unknown) => void crashes.push(e);

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  model = await startModelFake();
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  slack = await startSlackFake();
  discord = await startDiscordFake();
  h = makeHarness({
    OPENAI_BASE_URL: model.openaiUrl,
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.url,
    TELEGRAM_ALLOWED_USERS: '*',
    SLACK_BOT_TOKEN: slack.token,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
    SLACK_ALLOWED_USERS: '*',
    DISCORD_BOT_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_ALLOWED_USERS: '*',
  });
  const s = h.settings;
  const deps = { config: s.config, logger: h.logger, home: h.home };
  slackAdapter = createSlackAdapter(s.slack!, deps);
  await h.attach(
    createTelegramAdapter(s.telegram!, { ...deps, pollTimeoutSeconds: 1, stopGraceMs: 300 }),
    slackAdapter,
    createDiscordAdapter(s.discord!, deps),
  );
});

afterAll(() =>
  cleanUp(
    () => h?.close(),
    () => tg?.close(),
    () => slack?.close(),
    () => discord?.close(),
    () => model?.close(),
    () => process.off('uncaughtException', onCrash),
    () => process.off('unhandledRejection', onCrash),
  ),
);

describe('random and malformed input into every adapter', () => {
  it('Telegram: 2,000 broken updates are each logged and skipped; nothing is confirmed twice or blocks the queue', async () => {
    const r = rng(10);
    const ids: number[] = [];
    for (let i = 0; i < 2000; i++) ids.push(tg.pushUpdate(telegramUpdate(r)));
    await tg.waitForConfirmed(ids[ids.length - 1] + 1, 20_000);
    const logged = h.logger.lines.filter((l) => l.startsWith('warn [telegram] skipping malformed update'));
    const loggedIds = new Set(logged.map((l) => Number(/update (\d+)/.exec(l)?.[1])));
    for (const id of ids) expect(loggedIds.has(id)).toBe(true);
    expect(model.completions()).toHaveLength(0);
    expect(tg.sent).toHaveLength(0);
  });

  it('Slack: 1,500 signed broken events and commands are acknowledged with 200, junk bodies refused without a 5xx, 200 forged ones get 401; none gets a turn', async () => {
    const r = rng(20);
    const url = `http://127.0.0.1:${slackAdapter.port}${SLACK_EVENTS_PATH}`;
    const kinds = { event: 0, command: 0, junk: 0 };
    const bodies = Array.from({ length: 1500 }, (_, i) => slackBody(r, i));
    // All at once: Bolt holds a body whose type it cannot tell for its 3 s ack timer before answering.
    const responses = await Promise.all(bodies.map((b) => postSigned(url, SECRET, b.body)));
    const wrong: string[] = [];
    bodies.forEach((b, j) => {
      kinds[b.kind]++;
      const { status } = responses[j];
      // A signed event or command is acknowledged with 200 (anything else and Slack redelivers it, again
      // and again); a body that is neither is refused or ignored, never answered with a server error.
      const ok = b.kind === 'junk' ? status >= 200 && status < 500 : status === 200;
      if (!ok) wrong.push(`${b.kind} ${status}: ${b.body.slice(0, 120)}`);
    });
    expect(wrong).toEqual([]);
    expect(Math.min(kinds.event, kinds.command, kinds.junk)).toBeGreaterThan(100); // every kind was tried
    for (let i = 0; i < 200; i++) {
      const res = await postSigned(url, SECRET, eventBody({ type: 'message', channel: 'D1', channel_type: 'im', user: 'U1', text: 'forged', ts: `${i}.1` }), { signWith: 'wrong-secret' });
      expect(res.status).toBe(401);
    }
    expect(model.completions()).toHaveLength(0);
    expect(slack.messages).toHaveLength(0);
    // Every broken request is logged: by the adapter (ignored: malformed …) or by Bolt (through the adapter's logger).
    const rejections = h.logger.lines.filter((l) => /^(warn|error) \[slack\]/.test(l));
    expect(rejections.length).toBeGreaterThanOrEqual(kinds.event + kinds.command + kinds.junk);
  });

  it('Discord: 2,000 broken gateway dispatches are dropped and logged', async () => {
    const r = rng(30);
    const before = h.logger.lines.length;
    let shaped = 0;
    for (let i = 0; i < 2000; i++) {
      const { t, d } = discordDispatch(r, discord.dmChannelId('7002'));
      if (t === 'MESSAGE_CREATE' || t === 'INTERACTION_CREATE') shaped++;
      discord.dispatchRaw(t, d);
    }
    await until(() => h.logger.lines.slice(before).filter((l) => l.includes('dropped a malformed gateway event')).length >= shaped, 10_000, 'a log line per malformed dispatch');
    expect(model.completions()).toHaveLength(0);
    expect(discord.messages).toHaveLength(0);
  });

  it('still answers a real message on every platform afterwards, and nothing crashed', async () => {
    tg.pushText({ text: 'real telegram message', userId: 7001 });
    await postSigned(`http://127.0.0.1:${slackAdapter.port}${SLACK_EVENTS_PATH}`, SECRET, eventBody({ type: 'message', channel: 'D0REAL', channel_type: 'im', user: 'U0REAL', text: 'real slack message', ts: '1700000000.000200' }));
    discord.sendDM({ userId: '7003', content: 'real discord message' });
    await tg.waitForMessages(1, 10_000);
    await slack.waitForMessages(1, 10_000);
    await discord.waitForMessages(1, 10_000);
    expect(tg.sent[0].plain).toBe('Echo: real telegram message');
    expect(slack.messages[0].text).toContain('Echo: real slack message');
    expect(discord.messages[0].content).toContain('Echo: real discord message');
    expect(model.completions()).toHaveLength(3);
    expect(crashes).toEqual([]);
    // Bolt reports bodies it cannot parse at error level ("not acknowledged within 3 seconds", "unhandled
    // error … while Bolt processed an event"); nothing else may have failed.
    expect(h.logger.lines.filter((l) => l.startsWith('error') && !l.startsWith('error [slack]'))).toEqual([]);
  });
});
