/**
 * Discord adapter lifecycle against the fake: bad tokens, a fixed gateway URL, clean stop, and `/ask`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import { ConfigError, CredentialsError, PlatformApiError } from '../../src/core/errors.js';
import type { Adapter } from '../../src/core/types.js';
import { startDiscordFake, type DiscordFake } from '../fakes/discord.js';
import { freePort } from '../helpers/ports.js';
import { delivery, depsWith, inbox, settingsFor, sleep } from './discord.helpers.js';

let fake: DiscordFake;
/** Adapters a test makes, closed after it whatever happened. */
const made: Adapter[] = [];

function make(...args: Parameters<typeof createDiscordAdapter>): Adapter {
  const adapter = createDiscordAdapter(...args);
  made.push(adapter);
  return adapter;
}

beforeAll(async () => {
  fake = await startDiscordFake();
});

afterEach(async () => {
  await Promise.all(made.splice(0).map((a) => a.close()));
});

afterAll(async () => {
  await fake?.close();
});

describe('discord adapter: credentials', () => {
  it('rejects start() with one line when GET /gateway/bot answers 401', async () => {
    const adapter = make(settingsFor(fake, { token: 'wrong-token-123' }), depsWith());
    const error = await adapter.start(async () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CredentialsError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Discord rejected DISCORD_BOT_TOKEN/);
    expect(message).not.toContain('\n');
    expect(message).not.toContain('wrong-token-123');
  });

  it('rejects start() with one line when the gateway closes with 4004 (fixed DISCORD_GATEWAY_URL)', async () => {
    const before = fake.connections.length;
    const adapter = make(settingsFor(fake, { token: 'wrong-token-456', gatewayUrl: fake.gatewayUrl }), depsWith());
    const error = await adapter.start(async () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CredentialsError);
    expect((error as Error).message).toMatch(/^Discord rejected DISCORD_BOT_TOKEN/);
    const conns = fake.connections.slice(before);
    for (let i = 0; i < 20 && conns[0]?.closedWith === undefined; i++) await sleep(25);
    expect(conns.map((c) => c.closedWith)).toEqual([4004]);
  });
});

describe('discord adapter: a DISCORD_API_URL that is not Discord', () => {
  it('rejects start() with one line naming DISCORD_API_URL when GET /gateway/bot answers 200 without a gateway', async () => {
    const other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/api`;
    try {
      const adapter = make(settingsFor(fake, { apiUrl: url }), depsWith());
      const error = await adapter.start(async () => {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(
        `DISCORD_API_URL ${url}: GET /gateway/bot gave no gateway (url Invalid input: expected string, received undefined): it must be the unversioned Discord REST base (https://discord.com/api, or a proxy of it)`,
      );
    } finally {
      other.closeAllConnections();
      await new Promise<void>((r) => other.close(() => r()));
    }
  });
});

describe('discord adapter: token as pasted', () => {
  it('takes DISCORD_BOT_TOKEN with the "Bot " prefix of the header as well', async () => {
    const box = inbox();
    const adapter = make(settingsFor(fake, { token: `Bot ${fake.token}` }), depsWith('discord: { slash_command: false }'));
    await adapter.start(box.handler);
    const id = fake.sendDM({ userId: '400000000000000009', content: 'prefixed token' });
    await box.waitFor((m) => m.messageId === id);
    await adapter.deliver(delivery({ platform: 'discord', chatId: fake.channelId }, ['sent with the prefixed token']));
    expect(fake.messages.at(-1)?.content).toBe('sent with the prefixed token');
  });
});

