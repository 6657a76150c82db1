/** Pure pieces of the Discord adapter: attachment labels, targets, message bodies, the dispatch guard. */
import { describe, expect, it } from 'vitest';
import { parseGatewayBot, GatewayInfoError } from '../../src/adapters/discord/client.js';
import { checkDispatch } from '../../src/adapters/discord/guard.js';
import { channelFor, describeAttachment, formatSize, messageBody } from '../../src/adapters/discord/index.js';

describe('attachment descriptions', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [12 * 1024, '12 KB'],
    [1536 * 1024, '1.5 MB'],
  ])('formats %i bytes as %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it('names type and size, and keeps a hostile file name from closing the bracket', () => {
    expect(describeAttachment('chart.png', 'image/png', 12 * 1024)).toBe('[attachment: chart.png (image/png, 12 KB)]');
    expect(describeAttachment('a].txt\n[system', null, 10)).toBe('[attachment: a_.txt__system (10 B)]');
  });
});

describe('delivery targets and bodies', () => {
  it('posts to the thread when there is one, to extra.channelId first', () => {
    expect(channelFor({ platform: 'discord', chatId: '1' })).toBe('1');
    expect(channelFor({ platform: 'discord', chatId: '1', threadId: '2' })).toBe('2');
    expect(channelFor({ platform: 'discord', chatId: '1', threadId: '2', extra: { channelId: '3' } })).toBe('3');
  });

  it('never allows a ping and replies without failing on a deleted message', () => {
    expect(messageBody('hi @everyone', '42')).toEqual({
      content: 'hi @everyone',
      allowed_mentions: { parse: [] },
      flags: 4,
      message_reference: { message_id: '42', fail_if_not_exists: false },
    });
    expect(messageBody('next', undefined)).toEqual({ content: 'next', allowed_mentions: { parse: [] }, flags: 4 });
  });
});

describe('gateway dispatch guard', () => {
  const good = { id: '1', channel_id: '2', author: { id: '3', username: 'a' }, content: 'x', timestamp: '2024-01-01T00:00:00Z' };
  it('passes well-formed and unrelated events', () => {
    expect(checkDispatch('MESSAGE_CREATE', good)).toBeNull();
    expect(checkDispatch('TYPING_START', { anything: true })).toBeNull();
  });
  it('passes a message without timestamp or author.username (the adapter needs neither)', () => {
    expect(checkDispatch('MESSAGE_CREATE', { id: '1', channel_id: '2', author: { id: '3' }, content: 'x' })).toBeNull();
  });
  it('refuses messages the adapter cannot read', () => {
    expect(checkDispatch('MESSAGE_CREATE', null)).toMatch(/^MESSAGE_CREATE: /);
    expect(checkDispatch('MESSAGE_CREATE', { ...good, author: null })).toMatch(/author/);
    expect(checkDispatch('MESSAGE_CREATE', { ...good, content: 42 })).toMatch(/content/);
    expect(checkDispatch('INTERACTION_CREATE', { id: '1' })).toMatch(/^INTERACTION_CREATE: /);
  });
});

describe('GET /gateway/bot at the edge', () => {
  it('takes a gateway that leaves out the sharding advice as Discord answers a small bot', () => {
    expect(parseGatewayBot({ url: 'ws://127.0.0.1:4000' })).toEqual({
      url: 'ws://127.0.0.1:4000',
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
    });
    expect(parseGatewayBot({ url: 'wss://gateway.discord.gg', shards: 2, session_start_limit: { total: 1000, remaining: 998, reset_after: 5, max_concurrency: 1 } }).shards).toBe(2);
  });

  it('refuses an answer that names no gateway', () => {
    expect(() => parseGatewayBot({ message: '404: Not Found', code: 0 })).toThrow(GatewayInfoError);
    expect(() => parseGatewayBot({ url: 'https://example.com/' })).toThrow(GatewayInfoError);
  });
});

