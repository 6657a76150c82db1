/**
 * Platform faults while sending, end to end through the Telegram adapter and the outbox: a storm of
 * 429s (more than the adapter waits out itself, so the outbox takes over), network errors (the
 * connection dropped before Telegram took the request), both between chunks of one long answer.
 * Every chunk arrives exactly once, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { createTelegramAdapter } from '../../src/adapters/telegram/index.js';
import { cleanUp } from '../helpers/cli.js';
import { makeHarness, until, type Harness } from './harness.js';

let model: ModelFake;
let tg: TelegramFake;
let h: Harness;

const PARAGRAPHS = 14;
const para = 'word '.repeat(280).trim();
const longAnswer = Array.from({ length: PARAGRAPHS }, (_, i) => `Paragraph ${i}: ${para}`).join('\n\n');

beforeAll(async () => {
  model = await startModelFake({ script: () => ({ text: longAnswer }) });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  // Quick outbox retries, so network errors play out in seconds rather than minutes.
  h = makeHarness({ OPENAI_BASE_URL: model.openaiUrl, TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url, TELEGRAM_ALLOWED_USERS: '*' }, '', { outboxBackoffMs: 200 });
  const s = h.settings;
  await h.attach(createTelegramAdapter(s.telegram!, { config: s.config, logger: h.logger, home: h.home, pollTimeoutSeconds: 1, stopGraceMs: 300 }));
});

afterAll(() => cleanUp(() => h?.close(), () => tg?.close(), () => model?.close()));

/** Paragraph numbers in the order the user sees them. */
function seen(chat: number): number[] {
  const text = tg.sent.filter((m) => m.chatId === String(chat)).map((m) => m.plain).join('\n');
  return [...text.matchAll(/Paragraph (\d+):/g)].map((m) => Number(m[1]));
}

const all = Array.from({ length: PARAGRAPHS }, (_, i) => i);

describe('sending through 429 storms and network errors', () => {
  it('delivers every chunk once, in order, when failures hit the first chunk and between chunks', async () => {
    const user = 3001;
    // Before the first chunk: a 429 storm of 7 (the adapter waits out 5, then hands the chunk back to the
    // outbox with Telegram's retry_after) and two dropped connections.
    tg.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 1 }, 7);
    tg.failNext('sendMessage', 'network', 2);
    const base = tg.sent.length;
    tg.pushText({ text: 'tell me everything', userId: user });
    // Between chunks: once two chunks are through, more failures of each kind. The fake resolves this wait
    // before the adapter reads the second chunk's response, so the failures hit the third chunk.
    await tg.waitForMessages(base + 2, 20_000);
    tg.failNext('sendMessage', 'network', 1);
    tg.failNext('sendMessage', '429', 2);
    tg.failNext('sendMessage', '500', 1);
    tg.failNext('sendMessage', 'network', 1);
    await until(() => seen(user).includes(PARAGRAPHS - 1), 25_000, 'the last paragraph');
    await new Promise((r) => setTimeout(r, 500)); // anything sent twice would show up now
    expect(seen(user)).toEqual(all);
    const chunks = tg.sent.filter((m) => m.chatId === String(user));
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    for (const c of chunks) expect(c.plain.length).toBeLessThanOrEqual(4096);
    const attempts = tg.callsOf('sendMessage').filter((r) => String(r.params.chat_id) === String(user));
    expect(attempts.length).toBe(chunks.length + 7 + 2 + 5); // every failure was retried, nothing more
    const [item] = h.query<{ status: string; next: number }>('SELECT status, next_chunk AS next FROM outbox ORDER BY id DESC LIMIT 1');
    expect(item).toEqual({ status: 'sent', next: chunks.length });
  });

  it('two chats answered at once through dropped connections each get every chunk once, in order', async () => {
    tg.failNext('sendMessage', 'network', 3);
    tg.pushText({ text: 'chat A', userId: 3002 });
    tg.pushText({ text: 'chat B', userId: 3003 });
    await until(() => seen(3002).includes(PARAGRAPHS - 1) && seen(3003).includes(PARAGRAPHS - 1), 25_000, 'both answers');
    await new Promise((r) => setTimeout(r, 500));
    expect(seen(3002)).toEqual(all);
    expect(seen(3003)).toEqual(all);
  });
});