describe('discord adapter: unreachable endpoints', () => {
  it('rejects start() with one line when DISCORD_API_URL does not answer', async () => {
    const apiUrl = `http://127.0.0.1:${await freePort()}/api`;
    const adapter = make(settingsFor(fake, { apiUrl }), depsWith());
    const error = await adapter.start(async () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect((error as Error).message).toBe(`discord connect: cannot reach the Discord API at ${apiUrl} (DISCORD_API_URL): ECONNREFUSED`);
  });

  it('names the reason when fetch will not dial DISCORD_API_URL at all (a port fetch blocks, such as 9)', async () => {
    const adapter = make(settingsFor(fake, { apiUrl: 'http://127.0.0.1:9/api' }), depsWith());
    const error = await adapter.start(async () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect((error as Error).message).toBe('discord connect: cannot reach the Discord API at http://127.0.0.1:9/api (DISCORD_API_URL): bad port');
  });

  it('rejects start() with one line naming DISCORD_API_URL when GET /gateway/bot answers 404 (not the REST base)', async () => {
    const wrong = fake.apiUrl.replace(/\/api$/, '/not-the-api');
    const adapter = make(settingsFor(fake, { apiUrl: wrong }), depsWith());
    const error = await adapter.start(async () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `DISCORD_API_URL ${wrong} answered 404 to GET /gateway/bot: it must be the unversioned Discord REST base (https://discord.com/api, or a proxy of it)`,
    );
  });

  it('rejects start() instead of hanging when the gateway drops every connection, and stops reconnecting', async () => {
    // A gateway that accepts the socket and hangs up at once (what a wrong DISCORD_GATEWAY_URL often does).
    const dropper = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => dropper.once('listening', () => r()));
    let attempts = 0;
    dropper.on('connection', (socket) => {
      attempts++;
      socket.terminate();
    });
    const url = `ws://127.0.0.1:${(dropper.address() as AddressInfo).port}`;
    try {
      const adapter = make(settingsFor(fake, { gatewayUrl: url }), depsWith(), { readyTimeoutMs: 1500 });
      const started = Date.now();
      const error = await adapter.start(async () => {}).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(error).toBeInstanceOf(PlatformApiError);
      expect((error as Error).message).toBe(`discord connect: no READY from the gateway at ${url} within 2 s`);
      expect(attempts).toBeGreaterThanOrEqual(1);
      const after = attempts;
      await sleep(1200); // @discordjs/ws retries every ~500 ms; a leaked client would show up here
      expect(attempts).toBe(after);
    } finally {
      await new Promise<void>((r) => dropper.close(() => r()));
    }
  });
});

describe('discord adapter: stop while connecting', () => {
  it('a close() while the gateway has not said HELLO ends start() at once and leaves no socket open', async () => {
    // A gateway that takes the socket and never speaks.
    const silent = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => silent.once('listening', () => r()));
    let open = 0;
    silent.on('connection', (socket) => {
      open++;
      socket.on('close', () => open--);
    });
    try {
      const adapter = make(settingsFor(fake, { gatewayUrl: `ws://127.0.0.1:${(silent.address() as AddressInfo).port}` }), depsWith());
      const started = adapter.start(async () => {}).then(
        () => 'started',
        () => 'rejected',
      );
      for (let i = 0; i < 40 && open === 0; i++) await sleep(25);
      expect(open).toBe(1);
      const closing = Date.now();
      await adapter.close();
      expect(await started).toBe('rejected');
      expect(Date.now() - closing).toBeLessThan(1000);
      for (let i = 0; i < 40 && open > 0; i++) await sleep(25);
      expect(open).toBe(0);
    } finally {
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});

describe('discord adapter: fixed gateway URL, stop, restart', () => {
  it('connects straight to DISCORD_GATEWAY_URL without asking GET /gateway/bot, and stops cleanly', async () => {
    const gatewayBotCalls = () => fake.requests.filter((r) => r.path === '/gateway/bot').length;
    const calls = gatewayBotCalls();
    const before = fake.connections.length;
    const box = inbox();
    const adapter = make(settingsFor(fake, { gatewayUrl: fake.gatewayUrl }), depsWith('discord: { slash_command: false }'));
    await adapter.start(box.handler);
    expect(gatewayBotCalls()).toBe(calls);
    const id = fake.sendDM({ userId: '400000000000000001', content: 'via fixed gateway' });
    await box.waitFor((m) => m.messageId === id);

    await adapter.stop();
    const conn = fake.connections[before];
    for (let i = 0; i < 20 && conn.closedWith === undefined; i++) await sleep(25);
    expect(conn.closedWith).toBe(1000);
    // After stop nothing is handed on, and a second stop is harmless.
    const late = fake.sendDM({ userId: '400000000000000001', content: 'too late' });
    await sleep(100);
    expect(box.received.some((m) => m.messageId === late)).toBe(false);
    await adapter.stop();

    // deliver still works after stop (outbox drains on shutdown), and the adapter can start again.
    const sent = fake.messages.length;
    await adapter.deliver(delivery({ platform: 'discord', chatId: fake.channelId }, ['after stop']));
    expect(fake.messages.length).toBe(sent + 1);
    await adapter.start(box.handler);
    const again = fake.sendDM({ userId: '400000000000000001', content: 'back again' });
    await box.waitFor((m) => m.messageId === again);
    await adapter.stop();
  });
});

describe('discord adapter: /ask slash command', () => {
  it('registers /ask, defers within 3 s, and answers through the interaction webhook', async () => {
    const box = inbox();
    const adapter = make(settingsFor(fake), depsWith());
    await adapter.start(box.handler);
    try {
      for (let i = 0; i < 40 && fake.commandRegistrations.length === 0; i++) await sleep(25);
      expect(fake.commandRegistrations.at(-1)).toMatchObject([{ name: 'ask', type: 1, options: [{ name: 'prompt', type: 3, required: true }] }]);

      const sentAt = Date.now();
      const { interactionId, token } = fake.sendSlashCommand({ userId: '400000000000000002', username: 'bob', prompt: 'summarise the news' });
      const m = await box.waitFor((x) => x.messageId === interactionId);
      const callback = fake.interactionCallbacks.find((c) => c.interactionId === interactionId);
      expect(callback?.type).toBe(5); // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
      expect(callback!.at - sentAt).toBeLessThan(3000);
      expect(m).toMatchObject({ text: 'summarise the news', userId: '400000000000000002', chatId: fake.channelId, isDirect: false, mentionsBot: false, command: { name: 'ask', forBot: true }, chatTitle: '#general' });
      expect(m.replyTarget.extra).toMatchObject({ channelId: fake.channelId, interactionToken: token, applicationId: fake.applicationId });

      const before = fake.messages.length;
      await adapter.deliver(delivery(m.replyTarget, ['answer part 1 @everyone', 'answer part 2']));
      const sent = fake.messages.slice(before);
      expect(sent.map((s) => [s.kind, s.content])).toEqual([
        ['interaction-original', 'answer part 1 @everyone'],
        ['interaction-followup', 'answer part 2'],
      ]);
      for (const s of sent) {
        expect(s.allowedMentions).toEqual({ parse: [] });
        expect(s.pingsEveryone).toBe(false);
      }

      // A DM slash command is direct.
      const dm = fake.sendSlashCommand({ userId: '400000000000000002', prompt: 'in private', dm: true });
      const dmMessage = await box.waitFor((x) => x.messageId === dm.interactionId);
      expect(dmMessage).toMatchObject({ isDirect: true, chatId: fake.dmChannelId('400000000000000002') });
    } finally {
      await adapter.close();
    }
  });

  it('falls back to a channel message when the interaction token no longer works', async () => {
    const adapter = make(settingsFor(fake), depsWith());
    const before = fake.messages.length;
    await adapter.deliver(
      delivery(
        { platform: 'discord', chatId: fake.channelId, extra: { channelId: fake.channelId, interactionToken: 'expired-token', applicationId: fake.applicationId } },
        ['late answer'],
      ),
    );
    expect(fake.messages.slice(before)).toMatchObject([{ kind: 'channel', channelId: fake.channelId, content: 'late answer' }]);
  });
});
