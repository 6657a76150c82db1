import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PlatformApiError } from '../../src/core/errors.js';
import type { TelegramAdapter } from '../../src/adapters/telegram/index.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { delivery, makeAdapter, memoryLogger } from './telegram-helpers.js';

let fake: TelegramFake;
const made: TelegramAdapter[] = [];

beforeAll(async () => {
  fake = await startTelegramFake();
});
beforeEach(() => {
  fake.sent.length = 0;
  fake.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(made.splice(0).map((a) => a.close()));
});
afterAll(async () => {
  await fake.close();
});

function make(overrides: Parameters<typeof makeAdapter>[1] = {}): TelegramAdapter {
  const adapter = makeAdapter(fake, overrides);
  made.push(adapter);
  return adapter;
}

const privateChat = { platform: 'telegram' as const, chatId: '1001' };
const group = { platform: 'telegram' as const, chatId: '-1001234567890', replyToMessageId: '42' };

describe('telegram adapter: deliver (no start needed)', () => {
  it('sends chunks in order as HTML without link previews, one message each', async () => {
    const adapter = make();
    const d = delivery(privateChat, ['<b>Hello</b> &amp; welcome', 'second <i>part</i>', 'third']);
    await adapter.deliver(d);
    expect(fake.sent.map((m) => m.plain)).toEqual(['Hello & welcome', 'second part', 'third']);
    for (const m of fake.sent) {
      expect(m).toMatchObject({ chatId: '1001', parseMode: 'HTML', replyToMessageId: undefined });
      expect(m.params.link_preview_options).toEqual({ is_disabled: true });
    }
    expect(d.sentIndexes).toEqual([0, 1, 2]);
    expect(fake.callsOf('getMe')).toHaveLength(0);
  });

  it('in groups only the first chunk replies to the user, and a topic keeps its thread', async () => {
    const adapter = make();
    await adapter.deliver(delivery({ ...group, threadId: '77' }, ['one', 'two']));
    expect(fake.sent.map((m) => [m.plain, m.replyToMessageId, m.threadId])).toEqual([
      ['one', 42, 77],
      ['two', undefined, 77],
    ]);
    // The user's message may be gone by now: the answer must still arrive.
    expect(fake.sent[0].params.reply_parameters).toEqual({ message_id: 42, allow_sending_without_reply: true });
  });

  it('resumes from firstChunk', async () => {
    const adapter = make();
    const d = delivery(group, ['one', 'two', 'three'], 1);
    await adapter.deliver(d);
    expect(fake.sent.map((m) => [m.plain, m.replyToMessageId])).toEqual([
      ['two', undefined],
      ['three', undefined],
    ]);
    expect(d.sentIndexes).toEqual([1, 2]);
  });

  it('waits out a 429 as retry_after says and sends the chunk exactly once', async () => {
    const logger = memoryLogger();
    const adapter = make({ logger });
    fake.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 1 });
    const started = Date.now();
    const d = delivery(privateChat, ['first', 'second']);
    await adapter.deliver(d);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.callsOf('sendMessage')).toHaveLength(3);
    expect(fake.sent.map((m) => m.plain)).toEqual(['first', 'second']);
    expect(d.sentIndexes).toEqual([0, 1]);
    expect(logger.lines.some((l) => l.includes('waiting 1 s'))).toBe(true);
  });

  it('hands a 429 asking for too long a wait back to the outbox as retryable', async () => {
    const adapter = make({ maxRetryAfterSeconds: 5 });
    fake.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 120 });
    const error = await adapter.deliver(delivery(privateChat, ['x'])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect(error).toMatchObject({ retryable: true, status: 429, retryAfterMs: 120_000 });
    expect(fake.sent).toHaveLength(0);
  });

  it('resends a chunk Telegram cannot parse as plain text, so nothing is lost', async () => {
    const adapter = make();
    const d = delivery(privateChat, ['<b>fine</b>', 'if a <b>b</i> & <a href="https://x.test/?a=1&amp;b=2">link</a>', 'after']);
    await adapter.deliver(d);
    const calls = fake.callsOf('sendMessage');
    expect(calls).toHaveLength(4);
    expect(calls[1].status).toBe(400);
    expect(fake.sent.map((m) => [m.plain, m.parseMode])).toEqual([
      ['fine', 'HTML'],
      ['if a b & link (https://x.test/?a=1&b=2)', undefined],
      ['after', 'HTML'],
    ]);
    expect(d.sentIndexes).toEqual([0, 1, 2]);
  });

  it('turns a network failure into a retryable PlatformApiError after the chunks that did go', async () => {
    const adapter = make();
    const d = delivery(privateChat, ['one', 'two', 'three']);
    fake.failNext('sendMessage', 'network');
    // first call fails: nothing sent
    const first = await adapter.deliver(d).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(PlatformApiError);
    expect(first).toMatchObject({ retryable: true, platform: 'telegram', method: 'sendMessage' });
    expect((first as Error).message).not.toContain(fake.token);
    expect(d.sentIndexes).toEqual([]);
    // the outbox retries later from the first unconfirmed chunk
    await adapter.deliver({ ...d, firstChunk: d.sentIndexes.length });
    expect(fake.sent.map((m) => m.plain)).toEqual(['one', 'two', 'three']);
    expect(d.sentIndexes).toEqual([0, 1, 2]);
  });

  it('does not retry what cannot succeed: bot blocked, chat not found', async () => {
    const adapter = make();
    fake.failNext('sendMessage', 'blocked');
    const blocked = await adapter.deliver(delivery(privateChat, ['x'])).catch((e: unknown) => e);
    expect(blocked).toMatchObject({ retryable: false, status: 403 });
    expect((blocked as Error).message).toBe('telegram sendMessage: 403 Forbidden: bot was blocked by the user');
    fake.failNext('sendMessage', 'chat_not_found');
    await expect(adapter.deliver(delivery(privateChat, ['x']))).rejects.toMatchObject({ retryable: false, status: 400 });
    expect(fake.sent).toHaveLength(0);
  });

  it('a 5xx is retryable later', async () => {
    const adapter = make();
    fake.failNext('sendMessage', '500');
    await expect(adapter.deliver(delivery(privateChat, ['x']))).rejects.toMatchObject({ retryable: true, status: 500 });
  });

  it('follows a group that was upgraded to a supergroup', async () => {
    const adapter = make();
    fake.failNext('sendMessage', {
      kind: 'error',
      code: 400,
      description: 'Bad Request: group chat was upgraded to a supergroup chat',
      parameters: { migrate_to_chat_id: -1005555 },
    });
    await adapter.deliver(delivery({ platform: 'telegram', chatId: '-5555' }, ['moved']));
    expect(fake.sent.map((m) => [m.chatId, m.plain])).toEqual([['-1005555', 'moved']]);
  });

  it('shows typing in the chat and its topic, and never throws for it', async () => {
    const adapter = make();
    await adapter.sendTyping?.({ platform: 'telegram', chatId: '-1009999', threadId: '77' });
    const [call] = fake.callsOf('sendChatAction');
    expect(call.params).toMatchObject({ chat_id: -1009999, action: 'typing', message_thread_id: 77 });
    fake.failNext('sendChatAction', 'network');
    await expect(adapter.sendTyping?.({ platform: 'telegram', chatId: '1001' })).resolves.toBeUndefined();
  });
});
