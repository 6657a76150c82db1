/**
 * Discord delivery over REST (no gateway needed): order, replies, allowed_mentions, rate limits, errors.
 * The adapter here is never started, as for a cron delivery or an outbox retry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import { REST_RETRIES } from '../../src/adapters/discord/send.js';
import { PlatformApiError } from '../../src/core/errors.js';
import type { Adapter } from '../../src/core/types.js';
import { startDiscordFake, type DiscordFake } from '../fakes/discord.js';
import { delivery, depsWith, settingsFor } from './discord.helpers.js';

let fake: DiscordFake;
let adapter: Adapter;

beforeAll(async () => {
  fake = await startDiscordFake();
  adapter = createDiscordAdapter(settingsFor(fake), depsWith());
});

afterAll(async () => {
  await adapter?.close();
  await fake?.close();
});

const postsSince = (n: number) => fake.requests.slice(n).filter((r) => r.method === 'POST' && /\/messages$/.test(r.path));

describe('discord deliver', () => {
  it('sends 3 chunks in order, the first as a reply, none able to ping', async () => {
    const userMessage = fake.sendDM({ userId: '300000000000000001', content: 'question' });
    const target = { platform: 'discord' as const, chatId: fake.dmChannelId('300000000000000001'), replyToMessageId: userMessage };
    const before = fake.messages.length;
    const d = delivery(target, ['part one @everyone', 'part two @here', 'part three <@&123456789012345678>']);
    await adapter.deliver(d);
    const sent = fake.messages.slice(before);
    expect(sent.map((m) => m.content)).toEqual(['part one @everyone', 'part two @here', 'part three <@&123456789012345678>']);
    expect(d.sent).toEqual([0, 1, 2]);
    expect(sent[0].messageReference).toEqual({ message_id: userMessage, fail_if_not_exists: false });
    expect(sent[0].replyTo).toBe(userMessage);
    expect(sent[1].messageReference).toBeUndefined();
    expect(sent[2].messageReference).toBeUndefined();
    for (const m of sent) {
      expect(m.allowedMentions).toEqual({ parse: [] });
      expect(m.pingsEveryone).toBe(false);
      expect(m.extraKeys).toEqual([]); // text in content only: no embeds, no files
    }
  });

  it('an approval prompt closed without a press is edited: its closing line, the buttons removed, SUPPRESS_EMBEDS kept', async () => {
    const before = fake.messages.length;
    await adapter.deliver(delivery({ platform: 'discord', chatId: fake.channelId, approvalId: 'abc123def456' }, ['**Approval needed:** run `files__write_file`']));
    const prompt = fake.messages[before];
    expect(JSON.stringify(prompt.components)).toContain('sb-approval:abc123def456:y');
    await adapter.closeApprovalPrompt?.('abc123def456', 'No answer in time: the call was not made.');
    expect(prompt.content).toBe('**Approval needed:** run `files__write_file`\n\n**No answer in time: the call was not made.**');
    expect(prompt.components).toEqual([]);
    expect(prompt.flags).toBe(1 << 2);
    const edits = fake.requests.filter((r) => r.method === 'PATCH').length;
    await adapter.closeApprovalPrompt?.('abc123def456', 'Denied in the console.');
    expect(fake.requests.filter((r) => r.method === 'PATCH').length).toBe(edits);
  });

  it('resumes from firstChunk without replying again', async () => {
    const before = fake.messages.length;
    const d = delivery({ platform: 'discord', chatId: fake.channelId, replyToMessageId: '1' }, ['a', 'b', 'c'], 1);
    await adapter.deliver(d);
    expect(fake.messages.slice(before).map((m) => [m.content, m.messageReference])).toEqual([
      ['b', undefined],
      ['c', undefined],
    ]);
    expect(d.sent).toEqual([1, 2]);
  });

  it('replies even when the original message is gone (fail_if_not_exists: false)', async () => {
    const before = fake.messages.length;
    await adapter.deliver(delivery({ platform: 'discord', chatId: fake.channelId, replyToMessageId: '123456789012345678' }, ['still delivered']));
    expect(fake.messages.slice(before)).toMatchObject([{ content: 'still delivered', replyTo: undefined }]);
  });

  it('waits out a 429 (Retry-After) and sends the chunk exactly once', async () => {
    const reqBefore = fake.requests.length;
    const before = fake.messages.length;
    fake.failNext({ route: 'messages', status: 429, retryAfter: 0.3 });
    const started = Date.now();
    const d = delivery({ platform: 'discord', chatId: fake.channelId }, ['after the limit', 'and the next']);
    await adapter.deliver(d);
    const posts = postsSince(reqBefore);
    expect(posts.map((p) => p.status)).toEqual([429, 200, 200]);
    expect(fake.messages.slice(before).map((m) => m.content)).toEqual(['after the limit', 'and the next']);
    // Discord says 0.3 s (x-ratelimit-reset-after / retry_after); the retry must not come sooner.
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(d.sent).toEqual([0, 1]);
  });

  it('hands a long rate limit back to the outbox instead of blocking (retryable, with retryAfterMs)', async () => {
    const before = fake.messages.length;
    fake.failNext({ route: 'messages', status: 429, retryAfter: 120 });
    const started = Date.now();
    // The thread channel: its bucket is then limited for 120 s, so keep it away from the other tests.
    const error = await adapter.deliver(delivery({ platform: 'discord', chatId: fake.channelId, threadId: fake.threadId }, ['later'])).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect(error).toMatchObject({ retryable: true, status: 429, code: 'rate_limited' });
    expect((error as PlatformApiError).retryAfterMs).toBeGreaterThanOrEqual(119_000);
    expect(fake.messages.length).toBe(before);
  });

  it('turns a persistent 5xx into a retryable PlatformApiError after the chunks that went through', async () => {
    const before = fake.messages.length;
    const reqBefore = fake.requests.length;
    // The first chunk goes through; the second fails on every attempt @discordjs/rest makes (1 + REST_RETRIES).
    fake.failNext({ route: 'messages', status: 502, skip: 1, times: 1 + REST_RETRIES });
    const d = delivery({ platform: 'discord', chatId: fake.channelId }, ['first ok', 'second fails']);
    const error = await adapter.deliver(d).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect(error).toMatchObject({ retryable: true, status: 502, platform: 'discord' });
    expect(fake.messages.slice(before).map((m) => m.content)).toEqual(['first ok']);
    expect(d.sent).toEqual([0]);
    expect(postsSince(reqBefore).map((p) => p.status)).toEqual([200, ...Array(1 + REST_RETRIES).fill(502)]);
  });

  it('does not retry 403 Missing Permissions or 404 Unknown Channel', async () => {
    fake.failNext({ route: 'messages', status: 403 });
    const forbidden = await adapter.deliver(delivery({ platform: 'discord', chatId: fake.channelId }, ['x'])).catch((e: unknown) => e);
    expect(forbidden).toMatchObject({ retryable: false, status: 403 });
    expect((forbidden as Error).message).toBe('discord createMessage: 403 Missing Permissions (code 50013)');
    const unknown = await adapter.deliver(delivery({ platform: 'discord', chatId: '999999999999999999' }, ['x'])).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ retryable: false, status: 404 });
    expect((unknown as Error).message).toContain('Unknown Channel');
  });

  it('reports Discord’s 50035 for content over 2,000 code points as not retryable', async () => {
    const tooLong = '😀'.repeat(2001); // 2,001 code points (4,002 UTF-16 units)
    const error = await adapter.deliver(delivery({ platform: 'discord', chatId: fake.channelId }, [tooLong])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect(error).toMatchObject({ retryable: false, status: 400 });
    expect((error as Error).message).toContain('Invalid Form Body');
    expect((error as Error).message).not.toContain('\n');
    const before = fake.messages.length;
    await adapter.deliver(delivery({ platform: 'discord', chatId: fake.channelId }, ['😀'.repeat(2000)]));
    expect(fake.messages.length).toBe(before + 1);
  });

  it('sends typing to the thread channel and swallows typing errors', async () => {
    await adapter.sendTyping!({ platform: 'discord', chatId: fake.channelId, threadId: fake.threadId });
    expect(fake.typing.at(-1)).toBe(fake.threadId);
    fake.failNext({ route: 'typing', status: 403 });
    await expect(adapter.sendTyping!({ platform: 'discord', chatId: fake.channelId })).resolves.toBeUndefined();
  });

  it('diagnose() is empty with a good token and one line with a bad one', async () => {
    expect(await adapter.diagnose!()).toEqual([]);
    const bad = createDiscordAdapter(settingsFor(fake, { token: 'bad.token.value' }), depsWith());
    const problems = await bad.diagnose!().finally(() => bad.close());
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/DISCORD_BOT_TOKEN/);
    expect(problems[0]).not.toContain('bad.token.value');
  });
});
