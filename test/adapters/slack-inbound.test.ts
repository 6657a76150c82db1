/**
 * Slack payload decoding (pure): text normalisation, mention stripping, which events count.
 */
import { describe, expect, it } from 'vitest';
import { decodeCommand, decodeMentionEvent, decodeMessageEvent, slackToPlainText, stripBotMention } from '../../src/adapters/slack/inbound.js';

const ctx = { botUserId: 'UBOT', botId: 'BBOT', now: new Date('2026-03-02T10:00:00Z') };
const envelope = (event: Record<string, unknown>, eventId = 'Ev1') => ({ type: 'event_callback', event_id: eventId, event });

describe('slackToPlainText', () => {
  it.each([
    ['see <https://example.com|the docs>', 'see the docs (https://example.com)'],
    ['see <https://example.com>', 'see https://example.com'],
    ['mail <mailto:a@b.c|a@b.c>', 'mail a@b.c'],
    ['in <#C123|general> ok', 'in #general ok'],
    ['<!here> look', '@here look'],
    ['<!subteam^S1|@oncall> help', '@oncall help'],
    ['ask <@U777|bob> or <@U888>', 'ask @bob or <@U888>'],
    ['a &lt; b &amp;&amp; c &gt; d', 'a < b && c > d'],
    // Escaped angle brackets never become a link token.
    ['&lt;https://evil|safe&gt;', '<https://evil|safe>'],
  ])('%s → %s', (input, expected) => {
    expect(slackToPlainText(input)).toBe(expected);
  });
});

describe('stripBotMention', () => {
  it('removes every mention of the bot, also with a label, and tidies spaces', () => {
    expect(stripBotMention('<@UBOT> hi  <@UBOT|sb> there', 'UBOT')).toEqual({ text: 'hi there', mentioned: true });
    expect(stripBotMention('hi <@UOTHER>', 'UBOT')).toEqual({ text: 'hi <@UOTHER>', mentioned: false });
  });
});

describe('decoding events', () => {
  it('takes a DM with a file (file_share) and answers a DM thread reply in that thread', () => {
    const d = decodeMessageEvent(
      envelope({ type: 'message', subtype: 'file_share', channel: 'D1', channel_type: 'im', user: 'U1', text: 'what is in this?', ts: '2.0', thread_ts: '1.0' }),
      ctx,
    );
    expect(d.ok && d.message).toMatchObject({ text: 'what is in this?', threadId: '1.0', replyTarget: { threadId: '1.0' }, receivedAt: ctx.now });
  });

  it('skips an empty DM, group DMs, and a channel message that mentions the bot (its app_mention answers it)', () => {
    expect(decodeMessageEvent(envelope({ type: 'message', channel: 'D1', channel_type: 'im', user: 'U1', text: '<@UBOT>', ts: '1' }), ctx)).toEqual({ ok: false, reason: 'empty message' });
    expect(decodeMessageEvent(envelope({ type: 'message', channel: 'G1', channel_type: 'mpim', user: 'U1', text: 'hi', ts: '1' }), ctx).ok).toBe(false);
    const mentioned = decodeMessageEvent(envelope({ type: 'message', channel: 'C1', channel_type: 'channel', user: 'U1', text: 'hi <@UBOT>', ts: '1' }), ctx);
    expect(mentioned.ok === false && mentioned.reason).toMatch(/mentions the bot/);
    expect(decodeMessageEvent(envelope({ type: 'message', channel: 'G2', channel_type: 'group', user: 'U1', text: '<@UBOT|sb> hi', ts: '1' }), ctx).ok).toBe(false);
  });

  it('takes an unmentioned channel or private channel message as mentionsBot false, threaded like a mention', () => {
    const top = decodeMessageEvent(envelope({ type: 'message', channel: 'C1', channel_type: 'channel', user: 'U1', text: 'hi <@U2>', ts: '3.0' }, 'EvC'), ctx);
    expect(top.ok && top.message).toMatchObject({
      chatId: 'C1',
      threadId: '3.0',
      text: 'hi <@U2>',
      isDirect: false,
      mentionsBot: false,
      messageId: '3.0',
      updateId: 'EvC',
      replyTarget: { platform: 'slack', chatId: 'C1', threadId: '3.0', userId: 'U1' },
    });
    const reply = decodeMessageEvent(envelope({ type: 'message', channel: 'G1', channel_type: 'group', user: 'U1', text: 'in thread', ts: '4.0', thread_ts: '3.5' }), ctx);
    expect(reply.ok && reply.message).toMatchObject({ chatId: 'G1', threadId: '3.5', isDirect: false, mentionsBot: false, replyTarget: { threadId: '3.5' } });
    expect(decodeMessageEvent(envelope({ type: 'message', channel: 'C1', channel_type: 'channel', bot_id: 'B9', text: 'bot', ts: '5.0' }), ctx).ok).toBe(false);
    expect(decodeMessageEvent(envelope({ type: 'message', subtype: 'channel_join', channel: 'C1', channel_type: 'channel', user: 'U1', text: 'joined', ts: '5.1' }), ctx).ok).toBe(false);
    expect(decodeMessageEvent(envelope({ type: 'message', channel: 'C1', channel_type: 'channel', user: 'U1', text: '  ', ts: '5.2' }), ctx)).toEqual({ ok: false, reason: 'empty message' });
  });

  it('reports malformed envelopes and events as malformed', () => {
    expect(decodeMessageEvent({ event: {} }, ctx)).toEqual({ ok: false, reason: 'malformed event envelope (no event_id)' });
    expect(decodeMentionEvent(envelope({ type: 'app_mention', user: 'U1', ts: '1' }, 'Ev9'), ctx)).toEqual({ ok: false, reason: 'malformed app_mention event Ev9' });
    expect(decodeMentionEvent('nonsense', ctx).ok).toBe(false);
  });

  it('identifies an event without event_id by its channel and ts (one id per event, so redeliveries still dedupe)', () => {
    const d = decodeMessageEvent({ type: 'event_callback', event: { type: 'message', channel: 'D1', user: 'U1', text: 'hi', ts: '7.1' } }, ctx);
    expect(d.ok && d.message.updateId).toBe('ev-D1-7.1');
  });

  it('keeps a bare mention as an empty turn addressed to the bot', () => {
    const d = decodeMentionEvent(envelope({ type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT>', ts: '5.0' }), ctx);
    expect(d.ok && d.message).toMatchObject({ text: '', mentionsBot: true, threadId: '5.0' });
  });

  it('decodes a command from a DM with entities unescaped', () => {
    const d = decodeCommand(
      { command: '/ask', text: 'is 1 &lt; 2?', user_id: 'U1', channel_id: 'D9', channel_name: 'directmessage', response_url: 'https://hooks.slack.com/commands/1/2/3', trigger_id: 'tr1' },
      ctx,
      'in_channel',
    );
    expect(d.ok && d.message).toMatchObject({ text: 'is 1 < 2?', isDirect: true, chatTitle: undefined, updateId: 'tr1', messageId: 'tr1' });
    expect(d.ok && d.message.replyTarget.extra?.response_url_expires_at).toBe(String(ctx.now.getTime() + 30 * 60 * 1000));
  });
});
