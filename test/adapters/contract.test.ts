/**
 * Every adapter runs the one contract (./contract.ts) against its loopback fake. Each harness below
 * is the whole per-platform part: make the adapter, make the fake send an event, read what the fake
 * received, make the fake answer 429.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createCliAdapter, CLI_CHAT_ID } from '../../src/adapters/cli.js';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import { createEmailAdapter } from '../../src/adapters/email/index.js';
import { createSlackAdapter } from '../../src/adapters/slack/index.js';
import { parseConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { parseAllowList } from '../../src/core/settings.js';
import { startDiscordFake } from '../fakes/discord.js';
import { eventBody, postSigned, startSlackFake } from '../fakes/slack.js';
import { startSmtpFake } from '../fakes/smtp.js';
import { startTelegramFake } from '../fakes/telegram.js';
import { adapterContract, type Injected } from './contract.js';
import { depsWith, settingsFor } from './discord.helpers.js';
import { makeAdapter as makeTelegramAdapter } from './telegram-helpers.js';

const portOf = (url: string) => Number(new URL(url).port);

adapterContract({
  name: 'telegram',
  platform: 'telegram',
  shape: 'per-chunk',
  inbound: ['direct', 'thread'],
  groups: true,
  rateLimits: true,
  pooled: true,
  typing: true,
  async setup() {
    const fake = await startTelegramFake({ maxPollHoldMs: 500 });
    const adapter = makeTelegramAdapter(fake);
    const user = 1001;
    return {
      adapter,
      target: { platform: 'telegram', chatId: String(user) },
      ports: [portOf(fake.url)],
      landed: () => fake.sent.map((m) => ({ chat: m.threadId === undefined ? m.chatId : `${m.chatId}/${m.threadId}`, text: m.plain })),
      async inject(kind, text): Promise<Injected> {
        const id =
          kind === 'direct'
            ? fake.pushText({ userId: user, text })
            : fake.pushText({ chatId: -1001234567890, chatType: 'supergroup', userId: user, threadId: 77, text: `@${fake.bot.username} ${text}` });
        return { confirmed: async () => fake.confirmedOffset > id };
      },
      async injectGroup(fact, text) {
        const group = { chatId: -1001234567890, chatType: 'supergroup' as const, userId: user, text };
        fake.pushText(fact === 'unaddressed' ? group : { ...group, replyTo: { messageId: 1, fromBot: true } });
      },
      rateLimitNextSend: (seconds) => fake.failNext('sendMessage', { kind: 'rate_limit', retryAfter: seconds }),
      served429: () => fake.callsOf('sendMessage').filter((c) => c.status === 429).length,
      typingSeen: () => fake.callsOf('sendChatAction').filter((c) => c.status === 200).length,
      openConnections: () => fake.openConnections(),
      dispose: () => fake.close(),
    };
  },
});

const SLACK_SECRET = 'contract-signing-secret';

adapterContract({
  name: 'slack',
  platform: 'slack',
  shape: 'per-chunk',
  inbound: ['direct', 'thread'],
  groups: true,
  rateLimits: true,
  pooled: false,
  typing: false,
  async setup() {
    const fake = await startSlackFake();
    const adapter = createSlackAdapter(
      { botToken: fake.token, signingSecret: SLACK_SECRET, apiUrl: fake.apiUrl, port: 0, allowed: parseAllowList('*') },
      { config: parseConfig('{}', 'test.yaml'), logger: silentLogger, home: '/nonexistent' },
    );
    let receiverPort: number | undefined;
    let ts = 0;
    return {
      adapter,
      target: { platform: 'slack', chatId: 'D0001', userId: 'U1001' },
      ports: [portOf(fake.baseUrl)],
      landed: () => fake.messages.map((m) => ({ chat: m.thread_ts ? `${m.channel}/${m.thread_ts}` : m.channel, text: m.text ?? '' })),
      async inject(kind, text): Promise<Injected> {
        // After stop() the adapter has no port any more; the request then goes to the one it had.
        receiverPort = adapter.port ?? receiverPort;
        const event =
          kind === 'direct'
            ? { type: 'message', channel: 'D0001', channel_type: 'im', user: 'U1001', text, ts: `1700001000.${String(++ts).padStart(6, '0')}` }
            : { type: 'app_mention', channel: 'C0001', user: 'U1001', text: `<@${fake.botUserId}> ${text}`, ts: `1700001000.${String(++ts).padStart(6, '0')}`, thread_ts: '1700000500.000100' };
        const res = await postSigned(`http://127.0.0.1:${receiverPort ?? 1}/slack/events`, SLACK_SECRET, eventBody(event)).catch(() => ({ status: 0 }));
        return { confirmed: async () => res.status === 200 };
      },
      async injectGroup(fact, text) {
        receiverPort = adapter.port ?? receiverPort;
        const event = { type: 'message', channel: 'C0001', channel_type: 'channel', user: 'U1001', text, ts: `1700001000.${String(++ts).padStart(6, '0')}` };
        // A reply in a thread the bot started: Slack names the thread's author in parent_user_id.
        const reply = fact === 'reply-to-bot' ? { thread_ts: '1700000500.000100', parent_user_id: fake.botUserId } : {};
        await postSigned(`http://127.0.0.1:${receiverPort ?? 1}/slack/events`, SLACK_SECRET, eventBody({ ...event, ...reply }));
      },
      rateLimitNextSend: (seconds) => fake.rateLimit('chat.postMessage', seconds),
      served429: () => fake.callsTo('chat.postMessage').filter((c) => c.status === 429).length,
      dispose: () => fake.close(),
    };
  },
});

adapterContract({
  name: 'discord',
  platform: 'discord',
  shape: 'per-chunk',
  // A guild thread message carries `discord:<channel>:<thread>`, which parseDeliverableAddress refuses
  // (its Discord syntax has no thread part), so only DMs take part in the address round trip.
  inbound: ['direct'],
  groups: true,
  rateLimits: true,
  pooled: false,
  typing: true,
  async setup() {
    const fake = await startDiscordFake();
    const adapter = createDiscordAdapter(settingsFor(fake), depsWith('discord: { slash_command: false }'));
    const user = '200000000000000001';
    return {
      adapter,
      target: { platform: 'discord', chatId: fake.dmChannelId(user) },
      ports: [portOf(fake.apiUrl), portOf(fake.gatewayUrl)],
      landed: () => fake.messages.map((m) => ({ chat: m.channelId, text: m.content })),
      async inject(_kind, text): Promise<Injected> {
        fake.sendDM({ userId: user, content: text });
        return {};
      },
      async injectGroup(fact, text) {
        if (fact === 'unaddressed') {
          fake.sendGuildMessage({ userId: user, content: text });
          return;
        }
        await adapter.deliver({ id: 1, target: { platform: 'discord', chatId: fake.channelId }, message: { chunks: ['said by the bot'] }, firstChunk: 0, onChunkSent: () => undefined });
        fake.sendGuildMessage({ userId: user, content: text, replyTo: fake.messages.at(-1)!.id });
      },
      rateLimitNextSend: (seconds) => fake.failNext({ route: 'messages', status: 429, retryAfter: seconds }),
      served429: () => fake.requests.filter((r) => r.status === 429).length,
      typingSeen: () => fake.typing.length,
      dispose: () => fake.close(),
    };
  },
});

adapterContract({
  name: 'email (SMTP)',
  platform: 'email',
  shape: 'whole',
  inbound: [],
  groups: false,
  rateLimits: false,
  pooled: true,
  typing: false,
  async setup() {
    const smtp = await startSmtpFake();
    const home = mkdtempSync(join(tmpdir(), 'sb-contract-'));
    const adapter = createEmailAdapter(
      { smtpUrl: smtp.url, from: 'Switchboard <bot@example.org>', allowed: parseAllowList('') },
      { config: parseConfig('', 'test.yaml'), logger: silentLogger, home },
    );
    return {
      adapter,
      target: { platform: 'email', chatId: 'alice@example.com' },
      ports: [smtp.port],
      landed: () => smtp.messages.map((m) => ({ chat: m.envelope.to.join(','), text: (m.parsed.text ?? '').trim() })),
      openConnections: () => smtp.openConnections(),
      async dispose() {
        await smtp.close();
        rmSync(home, { recursive: true, force: true });
      },
    };
  },
});

adapterContract({
  name: 'cli',
  platform: 'cli',
  shape: 'per-chunk',
  inbound: ['direct'],
  groups: false,
  rateLimits: false,
  pooled: false,
  typing: false,
  async setup() {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (d: Buffer) => (printed += d.toString()));
    const adapter = createCliAdapter({ input, output, interactive: false });
    return {
      adapter,
      target: { platform: 'cli', chatId: CLI_CHAT_ID },
      ports: [],
      landed: () =>
        printed
          .split('\n')
          .filter(Boolean)
          .map((text) => ({ chat: CLI_CHAT_ID, text })),
      async inject(_kind, text): Promise<Injected> {
        input.write(`${text}\n`);
        return {};
      },
      async dispose() {
        input.end();
      },
    };
  },
});
