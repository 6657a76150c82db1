import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, systemText, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { doorEnv } from '../helpers/door-env.js';

let model: ModelFake;
let tg: TelegramFake;
let home: string;

beforeAll(async () => {
  model = await startModelFake({ script: (req) => ({ text: `You said: **${lastUserText(req)}**` }) });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  home = mkdtempSync(join(tmpdir(), 'sb-tg-e2e-'));
  // Answers arrive whole here: a streamed answer may post its first chunk while the model writes
  // (and meet the 429 the chunking test sets up there, not in the outbox). Streaming has its own
  // tests (streaming-telegram.test.ts).
  writeFileSync(join(home, 'config.yaml'), 'streaming:\n  telegram: off\n');
});
afterAll(() => cleanUp(() => tg?.close(), () => model?.close(), () => removeDir(home)));

function env(extra: Record<string, string> = {}) {
  return cleanEnv({ SWITCHBOARD_HOME: home, ...doorEnv.model(model), ...doorEnv.telegram(tg, '1001'), ...extra });
}

describe('switchboard start with Telegram', () => {
  let gw: Running;
  afterAll(() => killIfRunning(gw));

  it('answers a private chat in HTML, refuses a stranger without a model call, and gates groups on mentions', async () => {
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    tg.pushText({ text: 'hello there', userId: 1001 });
    const [first] = await tg.waitForMessages(1);
    expect(first.parseMode).toBe('HTML');
    expect(first.text).toBe('You said: <b>hello there</b>');
    expect(first.chatId).toBe('1001');

    const before = model.completions().length;
    tg.pushText({ text: 'let me in', userId: 2002 });
    const refusal = (await tg.waitForMessages(2))[1];
    expect(refusal.chatId).toBe('2002');
    expect(refusal.plain).toMatch(/private/);
    tg.pushText({ text: 'just chatting', userId: 1001, chatId: -100500, chatType: 'supergroup', chatTitle: 'Team' });
    const mention = tg.makeMessage({ text: `@${tg.bot.username} what now?`, userId: 1001, chatId: -100500, chatType: 'supergroup', chatTitle: 'Team' });
    tg.pushUpdate({ message: mention });
    const inGroup = (await tg.waitForMessages(3))[2];
    expect(inGroup.chatId).toBe('-100500');
    // in groups the answer replies to the message that asked
    expect(inGroup.replyToMessageId).toBe(mention.message_id);
    expect(inGroup.plain).toContain('what now?');
    expect(model.completions().length).toBe(before + 1);
    // names ride in the user message, never in the system prompt
    const groupReq = model.completions().at(-1)!;
    expect(lastUserText(groupReq)).toContain('chat: "Team"');
    expect(systemText(groupReq)).not.toContain('Team');
  });

  it('splits a long answer into messages of at most 4,096 characters; a 429 is waited out as Telegram says, then that chunk is sent once', async () => {
    const para = 'word '.repeat(300).trim();
    model.queue({ text: Array.from({ length: 12 }, (_, i) => `Paragraph ${i}: ${para}`).join('\n\n') });
    // retry_after 2 s: longer than any fixed backoff, so only honouring Telegram's value passes
    tg.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 2 });
    const before = tg.sent.length;
    const callsBefore = tg.callsOf('sendMessage').length;
    tg.pushText({ text: 'tell me a lot', userId: 1001 });
    await until(() => tg.sent.slice(before).some((p) => p.plain.includes('Paragraph 11:')), 15_000, 'the last paragraph', gw);
    await sleep(300); // a chunk sent twice would show up now

    const calls = tg.callsOf('sendMessage').slice(callsBefore);
    const refused = calls.filter((c) => c.status === 429);
    expect(refused).toHaveLength(1);
    expect(calls[0]).toBe(refused[0]); // the first chunk met the 429
    const firstChunk = refused[0].params.text;
    const tries = calls.filter((c) => c.params.text === firstChunk);
    expect(tries.map((c) => c.status)).toEqual([429, 200]);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(1990);
    expect(tries[1].at - tries[0].at).toBeLessThan(6000);

    const parts = tg.sent.slice(before);
    expect(parts.filter((p) => p.text === firstChunk)).toHaveLength(1);
    expect(parts[0].text).toBe(firstChunk);
    expect(parts.length).toBeGreaterThan(1);
    expect(calls.filter((c) => c.status === 200)).toHaveLength(parts.length);
    for (const p of parts) expect(p.plain.length).toBeLessThanOrEqual(4096);
    // every paragraph exactly once, in order
    const text = parts.map((p) => p.plain).join('\n');
    expect([...text.matchAll(/Paragraph (\d+):/g)].map((m) => Number(m[1]))).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('keeps the system prompt byte-identical across turns and a restart, and stops on SIGTERM with exit 0', async () => {
    const before = model.completions().length;
    tg.pushText({ text: 'turn A', userId: 1001 });
    await tg.waitForMessages(tg.sent.length + 1);
    expect(await gw.stop('SIGTERM')).toBe(0);
    gw = startCli(['start'], { env: env() });
    await gw.waitFor(/ready \(telegram/);
    const n = tg.sent.length;
    tg.pushText({ text: 'turn B', userId: 1001 });
    await tg.waitForMessages(n + 1);
    const reqs = model.completions().slice(before);
    expect(reqs.length).toBe(2);
    expect(systemText(reqs[1])).toBe(systemText(reqs[0]));
    const prev = JSON.stringify(reqs[0].body.messages);
    expect(JSON.stringify(reqs[1].body.messages).startsWith(prev.slice(0, -1))).toBe(true);
    expect(await gw.stop('SIGINT')).toBe(0);
  });
});
