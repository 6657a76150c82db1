/**
 * Outbound Slack: deliver() against the fake Web API and response_url, without start() (cron delivery).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../src/adapters/slack/index.js';
import { parseConfig } from '../../src/core/config.js';
import { PlatformApiError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/logger.js';
import { parseAllowList } from '../../src/core/settings.js';
import type { Delivery, DeliveryTarget } from '../../src/core/types.js';
import { type SlackFake, startSlackFake } from '../fakes/slack.js';

let slack: SlackFake;
let adapter: SlackAdapter;
const made: SlackAdapter[] = [];

function makeAdapter(apiUrl: string, botToken = slack.token): SlackAdapter {
  const created = createSlackAdapter(
    { botToken, signingSecret: 'secret', apiUrl, port: 0, allowed: parseAllowList('*') },
    { config: parseConfig('{}', 'test.yaml'), logger: silentLogger, home: '/nonexistent' },
  );
  made.push(created);
  return created;
}

function delivery(target: DeliveryTarget, chunks: string[], firstChunk = 0): Delivery & { sent: number[] } {
  const sent: number[] = [];
  return { id: 1, target, message: { chunks }, firstChunk, onChunkSent: (i) => void sent.push(i), sent };
}

async function rejection(promise: Promise<unknown>): Promise<PlatformApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformApiError);
  return error as PlatformApiError;
}

function commandTarget(id: string, responseType = 'in_channel', extra: Record<string, string> = {}): DeliveryTarget {
  return {
    platform: 'slack',
    chatId: 'C0CMD',
    userId: 'U1001',
    extra: { response_url: slack.responseUrl(id), response_type: responseType, response_url_expires_at: String(Date.now() + 30 * 60 * 1000), ...extra },
  };
}

beforeAll(async () => {
  slack = await startSlackFake();
  adapter = makeAdapter(slack.apiUrl);
});

afterAll(async () => {
  await Promise.all(made.map((a) => a.close()));
  await slack?.close();
});

describe('Slack deliver', () => {
  it('posts every chunk in order into the thread, as mrkdwn text without unfurls', async () => {
    const d = delivery({ platform: 'slack', chatId: 'C0001', threadId: '1700000004.000100', userId: 'U1001' }, ['*one*', '_two_', '`three`']);
    const before = slack.messages.length;
    await adapter.deliver(d);
    const posted = slack.messages.slice(before);
    expect(posted.map((m) => m.text)).toEqual(['*one*', '_two_', '`three`']);
    for (const m of posted) {
      expect(m).toMatchObject({ method: 'chat.postMessage', channel: 'C0001', thread_ts: '1700000004.000100' });
      expect(m.params).toMatchObject({ mrkdwn: 'true', unfurl_links: 'false' });
      expect(m.params.blocks).toBeUndefined();
    }
    expect(d.sent).toEqual([0, 1, 2]);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage').every((c) => c.token === slack.token)).toBe(true);
  });

  it('an approval prompt closed without a press (expired, answered elsewhere) is updated in place: its closing line, the buttons gone', async () => {
    const before = slack.messages.length;
    await adapter.deliver(delivery({ platform: 'slack', chatId: 'C0APPR', userId: 'U1001', approvalId: 'abc123def456' }, ['*Approval needed:* run `files__write_file`']));
    const prompt = slack.messages[before];
    const blocksOf = () => (typeof prompt.params.blocks === 'string' ? JSON.parse(prompt.params.blocks) : prompt.params.blocks) as Array<{ type: string }>;
    expect(blocksOf().map((b) => b.type)).toEqual(['section', 'actions']);
    await adapter.closeApprovalPrompt?.('abc123def456', 'No answer in time: the call was not made.');
    expect(prompt.text).toBe('*Approval needed:* run `files__write_file`\n\n*No answer in time: the call was not made.*');
    expect(blocksOf().map((b) => b.type)).toEqual(['section']);
    // once: a second close (or one for a prompt this process never posted) changes nothing
    const updates = slack.calls.filter((c) => c.method === 'chat.update').length;
    await adapter.closeApprovalPrompt?.('abc123def456', 'Denied in the console.');
    await adapter.closeApprovalPrompt?.('unknown00000', 'Denied in the console.');
    expect(slack.calls.filter((c) => c.method === 'chat.update').length).toBe(updates);
  });

  it('resumes at firstChunk, so a retried delivery never repeats a chunk', async () => {
    const before = slack.messages.length;
    const d = delivery({ platform: 'slack', chatId: 'D0001' }, ['a', 'b', 'c'], 2);
    await adapter.deliver(d);
    expect(slack.messages.slice(before).map((m) => [m.text, m.thread_ts])).toEqual([['c', undefined]]);
    expect(d.sent).toEqual([2]);
  });

  it('waits out a 429 for Retry-After and then sends the chunk exactly once', async () => {
    slack.rateLimit('chat.postMessage', 1);
    const before = slack.messages.length;
    const callsBefore = slack.callsTo('chat.postMessage').length;
    const started = Date.now();
    const d = delivery({ platform: 'slack', chatId: 'C0001' }, ['first', 'second']);
    await adapter.deliver(d);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const calls = slack.callsTo('chat.postMessage').slice(callsBefore);
    expect(calls.map((c) => c.status)).toEqual([429, 200, 200]);
    expect(slack.messages.slice(before).map((m) => m.text)).toEqual(['first', 'second']);
    expect(d.sent).toEqual([0, 1]);
  });

  it('reports msg_too_long as not retryable and does not count the chunk as sent', async () => {
    const d = delivery({ platform: 'slack', chatId: 'C0001' }, ['fits', 'x'.repeat(40_001)]);
    const error = await rejection(adapter.deliver(d));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('slack chat.postMessage: msg_too_long');
    expect(error.method).toBe('chat.postMessage');
    expect(d.sent).toEqual([0]);
  });

  it('reports channel_not_found and not_in_channel as not retryable', async () => {
    const gone = await rejection(adapter.deliver(delivery({ platform: 'slack', chatId: 'nope' }, ['hi'])));
    expect(gone.retryable).toBe(false);
    expect(gone.message).toContain('channel_not_found');
    slack.failNext('chat.postMessage', 'not_in_channel');
    const outside = await rejection(adapter.deliver(delivery({ platform: 'slack', chatId: 'C0001' }, ['hi'])));
    expect(outside.retryable).toBe(false);
    expect(outside.message).toContain('not_in_channel');
  });

  it('reports a Slack-side internal_error as retryable', async () => {
    slack.failNext('chat.postMessage', 'internal_error');
    const error = await rejection(adapter.deliver(delivery({ platform: 'slack', chatId: 'C0001' }, ['hi'])));
    expect(error.retryable).toBe(true);
  });

  it('reports a bad token as not retryable, without the token in the message', async () => {
    const bad = makeAdapter(slack.apiUrl, 'xoxb-wrong-token');
    const error = await rejection(bad.deliver(delivery({ platform: 'slack', chatId: 'C0001' }, ['hi'])));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('slack chat.postMessage: invalid_auth');
    expect(error.message).not.toContain('xoxb');
  });

  it('reports an unreachable Web API as a retryable network error after a few quick tries', async () => {
    const closed = await startSlackFake();
    const apiUrl = closed.apiUrl;
    await closed.close();
    const started = Date.now();
    const error = await rejection(makeAdapter(apiUrl).deliver(delivery({ platform: 'slack', chatId: 'C0001' }, ['hi'])));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/network error/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("answers a command through its response_url with the configured response_type", async () => {
    const before = slack.messages.length;
    const d = delivery(commandTarget('resp-1'), ['*answer* part 1', 'part 2']);
    await adapter.deliver(d);
    const posts = slack.responsePosts.filter((p) => p.id === 'resp-1');
    expect(posts.map((p) => p.body)).toEqual([
      { text: '*answer* part 1', response_type: 'in_channel', replace_original: false, unfurl_links: false, unfurl_media: false },
      { text: 'part 2', response_type: 'in_channel', replace_original: false, unfurl_links: false, unfurl_media: false },
    ]);
    expect(slack.messages.length).toBe(before);
    expect(d.sent).toEqual([0, 1]);
  });

  it('uses at most 5 posts per response_url and posts the rest to the channel', async () => {
    const before = slack.messages.length;
    const chunks = ['1', '2', '3', '4', '5', '6', '7'];
    const d = delivery(commandTarget('resp-many'), chunks);
    await adapter.deliver(d);
    expect(slack.responsePosts.filter((p) => p.id === 'resp-many').map((p) => [p.body.text, p.status])).toEqual([
      ['1', 200],
      ['2', 200],
      ['3', 200],
      ['4', 200],
      ['5', 200],
    ]);
    expect(slack.messages.slice(before).map((m) => [m.method, m.channel, m.text])).toEqual([
      ['chat.postMessage', 'C0CMD', '6'],
      ['chat.postMessage', 'C0CMD', '7'],
    ]);
    expect(d.sent).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('falls back to chat.postMessage when the response_url is refused or already expired', async () => {
    slack.expireResponseUrl('resp-expired');
    const before = slack.messages.length;
    await adapter.deliver(delivery(commandTarget('resp-expired'), ['late answer', 'more']));
    expect(slack.responsePosts.filter((p) => p.id === 'resp-expired').map((p) => p.status)).toEqual([404]);
    expect(slack.messages.slice(before).map((m) => m.text)).toEqual(['late answer', 'more']);

    // Past its 30 minutes the response_url is not even tried.
    const old = commandTarget('resp-old', 'in_channel', { response_url_expires_at: String(Date.now() - 1) });
    await adapter.deliver(delivery(old, ['from the outbox']));
    expect(slack.responsePosts.filter((p) => p.id === 'resp-old')).toEqual([]);
    expect(slack.messages.at(-1)).toMatchObject({ method: 'chat.postMessage', channel: 'C0CMD', text: 'from the outbox' });
  });

  it('keeps an ephemeral command answer ephemeral, also past the response_url', async () => {
    await adapter.deliver(delivery(commandTarget('resp-eph', 'ephemeral'), ['only you']));
    expect(slack.responsePosts.find((p) => p.id === 'resp-eph')?.body).toEqual({ text: 'only you', response_type: 'ephemeral', replace_original: false, unfurl_links: false, unfurl_media: false });
    slack.expireResponseUrl('resp-eph2');
    await adapter.deliver(delivery(commandTarget('resp-eph2', 'ephemeral'), ['still only you']));
    expect(slack.messages.at(-1)).toMatchObject({ method: 'chat.postEphemeral', channel: 'C0CMD', user: 'U1001', text: 'still only you' });
  });

  it('sends an ephemeral target (a refusal) with chat.postEphemeral to that user only', async () => {
    const d = delivery({ platform: 'slack', chatId: 'C0001', threadId: '1700000004.000100', userId: 'U9999', ephemeral: true }, ['You are not allowed to use this bot.']);
    await adapter.deliver(d);
    expect(slack.messages.at(-1)).toMatchObject({ method: 'chat.postEphemeral', channel: 'C0001', user: 'U9999', thread_ts: '1700000004.000100', text: 'You are not allowed to use this bot.' });
    expect(d.sent).toEqual([0]);
    // A refused slash command goes back through its response_url, ephemeral even if answers are in_channel.
    await adapter.deliver(delivery({ ...commandTarget('resp-refuse'), ephemeral: true }, ['Not allowed.']));
    expect(slack.responsePosts.find((p) => p.id === 'resp-refuse')?.body).toMatchObject({ text: 'Not allowed.', response_type: 'ephemeral' });
  });
});
