import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { approvalScript, toolResults } from '../helpers/approvals.js';

let model: ModelFake;
let tg: TelegramFake;
let home: string;

beforeAll(async () => {
  model = await startModelFake({ script: approvalScript });
  tg = await startTelegramFake({ maxPollHoldMs: 200 });
  home = mkdtempSync(join(tmpdir(), 'sb-approvals-tg-'));
  writeFileSync(join(home, 'config.yaml'), 'streaming:\n  telegram: off\ngateway:\n  lease_seconds: 1.5\n');
});
afterAll(() => cleanUp(() => tg?.close(), () => model?.close(), () => removeDir(home)));

function env(extra: Record<string, string> = {}) {
  return cleanEnv({
    SWITCHBOARD_HOME: home,
    OPENAI_BASE_URL: model.openaiUrl,
    OPENAI_API_KEY: 'sk-e2e',
    MODEL: 'fake-model',
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.url,
    TELEGRAM_ALLOWED_USERS: '1001',
    ...extra,
  });
}

const memoryFile = () => join(home, 'memories', 'telegram-1001', 'MEMORY.md');
const memoryText = () => (existsSync(memoryFile()) ? readFileSync(memoryFile(), 'utf8') : '');

/** Sends `text` as user 1001 and waits for the bot's next message. */
async function say(text: string) {
  const n = tg.sent.length;
  tg.pushText({ text, userId: 1001 });
  const sent = await tg.waitForMessages(n + 1, 20_000);
  return sent[n];
}

