/**
 * `require_mention` on Telegram, end to end through `switchboard start` (ARCHITECTURE.md §13): the door hands
 * over every group message, and only the gateway's `addressed` step decides. A group message without
 * a mention is not answered (no model call, no reply) until the chat's `chats:` entry says
 * `require_mention: false`; other groups still need a mention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, type Running } from '../helpers/cli.js';

const OPEN_GROUP = -1001700;
const OTHER_GROUP = -1001800;

let model: ModelFake;
let tg: TelegramFake;
let home: string;

beforeAll(async () => {
  model = await startModelFake({ script: (req) => ({ text: `You said: ${lastUserText(req)}` }) });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  home = mkdtempSync(join(tmpdir(), 'sb-tg-groups-'));
});
afterAll(() => cleanUp(() => tg?.close(), () => model?.close(), () => removeDir(home)));

function env() {
  return cleanEnv({
    SWITCHBOARD_HOME: home,
    OPENAI_BASE_URL: model.openaiUrl,
    OPENAI_API_KEY: 'sk-e2e',
    MODEL: 'fake-model',
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.url,
    TELEGRAM_ALLOWED_USERS: '1001',
  });
}

/** A group message from an allowed user that neither mentions nor replies to the bot. */
function chatter(chatId: number, text: string): number {
  return tg.pushText({ chatId, chatType: 'supergroup', chatTitle: 'Team', userId: 1001, text });
}

/** Pushes chatter and waits until the gateway has taken it (the door confirms after the handler). */
async function chatterTaken(chatId: number, text: string): Promise<void> {
  const id = chatter(chatId, text);
  await tg.waitForConfirmed(id + 1);
  await sleep(300); // an answer, had there been one, would be on its way by now
}

describe('switchboard start with Telegram: require_mention', () => {
  let gw: Running | undefined;
  afterAll(() => killIfRunning(gw));

  it('without a chats: entry, a group message without a mention gets no model call and no reply', async () => {
    writeFileSync(join(home, 'config.yaml'), 'streaming:\n  telegram: off\n');
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    await chatterTaken(OPEN_GROUP, 'anyone around?');
    expect(model.completions()).toHaveLength(0);
    expect(tg.sent).toHaveLength(0);
    // The same group is answered when it mentions the bot: the chatter was ignored, not lost on the way.
    tg.pushText({ chatId: OPEN_GROUP, chatType: 'supergroup', userId: 1001, text: `@${tg.bot.username} are you there?` });
    const [answer] = await tg.waitForMessages(1);
    expect(answer.chatId).toBe(String(OPEN_GROUP));
    expect(answer.plain).toMatch(/are you there\?$/);
    expect(model.completions()).toHaveLength(1);
    expect(await gw.stop('SIGTERM')).toBe(0);
  });

  it('with require_mention: false the chat is answered without a mention; other groups still need one', async () => {
    writeFileSync(join(home, 'config.yaml'), `streaming:\n  telegram: off\nchats:\n  "telegram:${OPEN_GROUP}":\n    require_mention: false\n`);
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    const calls = model.completions().length;
    const sent = tg.sent.length;

    await chatterTaken(OTHER_GROUP, 'talking among ourselves');
    expect(model.completions()).toHaveLength(calls);
    expect(tg.sent).toHaveLength(sent);

    const asked = chatter(OPEN_GROUP, 'what is the plan?');
    const answer = (await tg.waitForMessages(sent + 1))[sent];
    expect(answer.chatId).toBe(String(OPEN_GROUP));
    expect(answer.plain).toMatch(/what is the plan\?$/);
    expect(model.completions()).toHaveLength(calls + 1);
    // In a group the answer replies to the message it answers.
    await tg.waitForConfirmed(asked + 1);
    expect(answer.replyToMessageId).toBeDefined();
    await sleep(300);
    expect(tg.sent).toHaveLength(sent + 1);
    expect(await gw.stop('SIGTERM')).toBe(0);
  });
});
