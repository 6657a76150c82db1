/**
 * No zero-click egress (ARCHITECTURE.md §17): whatever an answer links to, no door makes its platform
 * fetch the URL by itself. Checked on the request bodies each door sent to its loopback fake, for every
 * kind of send and edit the door makes: Discord SUPPRESS_EMBEDS, Slack unfurl_links and unfurl_media
 * false, Telegram link_preview_options.is_disabled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import { createSlackAdapter } from '../../src/adapters/slack/index.js';
import { parseConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { parseAllowList } from '../../src/core/settings.js';
import type { Adapter, Delivery, DeliveryTarget } from '../../src/core/types.js';
import { startDiscordFake, type DiscordFake } from '../fakes/discord.js';
import { startSlackFake, type SlackFake } from '../fakes/slack.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { depsWith, settingsFor } from './discord.helpers.js';
import { makeAdapter as makeTelegramAdapter } from './telegram-helpers.js';

const LEAK = 'https://attacker.example/p?d=secret';
const SUPPRESS_EMBEDS = 1 << 2;

function delivery(target: DeliveryTarget, chunks: string[], streamed?: string[]): Delivery {
  return { id: 1, target: streamed ? { ...target, streamedMessageIds: streamed } : target, message: { chunks }, firstChunk: 0, onChunkSent: () => undefined };
}

describe('Discord: SUPPRESS_EMBEDS on every create and edit', () => {
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

  it('channel messages, streamed posts and edits, finishing edits, and interaction replies all carry the flag', async () => {
    const from = fake.requests.length;
    const target: DeliveryTarget = { platform: 'discord', chatId: fake.channelId };
    await adapter.deliver(delivery(target, [`see ${LEAK}`, 'more']));
    const streaming = adapter.streaming;
    if (!streaming) throw new Error('the Discord door streams');
    const id = await streaming.post(target, `draft ${LEAK}`, 0);
    await streaming.edit(target, id, `draft ${LEAK} grows`);
    await adapter.deliver(delivery(target, [`final ${LEAK}`], [id]));
    // An interaction whose token has expired: the reply is tried on the webhook, then posted to the channel.
    await adapter.deliver(
      delivery({ platform: 'discord', chatId: fake.channelId, extra: { channelId: fake.channelId, interactionToken: 'expired', applicationId: fake.applicationId } }, [`slash ${LEAK}`]),
    );
    const writes = fake.requests.slice(from).filter((r) => (r.method === 'POST' || r.method === 'PATCH') && /\/(messages|webhooks)\b/.test(r.path));
    expect(writes.map((r) => `${r.method} ${r.path.replace(/\d{5,}/g, 'N').replace(/expired/, 'T')}`)).toEqual([
      'POST /channels/N/messages',
      'POST /channels/N/messages',
      'POST /channels/N/messages',
      'PATCH /channels/N/messages/N',
      'PATCH /channels/N/messages/N',
      'PATCH /webhooks/N/T/messages/@original',
      'POST /channels/N/messages',
    ]);
    for (const r of writes) expect((r.body as { flags?: number }).flags, `${r.method} ${r.path}`).toBe(SUPPRESS_EMBEDS);
    const shown = fake.messages.filter((m) => m.content.includes(LEAK));
    expect(shown.length).toBeGreaterThanOrEqual(3);
    for (const m of shown) expect(m.flags).toBe(SUPPRESS_EMBEDS);
  });
});

describe('Slack: no unfurls on any post', () => {
  let slack: SlackFake;
  let adapter: Adapter;
  beforeAll(async () => {
    slack = await startSlackFake();
    adapter = createSlackAdapter(
      { botToken: slack.token, signingSecret: 'secret', apiUrl: slack.apiUrl, port: 0, allowed: parseAllowList('*') },
      { config: parseConfig('{}', 'test.yaml'), logger: silentLogger, home: '/nonexistent' },
    );
  });
  afterAll(async () => {
    await adapter?.close();
    await slack?.close();
  });

  it('chat.postMessage (answer and streamed first post) and the response_url answer set unfurl_links and unfurl_media false', async () => {
    const target: DeliveryTarget = { platform: 'slack', chatId: 'C0ZERO', threadId: '1700000000.000100' };
    await adapter.deliver(delivery(target, [`see ${LEAK}`]));
    const streaming = adapter.streaming;
    if (!streaming) throw new Error('the Slack door streams');
    const ts = await streaming.post(target, `draft ${LEAK}`, 0);
    await streaming.edit(target, ts, `draft ${LEAK} grows`);
    const posts = slack.callsTo('chat.postMessage').filter((c) => String(c.params.text).includes(LEAK));
    expect(posts).toHaveLength(2);
    for (const p of posts) expect(p.params).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });

    const command: DeliveryTarget = {
      platform: 'slack',
      chatId: 'C0CMD',
      userId: 'U1001',
      extra: { response_url: slack.responseUrl('zero'), response_type: 'in_channel', response_url_expires_at: String(Date.now() + 60_000) },
    };
    await adapter.deliver(delivery(command, [`slash ${LEAK}`]));
    const answers = slack.responsePosts.filter((p) => p.id === 'zero');
    expect(answers.map((p) => p.body)).toEqual([{ text: `slash ${LEAK}`, response_type: 'in_channel', replace_original: false, unfurl_links: false, unfurl_media: false }]);
  });
});

describe('Telegram: link previews off on every send and edit', () => {
  let fake: TelegramFake;
  beforeAll(async () => {
    fake = await startTelegramFake();
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('sendMessage for answers and streamed posts, and editMessageText, disable the preview', async () => {
    const adapter = makeTelegramAdapter(fake);
    try {
      const target: DeliveryTarget = { platform: 'telegram', chatId: '-1001', isDirect: false };
      await adapter.deliver(delivery(target, [`see <a href="${LEAK}">${LEAK}</a>`]));
      const streaming = adapter.streaming;
      if (!streaming) throw new Error('the Telegram door streams');
      const id = await streaming.post(target, `draft ${LEAK}`, 0);
      await streaming.edit(target, id, `draft ${LEAK} grows`);
      await adapter.deliver(delivery(target, [`final ${LEAK}`], [id]));
      const writes = fake.requests.filter((r) => r.method === 'sendMessage' || r.method === 'editMessageText');
      expect(writes.map((r) => r.method)).toEqual(['sendMessage', 'sendMessage', 'editMessageText', 'editMessageText']);
      for (const r of writes) expect(r.params.link_preview_options, r.method).toEqual({ is_disabled: true });
    } finally {
      await adapter.close();
    }
  });
});