describe('approvals through switchboard start with Telegram', () => {
  let gw: Running;
  afterAll(() => killIfRunning(gw));

  it('a tainted turn asks before a memory write with an inline keyboard; Approve runs it once, the answer arrives, the keyboard goes', async () => {
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    await say('the code word is zebra');
    await say('/new');
    const prompt = await say('SAVE zebra');
    // the prompt: the tool, why, the arguments, and two buttons carrying the approval
    expect(prompt.plain).toContain('Approval needed');
    expect(prompt.plain).toContain('memory');
    expect(prompt.plain).toContain('this turn read text from another session (session_search)');
    expect(prompt.plain).toContain('"content": "The code word is zebra."');
    const keyboard = (prompt.params.reply_markup as { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> }).inline_keyboard;
    expect(keyboard[0].map((b) => b.text)).toEqual(['Approve', 'Deny']);
    expect(memoryText()).not.toContain('zebra'); // nothing written before the yes

    // someone else presses: refused in one line, nothing runs
    const requestsBefore = model.completions().length;
    const strangerQuery = tg.pushCallback({ userId: 2002, chatId: 1001, data: keyboard[0][0].callback_data, messageId: prompt.messageId });
    await until(() => tg.callbackAnswers.some((a) => a.queryId === strangerQuery), 20_000, 'the refusal', gw);
    const refusal = tg.callbackAnswers.find((a) => a.queryId === strangerQuery)!;
    expect(refusal.text).toMatch(/^Only the person who asked/);
    expect(refusal.showAlert).toBe(true);
    await sleep(300);
    expect(memoryText()).not.toContain('zebra');
    expect(model.completions().length).toBe(requestsBefore);

    // the person approves: the call runs, the model goes on, the answer arrives; the keyboard is removed
    const n = tg.sent.length;
    const query = tg.pushCallback({ userId: 1001, data: keyboard[0][0].callback_data, messageId: prompt.messageId });
    const answer = (await tg.waitForMessages(n + 1, 20_000))[n];
    expect(answer.plain).toMatch(/^Memory tool said: /);
    expect(tg.callbackAnswers.find((a) => a.queryId === query)?.text).toBe('Approved.');
    await until(() => tg.callsOf('editMessageReplyMarkup').some((c) => c.status === 200), 5000, 'the keyboard removed', gw);
    expect(JSON.stringify(prompt.params.reply_markup)).toBe('{"inline_keyboard":[]}');
    expect(memoryText().match(/zebra/g)).toHaveLength(1);
    const last = model.completions().at(-1)!;
    expect(toolResults(last, 'memory')).toHaveLength(1);
    expect(toolResults(last, 'memory')[0]).not.toMatch(/denied/);

    // a replayed press and a second press run nothing twice
    const requestsAfter = model.completions().length;
    const again = tg.pushCallback({ userId: 1001, data: keyboard[0][0].callback_data, messageId: prompt.messageId });
    const deny = tg.pushCallback({ userId: 1001, data: keyboard[0][1].callback_data, messageId: prompt.messageId });
    await until(() => [again, deny].every((q) => tg.callbackAnswers.some((a) => a.queryId === q)), 20_000, 'both presses answered', gw);
    expect(tg.callbackAnswers.find((a) => a.queryId === again)?.text).toMatch(/already approved/);
    expect(tg.callbackAnswers.find((a) => a.queryId === deny)?.text).toMatch(/already approved/);
    await sleep(300);
    expect(model.completions().length).toBe(requestsAfter);
    expect(memoryText().match(/zebra/g)).toHaveLength(1);
    expect(tg.sent.length).toBe(n + 1);
  });

  it('Deny: the call is not made and the model is told "denied by the user"', async () => {
    const prompt = await say('SAVE yak');
    const keyboard = (prompt.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard;
    const n = tg.sent.length;
    tg.pushCallback({ userId: 1001, data: keyboard[0][1].callback_data, messageId: prompt.messageId });
    const answer = (await tg.waitForMessages(n + 1, 20_000))[n];
    expect(answer.plain).toContain('denied by the user');
    expect(memoryText()).not.toContain('yak');
  });

  it('kill -9 while an approval is pending: after a restart the press runs the call once and the answer arrives', async () => {
    const prompt = await say('SAVE koala');
    const keyboard = (prompt.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard;
    await sleep(300); // the prompt's delivery confirmed (a kill before that sends it again: the outbox's at-least-once)
    await gw.stop('SIGKILL');
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    const n = tg.sent.length;
    tg.pushCallback({ userId: 1001, data: keyboard[0][0].callback_data, messageId: prompt.messageId });
    const answer = (await tg.waitForMessages(n + 1, 20_000))[n];
    expect(answer.plain).toMatch(/^Memory tool said: /);
    expect(memoryText().match(/koala/g)).toHaveLength(1);
    await sleep(500);
    expect(tg.sent.length).toBe(n + 1);
    expect(await gw.stop('SIGTERM')).toBe(0);
  });

  it('a message sent while a call waits for a yes: the approval closes as not answered, the paused turn ends, then the message is answered with it in history', async () => {
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    const prompt = await say('SAVE ibis');
    const keyboard = (prompt.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard;
    const n = tg.sent.length;
    tg.pushText({ text: 'actually, never mind', userId: 1001 });
    const [ended, answered] = (await tg.waitForMessages(n + 2, 20_000)).slice(n);
    // in order: the paused turn's end (the model told why the call was not made), then the new message's answer
    expect(ended.plain).toMatch(/^Memory tool said: not answered: the user sent a new message/);
    expect(answered.plain).toBe('Noted: actually, never mind');
    expect(prompt.plain).toMatch(/\n\nNot answered: a new message came, so the call was not made\.$/);
    expect(JSON.stringify(prompt.params.reply_markup)).toBe('{"inline_keyboard":[]}');
    // the new message's request carries the paused exchange before it
    const last = model.completions().at(-1)!;
    const texts = JSON.stringify(last.body.messages);
    expect(texts.indexOf('SAVE ibis')).toBeGreaterThan(-1);
    expect(texts.indexOf('SAVE ibis')).toBeLessThan(texts.indexOf('actually, never mind'));
    expect(toolResults(last, 'memory').at(-1)).toMatch(/^not answered/);
    expect(memoryText()).not.toContain('ibis');
    // a press on the old buttons runs nothing
    const requests = model.completions().length;
    const late = tg.pushCallback({ userId: 1001, data: keyboard[0][0].callback_data, messageId: prompt.messageId });
    await until(() => tg.callbackAnswers.some((a) => a.queryId === late), 20_000, 'the late press answered', gw);
    expect(tg.callbackAnswers.find((a) => a.queryId === late)?.text).toMatch(/not answered: a new message came/);
    await sleep(300);
    expect(model.completions().length).toBe(requests);
    expect(memoryText()).not.toContain('ibis');
    expect(tg.sent.length).toBe(n + 2);
    expect(await gw.stop('SIGTERM')).toBe(0);
  });

  it('/stop after a restart: the prompt posted before it loses its buttons and says why; the turn ends "Stopped." with no model request', async () => {
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    const prompt = await say('SAVE heron');
    await sleep(300); // the prompt's delivery confirmed, and where it went kept with the approval
    expect(await gw.stop('SIGTERM')).toBe(0);
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    const requests = model.completions().length;
    const stopped = await say('/stop');
    expect(stopped.plain).toBe('Stopped.');
    // this process never posted the prompt: it closed it from the place the store kept
    expect(prompt.plain).toMatch(/\n\nStopped: the call was not made\.$/);
    expect(JSON.stringify(prompt.params.reply_markup)).toBe('{"inline_keyboard":[]}');
    expect(model.completions().length).toBe(requests);
    expect(memoryText()).not.toContain('heron');
    expect(await gw.stop('SIGTERM')).toBe(0);
  });

  it('no answer in time: the approval is denied and the model is told "no answer in time"', async () => {
    writeFileSync(join(home, 'config.yaml'), 'streaming:\n  telegram: off\ngateway:\n  lease_seconds: 1.5\napprovals:\n  timeout_minutes: 0.02\n');
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    const editsBefore = tg.callsOf('editMessageText').filter((c) => c.status === 200).length;
    const prompt = await say('SAVE lemur');
    expect(prompt.plain).toContain('within 1 seconds');
    const keyboard = (prompt.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard;
    const n = tg.sent.length;
    const answer = (await tg.waitForMessages(n + 1, 20_000))[n];
    expect(answer.plain).toContain('no answer in time');
    expect(memoryText()).not.toContain('lemur');
    // the prompt says so and its keyboard is gone (one editMessageText), before the answer came
    expect(prompt.plain).toMatch(/no answer means no\.\n\nNo answer in time: the call was not made\.$/);
    expect(JSON.stringify(prompt.params.reply_markup)).toBe('{"inline_keyboard":[]}');
    expect(tg.callsOf('editMessageText').filter((c) => c.status === 200).length - editsBefore).toBe(1);
    // a late press (a client that still shows the buttons): refused as expired
    const late = tg.pushCallback({ userId: 1001, data: keyboard[0][0].callback_data, messageId: prompt.messageId });
    await until(() => tg.callbackAnswers.some((a) => a.queryId === late), 20_000, 'the late press answered', gw);
    expect(tg.callbackAnswers.find((a) => a.queryId === late)?.text).toMatch(/expired/);
    expect(memoryText()).not.toContain('lemur');
  });
});
