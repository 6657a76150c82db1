/**
 * Telegram update → InboundMessage. Pure: no I/O, no policy beyond "is this message for the bot".
 *
 * Private chats always pass; in groups and supergroups a message passes only when it mentions the
 * bot (`mention` of its @username or a `text_mention` of it), replies to one of its messages, or is a
 * command (`/cmd`, or `/cmd@thisbot`; `/cmd@otherbot` is for someone else). Forum topics become
 * threads. The fields read are validated with zod; anything else in the update is ignored.
 */
import { z } from 'zod';
import type { InboundMessage } from '../../core/types.js';
import { describeMedia, mediaFields } from './media.js';

const userSchema = z.looseObject({
  id: z.number().int(),
  // Telegram always sends these two; other Bot API servers and fakes may not (a missing is_bot is a person).
  is_bot: z.boolean().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  username: z.string().optional(),
});

const entitySchema = z.looseObject({
  type: z.string(),
  offset: z.number().int().min(0),
  length: z.number().int().min(0),
  user: z.looseObject({ id: z.number().int() }).optional(),
});

const messageSchema = z.looseObject({
  message_id: z.number().int(),
  date: z.number().optional(),
  chat: z.looseObject({
    id: z.number().int(),
    // Optional for servers that leave it out: then a positive id (a user's) is a private chat.
    type: z.enum(['private', 'group', 'supergroup', 'channel']).optional(),
    title: z.string().optional(),
  }),
  from: userSchema.optional(),
  message_thread_id: z.number().int().optional(),
  is_topic_message: z.boolean().optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  entities: z.array(entitySchema).optional(),
  caption_entities: z.array(entitySchema).optional(),
  reply_to_message: z.looseObject({ message_id: z.number().int(), from: z.looseObject({ id: z.number().int() }).optional() }).optional(),
  ...mediaFields,
});

const updateSchema = z.looseObject({
  update_id: z.number().int().min(0),
  message: messageSchema.optional(),
  edited_message: messageSchema.optional(),
});

type TelegramMessage = z.infer<typeof messageSchema>;
type Entity = z.infer<typeof entitySchema>;

export interface BotIdentity {
  id: number;
  username: string;
}

export interface InboundOptions {
  /** Treat edited messages as new messages (config telegram.handle_edited). */
  handleEdited: boolean;
  now: () => Date;
}

export type InboundResult =
  | { kind: 'message'; message: InboundMessage }
  /** A valid update that is not for the gateway (another update type, a bot, an unaddressed group message). */
  | { kind: 'skip'; reason: string }
  /** The update did not have the shape Telegram documents. */
  | { kind: 'invalid'; reason: string };

interface Addressing {
  addressed: boolean;
  /** The text with the leading @bot mention removed and `/cmd@bot` turned into `/cmd`. */
  text: string;
}

