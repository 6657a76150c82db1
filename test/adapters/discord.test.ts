/**
 * The Discord adapter through the real @discordjs/ws and @discordjs/rest clients against the loopback REST + gateway fake.
 * Reads like a conversation: a user writes, the adapter hands the gateway what it should, answers arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayIntentBits } from 'discord-api-types/v10';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import type { Adapter } from '../../src/core/types.js';
import { attachment, startDiscordFake, type DiscordFake } from '../fakes/discord.js';
import { delivery, depsWith, inbox, settingsFor, sleep } from './discord.helpers.js';

let fake: DiscordFake;
let adapter: Adapter;
const box = inbox();
const ALICE = '200000000000000001';
const OTHER_BOT = '200000000000000099';

beforeAll(async () => {
  fake = await startDiscordFake({ heartbeatInterval: 300 });
  adapter = createDiscordAdapter(settingsFor(fake), depsWith('discord: { slash_command: false }'));
  await adapter.start(box.handler);
});

afterAll(async () => {
  await adapter?.close();
  await fake?.close();
});

describe('discord adapter: connection', () => {
  it('identifies with the four intents over JSON without compression and answers heartbeats', async () => {
    const conn = fake.connections[0];
    expect(conn.query).toEqual({ v: '10', encoding: 'json' });
    const intents = conn.identify?.intents ?? 0;
    for (const bit of [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent]) {
      expect(intents & bit).toBe(bit);
    }
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === '/gateway/bot' && r.status === 200)).toBe(true);
    for (let i = 0; i < 40 && conn.heartbeats < 1; i++) await sleep(50);
    expect(conn.heartbeats).toBeGreaterThanOrEqual(1);
  });
});

describe('discord adapter: inbound', () => {
  it('hands a DM to the gateway', async () => {
    const id = fake.sendDM({ userId: ALICE, username: 'alice', globalName: 'Alice A.', content: 'hello there' });
    const m = await box.waitFor((x) => x.messageId === id);
    expect(m).toMatchObject({
      platform: 'discord',
      chatId: fake.dmChannelId(ALICE),
      userId: ALICE,
      displayName: 'Alice A.',
      text: 'hello there',
      isDirect: true,
      mentionsBot: false,
      updateId: id,
      replyTarget: { platform: 'discord', chatId: fake.dmChannelId(ALICE), replyToMessageId: id, userId: ALICE },
    });
    expect(m.threadId).toBeUndefined();
    expect(m.chatTitle).toBeUndefined();
  });

  it('hands over a guild message without a mention as mentionsBot false (the core decides), and one with a mention stripped', async () => {
    const plain = fake.sendGuildMessage({ userId: ALICE, content: 'just chatting with friends' });
    const taken = fake.sendGuildMessage({ userId: ALICE, content: 'what is 2+2?', mentionsBot: true });
    const p = await box.waitFor((x) => x.messageId === plain);
    expect(p).toMatchObject({ chatId: fake.channelId, text: 'just chatting with friends', isDirect: false, mentionsBot: false, chatTitle: '#general', updateId: plain });
    expect(p.replyTarget).toMatchObject({ chatId: fake.channelId, replyToMessageId: plain });
    const m = await box.waitFor((x) => x.messageId === taken);
    expect(m).toMatchObject({ chatId: fake.channelId, text: 'what is 2+2?', isDirect: false, mentionsBot: true, chatTitle: '#general' });
    expect(m.replyTarget).toMatchObject({ chatId: fake.channelId, replyToMessageId: taken });
  });

  it('hands over guild messages of a guild it was never told about (no GUILD_CREATE), never other bots\'', async () => {
    const guild = '300000000000000777';
    const channel = '300000000000000778';
    const author = { id: ALICE, username: 'alice' };
    fake.dispatchRaw('MESSAGE_CREATE', { id: '300000000000000001', channel_id: channel, guild_id: guild, author, content: 'no mention here', mentions: [] });
    fake.dispatchRaw('MESSAGE_CREATE', {
      id: '300000000000000002',
      channel_id: channel,
      guild_id: guild,
      author,
      content: `<@${fake.botUserId}> hello from afar`,
      mentions: [{ id: fake.botUserId, username: 'bot' }],
    });
    fake.dispatchRaw('MESSAGE_CREATE', { id: '300000000000000003', channel_id: channel, guild_id: guild, author: { id: OTHER_BOT, username: 'b', bot: true }, content: `<@${fake.botUserId}> hi` });
    fake.dispatchRaw('MESSAGE_CREATE', { id: '300000000000000004', channel_id: channel, guild_id: guild, author, content: '', mentions: [] });
    const plain = await box.waitFor((x) => x.messageId === '300000000000000001');
    expect(plain).toMatchObject({ chatId: channel, text: 'no mention here', isDirect: false, mentionsBot: false, userId: ALICE, updateId: '300000000000000001' });
    const m = await box.waitFor((x) => x.messageId === '300000000000000002');
    expect(m).toMatchObject({ chatId: channel, text: 'hello from afar', isDirect: false, mentionsBot: true, userId: ALICE });
    expect(m.replyTarget).toMatchObject({ chatId: channel, replyToMessageId: '300000000000000002' });
    await sleep(100);
    expect(box.received.some((x) => x.messageId === '300000000000000003' || x.messageId === '300000000000000004')).toBe(false);
  });

  it('strips the <@!id> nickname form too and keeps other mentions readable', async () => {
    const id = fake.sendGuildMessage({ userId: ALICE, content: `hey <@!${fake.botUserId}> ping <@${ALICE}> later`, mentionsBot: false });
    const m = await box.waitFor((x) => x.messageId === id);
    expect(m.text).toBe('hey ping @Alice A. later');
  });

  it('takes a reply to one of its own messages without a mention', async () => {
    await adapter.deliver(delivery({ platform: 'discord', chatId: fake.channelId }, ['I am the bot']));
    const botMessage = fake.messages.at(-1)!;
    const id = fake.sendGuildMessage({ userId: ALICE, content: 'tell me more', replyTo: botMessage.id });
    const m = await box.waitFor((x) => x.messageId === id);
    // The reply pings the bot (it is in `mentions`), but that is the reply, not a mention.
    expect(m).toMatchObject({ text: 'tell me more', mentionsBot: false, isReplyToBot: true });
  });

  it('ignores other bots, even when they mention it, and its own echoed messages', async () => {
    const botMsg = fake.sendGuildMessage({ userId: OTHER_BOT, bot: true, content: 'beep', mentionsBot: true });
    const botDm = fake.sendDM({ userId: OTHER_BOT, bot: true, content: 'beep beep' });
    const marker = fake.sendDM({ userId: ALICE, content: 'marker' });
    await box.waitFor((x) => x.messageId === marker);
    expect(box.received.some((x) => x.messageId === botMsg || x.messageId === botDm)).toBe(false);
    expect(box.received.some((x) => x.userId === fake.botUserId)).toBe(false);
  });

  it('reports attachments with their CDN URL as attachments, the text as it was written', async () => {
    const id = fake.sendDM({ userId: ALICE, content: 'look at this', attachments: [attachment('chart.png', 'image/png', 12 * 1024), attachment('notes.txt', 'text/plain', 300)] });
    const m = await box.waitFor((x) => x.messageId === id);
    expect(m.text).toBe('look at this');
    expect(m.attachments?.map((a) => [a.kind, a.name, a.declaredMime, a.declaredSize, new URL(a.ref).pathname.endsWith(a.name)])).toEqual([
      ['image', 'chart.png', 'image/png', 12 * 1024, true],
      ['document', 'notes.txt', 'text/plain', 300, true],
    ]);
  });

  it('maps a thread to chatId = parent channel, threadId = thread, and answers in the thread', async () => {
    const id = fake.sendGuildMessage({ userId: ALICE, channelId: fake.threadId, content: 'in a thread', mentionsBot: true });
    const m = await box.waitFor((x) => x.messageId === id);
    expect(m).toMatchObject({ chatId: fake.channelId, threadId: fake.threadId, chatTitle: '#general › design-thread' });
    expect(m.replyTarget.extra?.channelId).toBe(fake.threadId);
    const before = fake.messages.length;
    await adapter.deliver(delivery(m.replyTarget, ['thread answer']));
    expect(fake.messages[before]).toMatchObject({ channelId: fake.threadId, content: 'thread answer', replyTo: id });
  });

  it('learns a thread created after start (THREAD_CREATE): its messages go to the parent chat, and <#channel> reads as #name', async () => {
    const thread = '300000000000000555';
    fake.dispatchRaw('THREAD_CREATE', { id: thread, type: 11, guild_id: fake.guildId, parent_id: fake.channelId, name: 'late-thread' });
    const id = '300000000000000556';
    fake.dispatchRaw('MESSAGE_CREATE', {
      id,
      channel_id: thread,
      guild_id: fake.guildId,
      author: { id: ALICE, username: 'alice' },
      content: `<@${fake.botUserId}> see <#${fake.channelId}>`,
      mentions: [{ id: fake.botUserId, username: 'switchboard' }],
    });
    const m = await box.waitFor((x) => x.messageId === id);
    expect(m).toMatchObject({ chatId: fake.channelId, threadId: thread, chatTitle: '#general › late-thread', text: 'see #general', mentionsBot: true });
    expect(m.replyTarget.extra?.channelId).toBe(thread);
  });

  it('drops group DMs and system messages (a member joined), even when they mention it', async () => {
    fake.dispatchRaw('MESSAGE_CREATE', { id: '300000000000000601', channel_id: '300000000000000602', channel_type: 3, author: { id: ALICE, username: 'alice' }, content: 'group dm' });
    fake.dispatchRaw('MESSAGE_CREATE', {
      id: '300000000000000603',
      channel_id: fake.channelId,
      guild_id: fake.guildId,
      type: 7,
      author: { id: ALICE, username: 'alice' },
      content: `<@${fake.botUserId}>`,
      mentions: [{ id: fake.botUserId, username: 'switchboard' }],
    });
    const marker = fake.sendDM({ userId: ALICE, content: 'marker after the dropped ones' });
    await box.waitFor((x) => x.messageId === marker);
    expect(box.received.some((x) => x.messageId === '300000000000000601' || x.messageId === '300000000000000603')).toBe(false);
  });

  it('survives malformed dispatches and keeps working', async () => {
    fake.dispatchRaw('MESSAGE_CREATE', { id: 'not-a-snowflake' });
    fake.dispatchRaw('MESSAGE_CREATE', { id: '1', channel_id: fake.dmChannelId(ALICE), channel_type: 1, author: null, content: 42 });
    fake.dispatchRaw('MESSAGE_CREATE', null);
    fake.dispatchRaw('GUILD_CREATE', { id: fake.guildId, channels: 'nope' });
    const id = fake.sendDM({ userId: ALICE, content: 'still there?' });
    const m = await box.waitFor((x) => x.messageId === id);
    expect(m.text).toBe('still there?');
  });
});
