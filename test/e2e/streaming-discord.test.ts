/**
 * Streamed answers on Discord through the real `switchboard start` (ARCHITECTURE.md §10): the first message,
 * then PATCH edits at most once a second; the finished answer edits the streamed message(s) to what
 * `streaming: off` delivers; a long answer rolls into a second message; 429s on edits are skipped
 * while streaming and waited out for the final edit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { startDiscordFake, type DiscordFake } from '../fakes/discord.js';
import type { VisibleChange } from '../fakes/discord/state.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { doorEnv } from '../helpers/door-env.js';

const ALICE = '300000000000000001';
let model: ModelFake;
let discord: DiscordFake;
let home: string;
let gw: Running;

const ANSWER =
  'Here is the **plan** for today, step by step:\n\n1. Read the `config` file and check each *setting* twice.\n2. Start the gateway and watch the log for errors.\n\nThat is all for now; tell me when it runs.';
const LONG = Array.from({ length: 8 }, (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor '.repeat(20).trim()}.`).join('\n\n');
const answers: Record<string, { text: string; tokensPerSecond: number }> = {
  plan: { text: ANSWER, tokensPerSecond: 25 },
  long: { text: LONG, tokensPerSecond: 60 },
};

beforeAll(async () => {
  model = await startModelFake({
    script: (req) => {
      const key = Object.keys(answers).find((k) => lastUserText(req).includes(k));
      return key ? answers[key] : { text: `Echo: ${lastUserText(req)}` };
    },
  });
  discord = await startDiscordFake({ heartbeatInterval: 500 });
  home = mkdtempSync(join(tmpdir(), 'sb-stream-dc-'));
  writeFileSync(join(home, 'config.yaml'), `chats:\n  "discord:${discord.channelId}":\n    streaming: off\n`);
  gw = startCli(['start'], {
    env: cleanEnv({
      SWITCHBOARD_HOME: home,
      ...doorEnv.model(model),
      ...doorEnv.discord(discord, ALICE),
    }),
  });
  await gw.waitFor(/ready \(discord/);
});
afterAll(() => cleanUp(() => killIfRunning(gw), () => discord?.close(), () => model?.close(), () => removeDir(home)));

const postedIn = (channel: string, from: number) => discord.messages.slice(from).filter((m) => m.channelId === channel);

/** What `streaming: off` delivers: the answer in the guild channel, whose chat has streaming off. */
async function offDelivery(prompt: string, chunks: number): Promise<string[]> {
  const from = discord.messages.length;
  const visibleFrom = discord.visible.length;
  discord.sendGuildMessage({ userId: ALICE, content: prompt, mentionsBot: true });
  await until(() => postedIn(discord.channelId, from).length >= chunks, 20_000, 'the unstreamed answer', gw);
  await sleep(300);
  expect(discord.visible.slice(visibleFrom).filter((v) => v.kind === 'edit')).toEqual([]);
  return postedIn(discord.channelId, from).map((m) => m.content);
}

const gaps = (v: VisibleChange[]) => v.slice(1, -1).map((u, i) => u.at - v[i].at);

describe('streaming on Discord', () => {
  it('a DM shows the first message, then edits, and ends with the unstreamed text in that one message', async () => {
    const expected = await offDelivery('the plan', 1);
    const from = discord.messages.length;
    const visibleFrom = discord.visible.length;
    const streams = model.streams.length;
    discord.sendDM({ userId: ALICE, content: 'the plan' });
    const dm = discord.dmChannelId(ALICE);
    await until(() => postedIn(dm, from).some((m) => m.content === expected[0]), 20_000, 'the finished answer', gw);
    await sleep(1200);
    const changes = discord.visible.slice(visibleFrom).filter((v) => v.channelId === dm);
    expect(changes[0].kind).toBe('send');
    expect(changes[0].at).toBeLessThan(model.streams[streams].lastTokenAt);
    expect(changes.filter((c) => c.kind === 'edit').length).toBeGreaterThanOrEqual(2);
    for (const gap of gaps(changes)) expect(gap).toBeGreaterThanOrEqual(900);
    expect(postedIn(dm, from).map((m) => m.content)).toEqual(expected);
    expect(postedIn(dm, from)[0].allowedMentions).toEqual({ parse: [] });
    expect(discord.requests.filter((r) => r.status === 400)).toEqual([]);
  });

  it('a long answer rolls into a second message; 429s on edits never lose or double the final answer', async () => {
    const expected = await offDelivery('the long one', 2);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const from = discord.messages.length;
    const visibleFrom = discord.visible.length;
    const streams = model.streams.length;
    discord.failNext({ route: 'edits', status: 429, retryAfter: 0.5, times: 3 });
    discord.sendDM({ userId: ALICE, content: 'the long one' });
    const dm = discord.dmChannelId(ALICE);
    await until(() => postedIn(dm, from).map((m) => m.content).join('|') === expected.join('|'), 30_000, 'the finished long answer', gw);
    await sleep(1500);
    expect(postedIn(dm, from).map((m) => m.content)).toEqual(expected);
    // the second message was started while the model was still writing
    const sends = discord.visible.slice(visibleFrom).filter((v) => v.channelId === dm && v.kind === 'send');
    expect(sends).toHaveLength(expected.length);
    expect(sends[1].at).toBeLessThan(model.streams[streams].lastTokenAt);
    expect(discord.requests.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(3);
    expect(discord.requests.filter((r) => r.status === 400)).toEqual([]);
  });
});
