/**
 * A crash mid-stream (ARCHITECTURE.md §10): the real `switchboard start` killed with SIGKILL while it is
 * streaming an answer into a group message by edits. After a restart the journaled message is
 * answered again and the half-streamed message is finished (edited to the final text), not posted a
 * second time: the whole answer is delivered once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, startCli, type Running } from '../helpers/cli.js';
import { renderFor } from '../../src/render/index.js';
import { sleep, until } from './harness.js';

let model: ModelFake;
let tg: TelegramFake;
let home: string;
const running: Running[] = [];
const ANSWER = `The long answer, streamed word by word: ${'and then some more words '.repeat(30).trim()}. The end.`;
let calls = 0;

beforeAll(async () => {
  // The first call streams slowly (the crash comes in the middle); the one after the restart is quick.
  model = await startModelFake({ script: () => ({ text: ANSWER, tokensPerSecond: calls++ === 0 ? 12 : 400 }) });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  home = mkdtempSync(join(tmpdir(), 'sb-faults-stream-crash-'));
});
afterAll(() => cleanUp(...running.map((r) => () => killIfRunning(r)), () => tg?.close(), () => model?.close(), () => removeDir(home)));

function start(): Running {
  const gw = startCli(['start'], {
    env: cleanEnv({
      SWITCHBOARD_HOME: home,
      OPENAI_BASE_URL: model.openaiUrl,
      OPENAI_API_KEY: 'sk-crash',
      MODEL: 'fake-model',
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.url,
      TELEGRAM_ALLOWED_USERS: '*',
    }),
  });
  running.push(gw);
  return gw;
}

function liveStreams(): Array<{ session_key: string; message_ids: string }> {
  const db = new Database(join(home, 'state.db'), { readonly: true });
  try {
    return db.prepare('SELECT session_key, message_ids FROM live_streams').all() as Array<{ session_key: string; message_ids: string }>;
  } finally {
    db.close();
  }
}

const GROUP = -100900;
const inGroup = () => tg.sent.filter((m) => m.chatId === String(GROUP));

describe('SIGKILL while an answer is being streamed by edits', () => {
  it('finishes the half-streamed message after a restart instead of posting the answer twice', async () => {
    let gw = start();
    await gw.waitFor(/ready \(telegram/);
    tg.pushText({ text: `@${tg.bot.username} tell me the long story`, userId: 4101, chatId: GROUP, chatType: 'supergroup', chatTitle: 'Crash' });
    await until(() => tg.visible.some((u) => u.chatId === String(GROUP) && u.kind === 'edit'), 15_000, 'a streamed edit');
    expect(await gw.stop('SIGKILL')).toBeNull();
    const [half] = inGroup();
    expect(inGroup()).toHaveLength(1);
    expect(half.plain.length).toBeLessThan(ANSWER.length - 20);
    expect(liveStreams().map((r) => JSON.parse(r.message_ids) as string[])).toEqual([[String(half.messageId)]]);

    gw = start();
    await gw.waitFor(/ready \(telegram/);
    const expected = renderFor('telegram', ANSWER).chunks;
    await until(() => inGroup()[0]?.text === expected[0], 20_000, 'the finished message');
    await sleep(1500); // a duplicate would arrive now
    expect(inGroup().map((m) => m.text)).toEqual(expected);
    expect(inGroup()[0].messageId).toBe(half.messageId);
    expect(liveStreams()).toEqual([]);
    expect(await gw.stop('SIGTERM')).toBe(0);
  });
});
