/**
 * Streamed answers on Telegram through the real `switchboard start` (ARCHITECTURE.md §10): drafts in a
 * private chat, a message edited as it grows in a group, a long answer rolling into a second
 * message, /stop keeping the text so far, and 429 storms on edits. The finished answer must be what
 * `streaming: off` delivers for the same model answer; every update is checked by the fake as
 * Telegram would (HTML parsed, 4,096 limit, edits rate limited).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake, type VisibleUpdate } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';

let model: ModelFake;
let tg: TelegramFake;
let home: string;
let gw: Running;

const ANSWER =
  'Here is the **plan** for today, step by step:\n\n1. Read the `config` file and check each *setting* twice.\n2. Start the gateway and watch the log for errors.\n\n```ts\nconst ok = await gateway.start();\n```\n\nThat is all for now; tell me when it runs.';
const LONG = Array.from({ length: 14 }, (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor '.repeat(24).trim()}.`).join('\n\n');

const answers: Record<string, { text: string; tokensPerSecond: number }> = {
  plan: { text: ANSWER, tokensPerSecond: 25 },
  long: { text: LONG, tokensPerSecond: 120 },
  slow: { text: `Thinking about it slowly: ${'one more word '.repeat(60)}`, tokensPerSecond: 12 },
};

beforeAll(async () => {
  model = await startModelFake({
    script: (req) => {
      const messages = (req.body.messages ?? []) as Array<{ role: string }>;
      if (lastUserText(req).includes('earlier') && messages.at(-1)?.role !== 'tool') {
        return { text: 'Let me look that up first.', toolCalls: [{ name: 'session_search', arguments: { query: 'plan' } }], tokensPerSecond: 20 };
      }
      if (lastUserText(req).includes('earlier')) return { text: ANSWER, tokensPerSecond: 25 };
      if (lastUserText(req).includes('broken')) return { status: 400, body: '{"error":{"message":"bad request","type":"invalid_request_error"}}' };
      const key = Object.keys(answers).find((k) => lastUserText(req).includes(k));
      return key ? { text: answers[key].text, tokensPerSecond: answers[key].tokensPerSecond } : { text: `Echo: ${lastUserText(req)}` };
    },
  });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  home = mkdtempSync(join(tmpdir(), 'sb-stream-tg-'));
  writeFileSync(join(home, 'config.yaml'), 'chats:\n  "telegram:-100777":\n    streaming: off\n');
  gw = startCli(['start'], {
    env: cleanEnv({
      SWITCHBOARD_HOME: home,
      OPENAI_BASE_URL: model.openaiUrl,
      OPENAI_API_KEY: 'sk-e2e',
      MODEL: 'fake-model',
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.url,
      TELEGRAM_ALLOWED_USERS: '1001',
    }),
  });
  await gw.waitFor(/ready \(telegram/);
});
afterAll(() => cleanUp(() => killIfRunning(gw), () => tg?.close(), () => model?.close(), () => removeDir(home)));

const OFF = -100777;
const EDIT = -100500;
const updatesOf = (chat: number, since: number) => tg.visible.filter((u) => u.chatId === String(chat) && u.at >= since);
const messagesOf = (chat: number, sinceId: number) => tg.sent.filter((m) => m.chatId === String(chat) && m.messageId > sinceId);
const lastId = () => tg.sent.at(-1)?.messageId ?? 0;

/** What `streaming: off` delivers for a model answer: the chunks sent in the chat without streaming. */
async function offDelivery(prompt: string, chunks: number): Promise<string[]> {
  const since = lastId();
  tg.pushText({ text: `@${tg.bot.username} ${prompt}`, userId: 1001, chatId: OFF, chatType: 'supergroup', chatTitle: 'Off' });
  await until(() => messagesOf(OFF, since).length >= chunks, 20_000, 'the unstreamed answer', gw);
  await sleep(200);
  const sent = messagesOf(OFF, since);
  // streaming off: no edit and no draft in that chat
  expect(tg.visible.filter((u) => u.chatId === String(OFF) && u.kind !== 'send')).toEqual([]);
  return sent.map((m) => m.text);
}

function noRefusedUpdates(): void {
  for (const method of ['sendMessage', 'editMessageText', 'sendMessageDraft']) {
    const bad = tg.callsOf(method).filter((c) => c.status === 400 && !/not modified/.test(c.description ?? ''));
    expect(bad, method).toEqual([]);
  }
}

