/**
 * Model faults, end to end through the Telegram adapter: HTTP 500, 429 with Retry-After, a timeout,
 * malformed JSON and a connection cut mid-answer. The user gets a short error (or, for a 429 the SDK
 * waits out, a delayed answer); what they said stays in the history; their next message works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, lastUserText, type ModelFake, type FakeReply } from '../fakes/model.js';
import { startTelegramFake, type SentMessage, type TelegramFake } from '../fakes/telegram.js';
import { createTelegramAdapter } from '../../src/adapters/telegram/index.js';
import { cleanUp } from '../helpers/cli.js';
import { makeHarness, until, type Harness } from './harness.js';

let model: ModelFake;
let tg: TelegramFake;
let h: Harness;
/** Replies by the text of the user's message; everything else is echoed. */
const faults = new Map<string, () => FakeReply>();

beforeAll(async () => {
  model = await startModelFake({
    script: (req) => {
      const text = lastUserText(req);
      const fault = faults.get(text);
      return fault ? fault() : { text: `Echo: ${text}` };
    },
  });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  // One retry, a 1 s timeout: the faults below play out in seconds.
  h = makeHarness(
    { OPENAI_BASE_URL: model.openaiUrl, TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url, TELEGRAM_ALLOWED_USERS: '*' },
    'model:\n  timeout_seconds: 1\n  max_retries: 1\n',
  );
  const s = h.settings;
  await h.attach(createTelegramAdapter(s.telegram!, { config: s.config, logger: h.logger, home: h.home, pollTimeoutSeconds: 1, stopGraceMs: 300 }));
});

afterAll(() => cleanUp(() => h?.close(), () => tg?.close(), () => model?.close()));

function sentTo(chat: number): SentMessage[] {
  return tg.sent.filter((m) => m.chatId === String(chat));
}

/** Sends `text` as `user` and waits for the answer number `n` in that chat. */
async function say(user: number, text: string, n: number, timeoutMs = 15_000): Promise<SentMessage> {
  tg.pushText({ text, userId: user });
  await until(() => sentTo(user).length >= n, timeoutMs, `answer ${n} to ${user}`);
  return sentTo(user)[n - 1];
}

function storedUserTexts(user: number): string[] {
  return h
    .query<{ content: string }>("SELECT m.content FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.user_id = ? AND m.role = 'user' ORDER BY m.id", String(user))
    .map((r) => r.content);
}

/** The failed message is kept: it is in the history the next request replays, and in the store. */
async function expectKeptAndNextWorks(user: number, first: string): Promise<void> {
  const second = `second message from ${user}`;
  const answer = await say(user, second, 2);
  expect(answer.plain).toBe(`Echo: ${second}`);
  const request = model.completions().filter((r) => lastUserText(r) === second).at(-1)!;
  const history = (request.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').map((m) => m.content);
  expect(history).toEqual([first, second]);
  expect(storedUserTexts(user)).toEqual([first, second]);
  expect(sentTo(user)).toHaveLength(2);
}

function expectShortError(reply: SentMessage): void {
  expect(reply.plain).toMatch(/^Sorry, I could not answer that: [^.]+\. Your message is kept; please try again in a moment\.$/);
  // the detail (endpoint, status, advice for the operator) is the log's, not the chat's
  expect(reply.plain).not.toMatch(/127\.0\.0\.1|https?:|check the key/);
  expect(reply.plain).not.toContain('\n');
  expect(reply.plain.length).toBeLessThan(400);
  expect(reply.plain).not.toMatch(/sk-faults|\bat .+:\d+:\d+/);
}

describe('model faults', () => {
  it('HTTP 500 on every try: a short error, the message kept, the next one answered', async () => {
    const first = 'first message (500)';
    faults.set(first, () => ({ status: 500 }));
    const before = model.completions().length;
    expectShortError(await say(2001, first, 1));
    // a server that answered is not "unreachable"; its status is the one detail a user can act on (issue 38)
    expect(sentTo(2001)[0].plain).toContain('the model service answered with an error (HTTP 500)');
    expect(model.completions().length - before).toBe(2); // the try and one retry
    await expectKeptAndNextWorks(2001, first);
  });

  it('429 with Retry-After: the answer comes once, after the wait', async () => {
    const first = 'first message (429)';
    let calls = 0;
    faults.set(first, () => (++calls === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { text: `Echo: ${first}` }));
    const t0 = Date.now();
    const reply = await say(2002, first, 1);
    expect(reply.plain).toBe(`Echo: ${first}`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(calls).toBe(2);
    await expectKeptAndNextWorks(2002, first);
  });

  it('a model that does not answer in time: a short error naming the timeout', async () => {
    const first = 'first message (timeout)';
    faults.set(first, () => ({ text: 'too late', delayMs: 2500 }));
    const reply = await say(2003, first, 1);
    expectShortError(reply);
    expect(reply.plain).toContain('did not answer in time');
    await expectKeptAndNextWorks(2003, first);
  });

  it('malformed JSON in a 200 answer: a short error', async () => {
    const first = 'first message (malformed)';
    faults.set(first, () => ({ malformed: true }));
    expectShortError(await say(2004, first, 1));
    await expectKeptAndNextWorks(2004, first);
  });

  it('the connection cut in the middle of the answer: a short error', async () => {
    const first = 'first message (cut)';
    faults.set(first, () => ({ hangup: true }));
    expectShortError(await say(2005, first, 1));
    await expectKeptAndNextWorks(2005, first);
  });

  it('logged each failure for the operator, without the API key', () => {
    const problems = h.logger.problems().filter((l) => l.includes('turn for'));
    expect(problems.length).toBe(4);
    for (const l of problems) expect(l).not.toContain('sk-faults');
  });
});