const COMMAND = /^\/([A-Za-z0-9_]+)(?:@([A-Za-z0-9_]+))?(?=\s|$)/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Works out whether the message is addressed to the bot, and cleans the addressing from the text. */
function addressing(text: string, entities: Entity[] | undefined, message: TelegramMessage, bot: BotIdentity): Addressing {
  const handle = `@${bot.username}`.toLowerCase();
  let addressed = false;
  let cleaned = text;

  const command = COMMAND.exec(text);
  if (command) {
    const target = command[2];
    if (target === undefined) addressed = true;
    else if (bot.username !== '' && target.toLowerCase() === bot.username.toLowerCase()) {
      addressed = true;
      cleaned = `/${command[1]}${text.slice(command[0].length)}`;
    } else {
      // `/cmd@otherbot`: not for us, whatever else the message contains.
      return { addressed: false, text };
    }
  }

  let mentionAt: { offset: number; length: number } | undefined;
  if (entities) {
    for (const e of entities) {
      const slice = text.slice(e.offset, e.offset + e.length);
      const isOurs = (e.type === 'mention' && bot.username !== '' && slice.toLowerCase() === handle) || (e.type === 'text_mention' && e.user?.id === bot.id);
      if (isOurs) {
        addressed = true;
        mentionAt ??= e;
      }
    }
  } else if (bot.username !== '') {
    // Telegram always sends entities for mentions; this covers other Bot API servers that do not.
    const m = new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(handle)}(?![A-Za-z0-9_])`, 'i').exec(text);
    if (m) {
      addressed = true;
      mentionAt = { offset: m.index + m[1].length, length: handle.length };
    }
  }

  // A leading mention is addressing, not content: "@bot, what is X?" → "what is X?".
  if (mentionAt && cleaned === text && text.slice(0, mentionAt.offset).trim() === '') {
    const rest = text.slice(mentionAt.offset + mentionAt.length).replace(/^[\s,:;.!-]+/, '');
    if (rest.trim()) cleaned = rest;
  }

  const reply = message.reply_to_message;
  // In a forum topic every message "replies" to the topic's first message; that is no reply to the bot.
  const topicRoot = message.is_topic_message === true && reply?.message_id === message.message_thread_id;
  if (reply?.from?.id === bot.id && !topicRoot) addressed = true;

  return { addressed, text: cleaned };
}

function displayName(from: z.infer<typeof userSchema>): string | undefined {
  const name = [from.first_name, from.last_name].filter(Boolean).join(' ').trim();
  return name || from.username || undefined;
}

function issueLine(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.join('.') || 'update'}: ${issue.message}`;
}

/** Translates one raw update. Never throws. */
export function toInboundMessage(raw: unknown, bot: BotIdentity, options: InboundOptions): InboundResult {
  const parsed = updateSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'invalid', reason: issueLine(parsed.error) };
  const update = parsed.data;
  const edited = update.message === undefined && update.edited_message !== undefined;
  const message = update.message ?? update.edited_message;
  if (!message) return { kind: 'skip', reason: 'not a message update' };
  if (edited && !options.handleEdited) return { kind: 'skip', reason: 'edited message (telegram.handle_edited is off)' };
  const { chat, from } = message;
  if (chat.type === 'channel') return { kind: 'skip', reason: 'channel post' };
  if (!from) return { kind: 'skip', reason: 'message without a sender' };
  if (from.is_bot === true || from.id === bot.id) return { kind: 'skip', reason: from.id === bot.id ? 'own message' : 'message from a bot' };

  const isDirect = (chat.type ?? (chat.id > 0 ? 'private' : 'group')) === 'private';
  const media = describeMedia(message);
  const body = message.text ?? message.caption ?? '';
  const entities = message.text !== undefined ? message.entities : message.caption_entities;
  if (!media && message.text === undefined) return { kind: 'skip', reason: 'service message' };

  const address = addressing(body, entities, message, bot);
  if (!isDirect && !address.addressed) return { kind: 'skip', reason: 'group message not addressed to the bot' };

  const text = media ? [media, address.text].filter(Boolean).join(' ') : address.text;
  const chatId = String(chat.id);
  const messageId = String(message.message_id);
  const threadId = message.is_topic_message === true && message.message_thread_id !== undefined ? String(message.message_thread_id) : undefined;
  const userId = String(from.id);

  const inbound: InboundMessage = {
    platform: 'telegram',
    chatId,
    threadId,
    userId,
    displayName: displayName(from),
    chatTitle: isDirect ? undefined : chat.title,
    text,
    isDirect,
    mentionsBot: isDirect || address.addressed,
    messageId,
    updateId: String(update.update_id),
    receivedAt: options.now(),
    replyTarget: {
      platform: 'telegram',
      chatId,
      threadId,
      // In groups the first chunk replies to the user's message, so it is clear whom the bot answers.
      replyToMessageId: isDirect ? undefined : messageId,
      userId,
    },
  };
  return { kind: 'message', message: inbound };
}
