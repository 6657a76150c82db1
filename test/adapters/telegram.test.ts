import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CredentialsError, PlatformApiError } from '../../src/core/errors.js';
import type { TelegramAdapter } from '../../src/adapters/telegram/index.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { collector, makeAdapter, memoryLogger, testConfig } from './telegram-helpers.js';

let fake: TelegramFake;
/** Every adapter a test makes, closed after it whatever happened. */
const made: TelegramAdapter[] = [];

beforeAll(async () => {
  fake = await startTelegramFake({ maxPollHoldMs: 1000 });
});
afterEach(async () => {
  await Promise.all(made.splice(0).map((a) => a.close()));
});
afterAll(async () => {
  await fake.close();
});

function make(overrides: Parameters<typeof makeAdapter>[1] = {}, against: TelegramFake = fake): TelegramAdapter {
  const adapter = makeAdapter(against, overrides);
  made.push(adapter);
  return adapter;
}

async function started(overrides: Parameters<typeof makeAdapter>[1] = {}) {
  const adapter = make(overrides);
  const inbox = collector();
  await adapter.start(inbox.handler);
  return { adapter, inbox };
}

describe('telegram adapter: start', () => {
  it('checks the token, registers the commands and polls', async () => {
    await started();
    expect(fake.callsOf('getMe').length).toBeGreaterThan(0);
    expect(fake.commands).toEqual([
      { command: 'start', description: expect.any(String) },
      { command: 'help', description: expect.any(String) },
      { command: 'new', description: expect.any(String) },
      { command: 'status', description: expect.any(String) },
      { command: 'usage', description: expect.any(String) },
      { command: 'stop', description: expect.any(String) },
    ]);
    await fake.waitForRequests('getUpdates', 1);
  });

  it('refuses an invalid token with one clear line that does not quote the token', async () => {
    const adapter = make({ token: fake.badToken });
    const error = await adapter.start(async () => {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CredentialsError);
    const message = (error as Error).message;
    expect(message).toBe('TELEGRAM_BOT_TOKEN was refused by Telegram (401 Unauthorized): check the token from @BotFather');
    expect(message).not.toContain(fake.badToken);
    expect(await adapter.diagnose?.()).toEqual([message]);
  });

  it('diagnose is empty for a good token', async () => {
    expect(await make().diagnose?.()).toEqual([]);
  });

  it('says which Bot API it cannot reach', async () => {
    const adapter = make();
    const unreachable = make({}, { ...fake, url: 'http://127.0.0.1:1' } as TelegramFake);
    const error = await unreachable.start(async () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect((error as Error).message).toMatch(/cannot reach the Bot API at http:\/\/127\.0\.0\.1:1/);
    expect((error as Error).message).not.toContain(fake.token);
    expect(await adapter.diagnose?.()).toEqual([]);
  });
});

describe('telegram adapter: inbound', () => {
  it('turns a private text message into an InboundMessage and confirms it after the handler', async () => {
    const { inbox } = await started();
    const updateId = fake.pushText({ text: 'hello there', userId: 1001, firstName: 'Alice', lastName: 'Liddell', username: 'alice' });
    const [msg] = await inbox.waitFor(1);
    expect(msg).toMatchObject({
      platform: 'telegram',
      chatId: '1001',
      userId: '1001',
      displayName: 'Alice Liddell',
      text: 'hello there',
      isDirect: true,
      mentionsBot: false,
      isReplyToBot: false,
      updateId: String(updateId),
      replyTarget: { platform: 'telegram', chatId: '1001' },
    });
    expect(msg.threadId).toBeUndefined();
    expect(msg.chatTitle).toBeUndefined();
    expect(msg.replyTarget.replyToMessageId).toBeUndefined();
    expect(msg.messageId).toMatch(/^\d+$/);
    expect(msg.receivedAt).toBeInstanceOf(Date);
    await fake.waitForConfirmed(updateId + 1);
  });

  it('hands over every group message with the facts the core decides on: mention, reply to the bot, command', async () => {
    const { inbox } = await started();
    const group = { chatId: -1001234567890, chatType: 'supergroup' as const, chatTitle: 'Team', userId: 2002, firstName: 'Bob' };
    fake.pushText({ ...group, text: 'just chatting among humans' });
    fake.pushText({ ...group, text: `/status@some_other_bot` });
    fake.pushText({ ...group, text: `@${fake.bot.username}, what is 2+2?` });
    fake.pushText({ ...group, text: 'and 3+3?', replyTo: { messageId: 1, fromBot: true } });
    fake.pushText({ ...group, text: `/new@${fake.bot.username}` });
    fake.pushText({ ...group, text: 'a reply to a human', replyTo: { messageId: 1, fromBot: false } });
    const last = fake.pushText({ ...group, text: '/help' });
    await fake.waitForConfirmed(last + 1);
    const facts = inbox.messages.map((m) => [m.text, m.mentionsBot, m.isReplyToBot, m.command ?? null]);
    expect(facts).toEqual([
      ['just chatting among humans', false, false, null],
      ['/status@some_other_bot', false, false, { name: 'status', forBot: false }],
      ['what is 2+2?', true, false, null],
      ['and 3+3?', false, true, null],
      ['/new', false, false, { name: 'new', forBot: true }],
      ['a reply to a human', false, false, null],
      ['/help', false, false, { name: 'help', forBot: true }],
    ]);
    for (const m of inbox.messages) {
      expect(m).toMatchObject({ isDirect: false, chatId: '-1001234567890', chatTitle: 'Team', userId: '2002' });
      expect(m.replyTarget.replyToMessageId).toBe(m.messageId);
    }
  });

  it('treats a forum topic as a thread', async () => {
    const { inbox } = await started();
    fake.pushText({ chatId: -1009999, chatType: 'supergroup', userId: 3003, threadId: 77, text: `@${fake.bot.username} hi from a topic` });
    const [msg] = await inbox.waitFor(1);
    expect(msg.threadId).toBe('77');
    expect(msg.replyTarget).toMatchObject({ chatId: '-1009999', threadId: '77' });
    expect(msg.text).toBe('hi from a topic');
  });

  it('reports files as attachments (the largest photo size) and describes the rest instead of dropping it', async () => {
    const { inbox } = await started();
    const photo = fake.makeMessage({ userId: 1001 });
    photo.photo = [
      { file_id: 'a', file_unique_id: 'a', width: 90, height: 60 },
      { file_id: 'b', file_unique_id: 'b', width: 1280, height: 853, file_size: 120000 },
    ];
    photo.caption = 'what bird is this?';
    fake.pushUpdate({ message: photo });
    const doc = fake.makeMessage({ userId: 1001 });
    doc.document = { file_id: 'c', file_unique_id: 'c', file_name: 'report.pdf', mime_type: 'application/pdf', file_size: 12288 };
    fake.pushUpdate({ message: doc });
    const sticker = fake.makeMessage({ userId: 1001 });
    sticker.sticker = { file_id: 'd', file_unique_id: 'd', type: 'regular', width: 512, height: 512, is_animated: false, is_video: false, emoji: '😀' };
    fake.pushUpdate({ message: sticker });
    const voice = fake.makeMessage({ userId: 1001 });
    voice.voice = { file_id: 'e', file_unique_id: 'e', duration: 7 };
    fake.pushUpdate({ message: voice });
    const msgs = await inbox.waitFor(4);
    expect(msgs.map((m) => m.text)).toEqual(['what bird is this?', '', '[sticker 😀]', '']);
    expect(msgs.map((m) => m.attachments)).toEqual([
      [{ kind: 'image', name: 'photo.jpg', declaredMime: 'image/jpeg', declaredSize: 120000, ref: 'b' }],
      [{ kind: 'document', name: 'report.pdf', declaredMime: 'application/pdf', declaredSize: 12288, ref: 'c' }],
      undefined,
      [{ kind: 'voice', name: 'voice.ogg', declaredMime: 'audio/ogg', durationSeconds: 7, ref: 'e' }],
    ]);
  });

  it('ignores bots, edited messages and non-message updates, and survives a malformed update', async () => {
    const logger = memoryLogger();
    const { inbox } = await started({ logger });
    fake.pushText({ userId: 4004, isBot: true, text: 'I am a bot' });
    fake.pushText({ userId: 1001, text: 'edited text', edited: true });
    fake.pushUpdate({ callback_query: { id: '1', from: { id: 1001, is_bot: false, first_name: 'A' }, chat_instance: 'x' } });
    const bad = fake.pushUpdate({ message: { message_id: 'not a number', chat: 5 } });
    const last = fake.pushText({ userId: 1001, text: 'still here' });
    await fake.waitForConfirmed(last + 1);
    expect(inbox.messages.map((m) => m.text)).toEqual(['still here']);
    expect(logger.lines.some((l) => l.startsWith('warn') && l.includes(`malformed update ${bad}`))).toBe(true);
  });

  it('takes edited messages when telegram.handle_edited is on', async () => {
    const { inbox } = await started({ config: testConfig('telegram: { handle_edited: true }') });
    fake.pushText({ userId: 1001, text: 'fixed typo', edited: true });
    const [msg] = await inbox.waitFor(1);
    expect(msg.text).toBe('fixed typo');
  });

  it('does not confirm an update whose handler has not resolved; it comes again after a restart', async () => {
    const adapter = make();
    let release!: () => void;
    const seen: string[] = [];
    await adapter.start(async (m) => {
      seen.push(m.text);
      if (m.text === 'slow') await new Promise<void>((r) => (release = r));
    });
    const slow = fake.pushText({ userId: 1001, text: 'slow' });
    fake.pushText({ userId: 1001, text: 'behind it' });
    await expect.poll(() => seen).toEqual(['slow']);
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.confirmedOffset).toBeLessThanOrEqual(slow);
    await adapter.stop(); // grace (500 ms) passes with the handler still pending
    expect(fake.confirmedOffset).toBeLessThanOrEqual(slow);
    expect(seen).toEqual(['slow']);
    release();

    const { inbox } = await started();
    const msgs = await inbox.waitFor(2);
    expect(msgs.map((m) => m.text)).toEqual(['slow', 'behind it']);
    expect(msgs[0].updateId).toBe(String(slow));
  });

  it('keeps an update unconfirmed when the handler fails, and hands it over again', async () => {
    const logger = memoryLogger();
    const adapter = make({ logger });
    let calls = 0;
    const taken: string[] = [];
    await adapter.start(async (m) => {
      calls++;
      if (calls === 1) throw new Error('database is locked');
      taken.push(m.updateId);
    });
    const id = fake.pushText({ userId: 1001, text: 'journal me' });
    await fake.waitForConfirmed(id + 1, 8000);
    expect(taken).toEqual([String(id)]);
    expect(logger.lines.some((l) => l.includes(`update ${id} was not taken (database is locked)`))).toBe(true);
  });
});