/** Gaps between consecutive updates, leaving out the final delivery (the last update). */
const gaps = (updates: VisibleUpdate[]) => updates.slice(1, -1).map((u, i) => u.at - updates[i].at);

describe('streaming on Telegram', () => {
  it('a model that fails before writing anything gets the apology to the private chat, as without streaming', async () => {
    const since = lastId();
    tg.pushText({ text: 'this one is broken', userId: 1001 });
    await until(() => messagesOf(1001, since).length >= 1, 20_000, 'the apology', gw);
    expect(messagesOf(1001, since)[0].text).toMatch(/^Sorry, I could not answer that/);
  });

  it('a private chat sees drafts grow before the model finishes; the answer then arrives as a real message, as without streaming', async () => {
    const expected = await offDelivery('the plan please', 1);
    const start = Date.now();
    const since = lastId();
    const streamsBefore = model.streams.length;
    tg.pushText({ text: 'the plan please', userId: 1001 });
    await until(() => messagesOf(1001, since).length >= 1, 20_000, 'the streamed answer', gw);
    await sleep(300);
    const timing = model.streams[streamsBefore];
    const drafts = updatesOf(1001, start).filter((u) => u.kind === 'draft');
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    expect(drafts[0].at).toBeLessThan(timing.lastTokenAt);
    // drafts grow, each a prefix-wise longer view of the answer
    expect(drafts.at(-1)!.plain.length).toBeGreaterThan(drafts[0].plain.length);
    // at most one update per second after the first
    for (const gap of gaps([...drafts, drafts.at(-1)!])) expect(gap).toBeGreaterThanOrEqual(900);
    const final = messagesOf(1001, since);
    expect(final.map((m) => m.text)).toEqual(expected);
    noRefusedUpdates();
  });

  it('a group sees one message edited as it grows; the final text equals the unstreamed answer and no second message is sent', async () => {
    const expected = await offDelivery('the plan again', 1);
    const start = Date.now();
    const since = lastId();
    tg.pushText({ text: `@${tg.bot.username} the plan again`, userId: 1001, chatId: EDIT, chatType: 'supergroup', chatTitle: 'Team' });
    await until(() => messagesOf(EDIT, since).some((m) => m.text === expected[0]), 20_000, 'the finished message', gw);
    await sleep(1200);
    const updates = updatesOf(EDIT, start);
    expect(updates[0].kind).toBe('send');
    expect(updates.filter((u) => u.kind === 'edit').length).toBeGreaterThanOrEqual(2);
    expect(messagesOf(EDIT, since)).toHaveLength(1);
    expect(messagesOf(EDIT, since)[0].text).toBe(expected[0]);
    for (const gap of gaps(updates)) expect(gap).toBeGreaterThanOrEqual(900);
    // the streamed message replies to the question, as the first chunk would
    expect(messagesOf(EDIT, since)[0].replyToMessageId).toBeDefined();
    noRefusedUpdates();
  });

  it('a long answer fills one message, which is finished at a chunk boundary, and goes on in a second', async () => {
    const expected = await offDelivery('the long one', 2);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const since = lastId();
    const start = Date.now();
    const streams = model.streams.length;
    tg.pushText({ text: `@${tg.bot.username} the long one`, userId: 1001, chatId: EDIT, chatType: 'supergroup', chatTitle: 'Team' });
    await until(() => messagesOf(EDIT, since).map((m) => m.text).join('|') === expected.join('|'), 40_000, 'the finished long answer', gw);
    await sleep(1200);
    expect(messagesOf(EDIT, since).map((m) => m.text)).toEqual(expected);
    // the second message was started while the model was still writing
    const sends = updatesOf(EDIT, start).filter((u) => u.kind === 'send');
    expect(sends).toHaveLength(expected.length);
    expect(sends[1].at).toBeLessThan(model.streams[streams].lastTokenAt);
    noRefusedUpdates();
  });

  it('a long answer in a private chat: the message it outgrew is sent while the model writes, the rest drafted; the final messages are those of streaming off, once', async () => {
    const expected = await offDelivery('the long one', 2);
    const since = lastId();
    const start = Date.now();
    const streams = model.streams.length;
    tg.pushText({ text: 'the long one', userId: 1001 });
    await until(() => messagesOf(1001, since).map((m) => m.text).join('|') === expected.join('|'), 40_000, 'the finished long answer', gw);
    await sleep(1200);
    expect(messagesOf(1001, since).map((m) => m.text)).toEqual(expected);
    const sends = updatesOf(1001, start).filter((u) => u.kind === 'send');
    expect(sends).toHaveLength(expected.length);
    expect(sends[0].at).toBeLessThan(model.streams[streams].lastTokenAt);
    expect(updatesOf(1001, start).some((u) => u.kind === 'draft' && u.at > sends[0].at)).toBe(true);
    noRefusedUpdates();
  });

  it('a 429 storm on edits skips updates but never loses or doubles the final answer', async () => {
    const expected = await offDelivery('the plan once more', 1);
    const since = lastId();
    tg.failNext('editMessageText', { kind: 'rate_limit', retryAfter: 1 }, 4);
    tg.pushText({ text: `@${tg.bot.username} the plan once more`, userId: 1001, chatId: EDIT, chatType: 'supergroup', chatTitle: 'Team' });
    await until(() => messagesOf(EDIT, since).some((m) => m.text === expected[0]), 30_000, 'the finished message', gw);
    await sleep(1500);
    expect(messagesOf(EDIT, since).map((m) => m.text)).toEqual(expected);
    expect(tg.callsOf('editMessageText').filter((c) => c.status === 429).length).toBeGreaterThanOrEqual(4);
  });

  it('a 429 on a draft is waited out: the finished answer is sent once, only after the retry_after Telegram gave', async () => {
    const expected = await offDelivery('the plan, rate limited', 1);
    const since = lastId();
    tg.failNext('sendMessageDraft', { kind: 'rate_limit', retryAfter: 4 });
    const draftsBefore = tg.callsOf('sendMessageDraft').length;
    tg.pushText({ text: 'the plan, rate limited', userId: 1001 });
    await until(() => messagesOf(1001, since).length >= 1, 20_000, 'the finished answer', gw);
    await sleep(300);
    const refused = tg.callsOf('sendMessageDraft').slice(draftsBefore).find((c) => c.status === 429);
    expect(refused).toBeDefined();
    const sends = tg.callsOf('sendMessage').filter((c) => c.at > refused!.at);
    // the model finished well within the 4 s: only waiting for Telegram's retry_after keeps the answer back
    expect(sends.map((c) => c.status)).toEqual([200]);
    expect(sends[0].at - refused!.at).toBeGreaterThanOrEqual(3990);
    expect(messagesOf(1001, since).map((m) => m.text)).toEqual(expected);
  });

  it('a turn that calls a tool streams on after it, shows a status line meanwhile, and ends with only the final answer', async () => {
    const since = lastId();
    const start = Date.now();
    tg.pushText({ text: `@${tg.bot.username} what did we say earlier?`, userId: 1001, chatId: EDIT, chatType: 'supergroup', chatTitle: 'Team' });
    const expected = (await offDelivery('the plan, for comparison', 1))[0];
    await until(() => messagesOf(EDIT, since).some((m) => m.text === expected), 20_000, 'the final answer', gw);
    await sleep(1200);
    const shown = updatesOf(EDIT, start).map((u) => u.plain);
    expect(shown.some((p) => p.includes('searching earlier conversations…'))).toBe(true);
    expect(shown.some((p) => p.startsWith('Here is the plan') && !p.includes('searching'))).toBe(true);
    expect(messagesOf(EDIT, since).map((m) => m.text)).toEqual([expected]);
    noRefusedUpdates();
  });

  it('/stop ends the generation and keeps the text so far, marked as stopped', async () => {
    const since = lastId();
    tg.pushText({ text: `@${tg.bot.username} go slow`, userId: 1001, chatId: EDIT, chatType: 'supergroup', chatTitle: 'Team' });
    await until(() => messagesOf(EDIT, since).some((m) => m.plain.includes('slowly')), 15_000, 'the first streamed text', gw);
    await sleep(1200);
    tg.pushText({ text: '/stop', userId: 1001, chatId: EDIT, chatType: 'supergroup', chatTitle: 'Team' });
    await until(() => messagesOf(EDIT, since).some((m) => m.plain.includes('(stopped)')), 15_000, 'the stopped mark', gw);
    await sleep(500);
    const msgs = messagesOf(EDIT, since);
    expect(msgs).toHaveLength(1);
    expect(msgs[0].plain).toMatch(/^Thinking about it slowly: [a-z ]+\s+\(stopped\)$/);
    expect(msgs[0].plain.split('one more word').length - 1).toBeLessThan(60);
  });
});
