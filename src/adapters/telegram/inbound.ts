/**
 * Telegram update → InboundMessage. Pure: no I/O, no policy (ARCHITECTURE.md §2: doors report facts).
 *
 * Every message a person writes is handed over, in groups too, with the facts the core decides on:
 * `mentionsBot` (a `mention` of its @username or a `text_mention` of it), `isReplyToBot`, and
 * `command` (a `bot_command` at the start: `/cmd`, `/cmd@thisbot`, or `/cmd@otherbot`, which is for
 * someone else). Forum topics become threads. The fields read are validated with zod; anything else
 * in the update is ignored.
 */
import { telegramAttachments } from './attachments.js';
import { z } from 'zod';
import type { InboundMessage, PlatformCommand } from '../../core/types.js';
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
  /** A valid update that is no person's message (another update type, a bot's message, a service message). */
  | { kind: 'skip'; reason: string }
  /** The update did not have the shape Telegram documents. */
  | { kind: 'invalid'; reason: string };

interface Addressing {
  /** A `mention` of the bot's @username or a `text_mention` of the bot. */
  mentionsBot: boolean;
  isReplyToBot: boolean;
  command?: PlatformCommand;
  /** The text with the leading @bot mention removed and `/cmd@bot` turned into `/cmd`. */
  text: string;
}

const COMMAND = /^\/([A-Za-z0-9_]+)(?:@([A-Za-z0-9_]+))?(?=\s|$)/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The command at the start of the text, as Telegram marked it (a `bot_command` entity at offset 0);
 * from a server that sends no entities, a leading `/cmd` or `/cmd@name`.
 */
function commandOf(text: string, entities: Entity[] | undefined, bot: BotIdentity): { command: PlatformCommand; length: number } | undefined {
  const m = COMMAND.exec(text);
  if (!m) return undefined;
  if (entities && !entities.some((e) => e.type === 'bot_command' && e.offset === 0 && e.length === m[0].length)) return undefined;
  const target = m[2];
  const forBot = target === undefined || (bot.username !== '' && target.toLowerCase() === bot.username.toLowerCase());
  return { command: { name: m[1].toLowerCase(), forBot }, length: m[0].length };
}

/** The facts of how the message addresses the bot, and the text with that addressing cleaned off. */
function addressing(text: string, entities: Entity[] | undefined, message: TelegramMessage, bot: BotIdentity): Addressing {
  const handle = `@${bot.username}`.toLowerCase();
  let mentionsBot = false;
  let cleaned = text;

  const found = commandOf(text, entities, bot);
  // `/cmd@thisbot` reads as `/cmd`; `/cmd@otherbot` is left as written (it is someone else's).
  if (found?.command.forBot) cleaned = `/${found.command.name}${text.slice(found.length)}`;

  let mentionAt: { offset: number; length: number } | undefined;
  if (entities) {
    for (const e of entities) {
      const slice = text.slice(e.offset, e.offset + e.length);
      const isOurs = (e.type === 'mention' && bot.username !== '' && slice.toLowerCase() === handle) || (e.type === 'text_mention' && e.user?.id === bot.id);
      if (isOurs) {
        mentionsBot = true;
        mentionAt ??= e;
      }
    }
  } else if (bot.username !== '') {
    // Telegram always sends entities for mentions; this covers other Bot API servers that do not.
    const m = new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(handle)}(?![A-Za-z0-9_])`, 'i').exec(text);
    if (m) {
      mentionsBot = true;
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
  const isReplyToBot = reply?.from?.id === bot.id && !topicRoot;

  return { mentionsBot, isReplyToBot, ...(found ? { command: found.command } : {}), text: cleaned };
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

  // Every message from a person is handed over, addressed or not: whether it is answered
  // (`chats:` … `require_mention`) is the gateway's call.
  const address = addressing(body, entities, message, bot);

  // Files the core can read go as attachments (the caption is the text); the rest stays a description.
  const attachments = telegramAttachments(message);
  const text = media && !attachments.length ? [media, address.text].filter(Boolean).join(' ') : address.text;
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
    mentionsBot: address.mentionsBot,
    isReplyToBot: address.isReplyToBot,
    ...(address.command ? { command: address.command } : {}),
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
    ...(attachments.length ? { attachments } : {}),
  };
  return { kind: 'message', message: inbound };
}
