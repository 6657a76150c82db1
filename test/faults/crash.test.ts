/**
 * Crash faults: the real `switchboard start` killed with SIGKILL between taking a Telegram message and
 * delivering its answer — once while the model is still writing (slow model), once with the answer
 * already in the outbox but not yet accepted by Telegram. After a restart the message is answered
 * exactly once: the inbound journal brings the turn back, dedup by update id stops a redelivered update
 * from being answered twice, and the outbox resumes what was not sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, startCli, type Running } from '../helpers/cli.js';
import { sleep, until } from './harness.js';

let model: ModelFake;
let tg: TelegramFake;
let home: string;
const slowOnce = new Set<string>();
const running: Running[] = [];

beforeAll(async () => {
  model = await startModelFake({
    script: (req) => {
      const text = lastUserText(req);
      if (slowOnce.delete(text)) return { text: 'the answer that never came', delayMs: 20_000 };
      return { text: `Echo: ${text}` };
    },
  });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  home = mkdtempSync(join(tmpdir(), 'sb-faults-crash-'));
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

async function kill(gw: Running): Promise<void> {
  const code = await gw.stop('SIGKILL');
  expect(code).toBeNull(); // killed, not exited
}

const answersTo = (chat: number) => tg.sent.filter((m) => m.chatId === String(chat));

function journal(updateId: number): { status: string } | undefined {
  const db = new Database(join(home, 'state.db'), { readonly: true });
  try {
    return db.prepare('SELECT status FROM inbound WHERE platform = ? AND update_id = ?').get('telegram', String(updateId)) as { status: string } | undefined;
  } finally {
    db.close();
  }
}

describe('SIGKILL between receiving a message and delivering its answer', () => {
  it('answers a message exactly once after a restart when the process died while the model was writing', async () => {
    let gw = start();
    await gw.waitFor(/ready \(telegram/);
    const question = 'a question the crash interrupts';
    slowOnce.add(question);
    const before = model.completions().length;
    const updateId = tg.pushText({ text: question, userId: 4001 });
    await model.waitForRequests(before + 1); // the turn is running: the message was taken
    await kill(gw);
    expect(answersTo(4001)).toHaveLength(0);
    expect(journal(updateId)?.status).toBe('pending');

    gw = start();
    await gw.waitFor(/ready \(telegram/);
    await until(() => answersTo(4001).length >= 1, 15_000, 'the answer after restart');
    await sleep(1500); // a second answer (redelivered update, or recovery twice) would arrive now
    expect(answersTo(4001).map((m) => m.plain)).toEqual([`Echo: ${question}`]);
    expect(tg.confirmedOffset).toBeGreaterThan(updateId); // Telegram was told it was handled
    expect(gw.stderr()).toMatch(/answering 1 message\(s\) kept from before the last stop/);
    expect(await gw.stop('SIGTERM')).toBe(0);
    expect(journal(updateId)?.status).toBe('done');
  });

  it('delivers an answer that was in the outbox exactly once after a restart', async () => {
    let gw = start();
    await gw.waitFor(/ready \(telegram/);
    // Telegram cannot be reached on the first try: the answer is stored and waits in the outbox (next try in 1 s).
    tg.failNext('sendMessage', 'network', 1);
    const question = 'an answer stuck in the outbox';
    const attemptsBefore = tg.callsOf('sendMessage').length;
    const updateId = tg.pushText({ text: question, userId: 4002 });
    await until(() => tg.callsOf('sendMessage').length > attemptsBefore, 10_000, 'a first delivery attempt');
    await kill(gw);
    expect(journal(updateId)?.status).toBe('done');
    expect(answersTo(4002)).toHaveLength(0);
    const calls = model.completions().length;

    gw = start();
    await gw.waitFor(/ready \(telegram/);
    await until(() => answersTo(4002).length >= 1, 20_000, 'the stored answer');
    await sleep(1500);
    expect(answersTo(4002).map((m) => m.plain)).toEqual([`Echo: ${question}`]);
    expect(model.completions().length).toBe(calls); // sent from the outbox, not asked again
    expect(await gw.stop('SIGTERM')).toBe(0);

    const db = new Database(join(home, 'state.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});
