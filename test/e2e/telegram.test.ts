import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, systemText, type ModelFake } from '../fakes/model.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, startCli, type Running } from '../helpers/cli.js';

let model: ModelFake;
let tg: TelegramFake;
let home: string;

beforeAll(async () => {
  model = await startModelFake({ script: (req) => ({ text: `You said: **${lastUserText(req)}**` }) });
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
  home = mkdtempSync(join(tmpdir(), 'sb-tg-e2e-'));
});
afterAll(async () => {
  await tg.close();
  await model.close();
  rmSync(home, { recursive: true, force: true });
});

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

describe('switchboard start with Telegram', () => {
  let gw: Running;

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
    tg.pushText({ text: `@${tg.bot.username} what now?`, userId: 1001, chatId: -100500, chatType: 'supergroup', chatTitle: 'Team' });
    const inGroup = (await tg.waitForMessages(3))[2];
    expect(inGroup.chatId).toBe('-100500');
    expect(inGroup.replyToMessageId).toBeDefined();
    expect(inGroup.plain).toContain('what now?');
    expect(model.completions().length).toBe(before + 1);
    // names ride in the user message, never in the system prompt
    const groupReq = model.completions().at(-1)!;
    expect(lastUserText(groupReq)).toContain('chat: "Team"');
    expect(systemText(groupReq)).not.toContain('Team');
  });

  it('splits a long answer under 4,096 characters per message and waits out a 429', async () => {
    const para = 'word '.repeat(300).trim();
    model.queue({ text: Array.from({ length: 12 }, (_, i) => `Paragraph ${i}: ${para}`).join('\n\n') });
    tg.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 1 });
    const before = tg.sent.length;
    tg.pushText({ text: 'tell me a lot', userId: 1001 });
    await tg.waitForMessages(before + 5, 15_000);
    const deadline = Date.now() + 5000;
    while (!tg.sent.at(-1)!.plain.includes('Paragraph 11') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const parts = tg.sent.slice(before);
    for (const p of parts) expect(p.plain.length).toBeLessThanOrEqual(4096);
    const text = parts.map((p) => p.plain).join('\n');
    for (let i = 0; i < 12; i++) expect(text.split(`Paragraph ${i}:`).length - 1).toBe(1);
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
