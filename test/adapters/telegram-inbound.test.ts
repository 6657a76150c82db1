import { describe, expect, it } from 'vitest';
import { toInboundMessage, type InboundResult } from '../../src/adapters/telegram/inbound.js';

const bot = { id: 999, username: 'SwitchBot' };
const options = { handleEdited: false, now: () => new Date('2025-01-02T03:04:05Z') };
const alice = { id: 1001, is_bot: false, first_name: 'Alice' };
const group = { id: -100500, type: 'supergroup', title: 'Team' };

function update(message: Record<string, unknown>): unknown {
  return { update_id: 7, message: { message_id: 10, date: 1, from: alice, chat: group, ...message } };
}

function text(result: InboundResult): string | undefined {
  return result.kind === 'message' ? result.message.text : undefined;
}

describe('telegram inbound translation', () => {
  it('a text_mention of the bot mentions it; a mention of someone else is handed over as not mentioning it', () => {
    const byTextMention = toInboundMessage(update({ text: 'Switchy help', entities: [{ type: 'text_mention', offset: 0, length: 7, user: { id: 999 } }] }), bot, options);
    expect(byTextMention).toMatchObject({ kind: 'message', message: { mentionsBot: true } });
    const other = toInboundMessage(update({ text: '@someone_else hi', entities: [{ type: 'mention', offset: 0, length: 13 }] }), bot, options);
    expect(other).toMatchObject({ kind: 'message', message: { isDirect: false, mentionsBot: false, isReplyToBot: false, text: '@someone_else hi' } });
  });

  it('matches the username case-insensitively and keeps a mention that is not leading', () => {
    const lead = toInboundMessage(update({ text: '@switchbot: summarise this', entities: [{ type: 'mention', offset: 0, length: 10 }] }), bot, options);
    expect(text(lead)).toBe('summarise this');
    const middle = toInboundMessage(update({ text: 'thanks @SwitchBot!', entities: [{ type: 'mention', offset: 7, length: 10 }] }), bot, options);
    expect(text(middle)).toBe('thanks @SwitchBot!');
  });

  it('a message in a forum topic the bot created is not a reply to the bot', () => {
    const topic = { message_thread_id: 5, is_topic_message: true, reply_to_message: { message_id: 5, from: { id: 999 } } };
    expect(toInboundMessage(update({ text: 'talking among us', ...topic }), bot, options)).toMatchObject({ kind: 'message', message: { isReplyToBot: false } });
    const realReply = { message_thread_id: 5, is_topic_message: true, reply_to_message: { message_id: 8, from: { id: 999 } } };
    expect(toInboundMessage(update({ text: 'answer me', ...realReply }), bot, options)).toMatchObject({ kind: 'message', message: { threadId: '5', isReplyToBot: true, mentionsBot: false } });
  });

  it('reports a command as Telegram marked it: for this bot (cleaned to /cmd) or for another (left as written)', () => {
    const cmd = (text: string, length: number) => [{ type: 'bot_command', offset: 0, length }];
    const ours = toInboundMessage(update({ text: '/Status@switchbot now', entities: cmd('/Status@switchbot now', 17) }), bot, options);
    expect(ours).toMatchObject({ kind: 'message', message: { text: '/status now', command: { name: 'status', forBot: true }, mentionsBot: false } });
    const bare = toInboundMessage(update({ text: '/new', entities: cmd('/new', 4) }), bot, options);
    expect(bare).toMatchObject({ kind: 'message', message: { command: { name: 'new', forBot: true } } });
    const theirs = toInboundMessage(update({ text: '/status@OtherBot @SwitchBot', entities: [...cmd('', 16), { type: 'mention', offset: 17, length: 10 }] }), bot, options);
    expect(theirs).toMatchObject({ kind: 'message', message: { text: '/status@OtherBot @SwitchBot', command: { name: 'status', forBot: false }, mentionsBot: true } });
    // A slash that Telegram did not mark as a command (a path) is plain text.
    const path = toInboundMessage(update({ text: '/usr/bin is where', entities: [] }), bot, options);
    expect(path).toMatchObject({ kind: 'message', message: { text: '/usr/bin is where' } });
    expect(path.kind === 'message' && path.message.command).toBe(undefined);
  });

  it('describes locations, venues, contacts and documents; captions addressed to the bot are cleaned', () => {
    const dm = { id: 1001, type: 'private' };
    const cases: [Record<string, unknown>, string][] = [
      [{ location: { latitude: 52.520008, longitude: 13.404954 } }, '[location: 52.52001, 13.40495]'],
      [{ venue: { title: 'Cafe', address: 'Main St 1', location: { latitude: 1, longitude: 2 } }, location: { latitude: 1, longitude: 2 } }, '[venue: Cafe, Main St 1]'],
      [{ contact: { phone_number: '+4930123', first_name: 'Carl', last_name: 'C' } }, '[contact: Carl C, +4930123]'],
      [{ document: { file_name: 'a\u0000b\nc.txt', file_size: 3 * 1024 * 1024 } }, '[document: a b c.txt (3.0 MB)]'],
      [{ audio: { duration: 201, performer: 'Band', title: 'Song' } }, '[audio: Band – Song, 3:21]'],
    ];
    for (const [fields, expected] of cases) {
      expect(text(toInboundMessage(update({ chat: dm, ...fields }), bot, options))).toBe(expected);
    }
    const captioned = toInboundMessage(
      update({ photo: [{ width: 1, height: 1 }], caption: '@SwitchBot what is this?', caption_entities: [{ type: 'mention', offset: 0, length: 10 }] }),
      bot,
      options,
    );
    expect(captioned).toMatchObject({ kind: 'message', message: { text: '[photo] what is this?', mentionsBot: true } });
  });

  it('skips service messages and channel posts, names a sender without a first name part by username', () => {
    expect(toInboundMessage(update({ new_chat_members: [alice] }), bot, options)).toMatchObject({ kind: 'skip', reason: 'service message' });
    expect(toInboundMessage(update({ chat: { id: -1, type: 'channel' }, text: 'x' }), bot, options).kind).toBe('skip');
    const r = toInboundMessage(update({ chat: { id: 1001, type: 'private' }, from: { id: 1001, is_bot: false, first_name: '', username: 'al' }, text: 'x' }), bot, options);
    expect(r).toMatchObject({ kind: 'message', message: { displayName: 'al' } });
  });

  it('takes a message from a server that leaves out is_bot, first_name, date, chat.type and entities; still skips its own echo', () => {
    const bare = { update_id: 8, message: { message_id: 3, from: { id: 1001 }, chat: { id: 1001 }, text: 'hi' } };
    expect(toInboundMessage(bare, bot, options)).toMatchObject({ kind: 'message', message: { isDirect: true, chatId: '1001', text: 'hi' } });
    const inGroup = { update_id: 9, message: { message_id: 4, from: { id: 1001 }, chat: { id: -5 }, text: 'chatter' } };
    expect(toInboundMessage(inGroup, bot, options)).toMatchObject({ kind: 'message', message: { isDirect: false, mentionsBot: false, text: 'chatter' } });
    // Without entities a leading /command is still one.
    const bareCommand = { update_id: 11, message: { message_id: 6, from: { id: 1001 }, chat: { id: -5 }, text: '/help@OtherBot' } };
    expect(toInboundMessage(bareCommand, bot, options)).toMatchObject({ kind: 'message', message: { command: { name: 'help', forBot: false } } });
    const echo = { update_id: 10, message: { message_id: 5, from: { id: 999 }, chat: { id: 1001 }, text: 'mine' } };
    expect(toInboundMessage(echo, bot, options)).toMatchObject({ kind: 'skip', reason: 'own message' });
  });

  it('reports what is malformed', () => {
    expect(toInboundMessage({ message: {} }, bot, options)).toEqual({ kind: 'invalid', reason: 'update_id: Invalid input: expected number, received undefined' });
    expect(toInboundMessage('nonsense', bot, options).kind).toBe('invalid');
  });
});
