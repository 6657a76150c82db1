/**
 * Inbound decode: a discord.js Message → InboundMessage, or null when Switchboard should not see it.
 *
 * - DMs and guild messages. A guild message is `mentionsBot` when it mentions the bot user (`<@id>`/`<@!id>`)
 *   or replies to one of its messages (@everyone/@here and role mentions do not address the bot); whether an
 *   unaddressed one is answered is the core's call (`chats:` … `require_mention`).
 * - Threads: chatId = the parent channel, threadId = the thread; the thread is itself a channel, so the reply
 *   goes to `replyTarget.extra.channelId` (= the thread id).
 * - Attachments become `[attachment: name.png (image/png, 12 KB)]` lines after the text.
 * - The bot's own messages, other bots', webhooks' and system messages are dropped.
 */
import { ChannelType, type Message } from 'discord.js';
import { z } from 'zod';
import type { InboundMessage } from '../../core/types.js';

const snowflake = z.string().regex(/^\d{1,20}$/);

/** The fields this adapter reads, checked once so a malformed event is dropped instead of half-used. */
const messageFacts = z.object({
  id: snowflake,
  channelId: snowflake,
  guildId: snowflake.nullable(),
  authorId: snowflake,
  content: z.string(),
  createdAt: z.date(),
});

export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '? B';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `[attachment: name.png (image/png, 12 KB)]` — what the agent is told about a file it cannot open. */
export function describeAttachment(name: string | null | undefined, contentType: string | null | undefined, size: number): string {
  const label = (name ?? 'file').replace(/[\[\]\r\n]/g, '_');
  const parts = [contentType, formatSize(size)].filter(Boolean).join(', ');
  return `[attachment: ${label} (${parts})]`;
}

/** Removes the bot's own mention and leaves other mentions readable (`@name`, `#channel`). */
export function cleanContent(message: Message, botId: string): string {
  const own = new RegExp(`<@!?${botId}>`, 'g');
  return message.content
    .replace(own, ' ')
    .replace(/<@!?(\d+)>/g, (whole, id: string) => {
      const u = message.mentions.users.get(id);
      return u ? `@${u.globalName ?? u.username}` : whole;
    })
    .replace(/<#(\d+)>/g, (whole, id: string) => {
      const c = message.mentions.channels.get(id);
      return c && 'name' in c && c.name ? `#${c.name}` : whole;
    })
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** Was the bot addressed: a user mention of it, or a reply to one of its messages? */
export function addressesBot(message: Message, botId: string): boolean {
  if (message.mentions.users.has(botId)) return true;
  if (new RegExp(`<@!?${botId}>`).test(message.content)) return true;
  return message.mentions.repliedUser?.id === botId;
}

/** Translates one message; null = ignore it. Never throws on odd payloads (returns null instead). */
export function toInbound(message: Message, botId: string, now: () => Date): InboundMessage | null {
  const author = message.author;
  if (!author || author.id === botId || author.bot || author.system || message.webhookId || message.system) return null;
  const facts = messageFacts.safeParse({
    id: message.id,
    channelId: message.channelId,
    guildId: message.guildId,
    authorId: author.id,
    content: message.content,
    createdAt: message.createdAt,
  });
  if (!facts.success) return null;

  const channel = message.channel;
  const isDirect = !facts.data.guildId && channel?.type === ChannelType.DM;
  if (!isDirect && !facts.data.guildId) return null; // group DMs and unknown channel kinds: not a door we serve
  // Unaddressed guild messages are handed over too: the gateway ignores them unless the chat says
  // `require_mention: false`.
  const mentionsBot = !isDirect && addressesBot(message, botId);

  const attachments = [...message.attachments.values()].map((a) => describeAttachment(a.name, a.contentType, a.size));
  const text = [cleanContent(message, botId), ...attachments].filter(Boolean).join('\n');
  if (!text) return null;

  const inThread = channel?.isThread() === true && typeof channel.parentId === 'string';
  const chatId = inThread ? (channel.parentId as string) : facts.data.channelId;
  const threadId = inThread ? facts.data.channelId : undefined;
  let chatTitle: string | undefined;
  if (!isDirect && channel && 'name' in channel && typeof channel.name === 'string') {
    const parentName = inThread ? channel.parent?.name : undefined;
    chatTitle = parentName ? `#${parentName} › ${channel.name}` : `#${channel.name}`;
  }

  return {
    platform: 'discord',
    chatId,
    threadId,
    userId: facts.data.authorId,
    displayName: author.globalName ?? author.username,
    chatTitle,
    text,
    isDirect,
    mentionsBot,
    messageId: facts.data.id,
    updateId: facts.data.id,
    receivedAt: now(),
    replyTarget: {
      platform: 'discord',
      chatId,
      threadId,
      replyToMessageId: facts.data.id,
      userId: facts.data.authorId,
      ...(threadId ? { extra: { channelId: threadId } } : {}),
    },
  };
}

const rawUser = z.object({ id: z.string(), username: z.string().optional(), global_name: z.string().nullish(), bot: z.boolean().optional(), system: z.boolean().optional() }).loose();
const rawGuildMessage = z
  .object({
    id: z.string(),
    channel_id: z.string(),
    guild_id: z.string(),
    author: rawUser,
    content: z.string(),
    webhook_id: z.string().nullish(),
    mentions: z.array(rawUser).optional(),
    referenced_message: z.object({ author: rawUser.optional() }).loose().nullish(),
    attachments: z.array(z.object({ filename: z.string(), content_type: z.string().nullish(), size: z.number() }).loose()).optional(),
  })
  .loose();

/**
 * A guild MESSAGE_CREATE read straight from the gateway payload, for a guild discord.js has not cached
 * (it drops those). Same rules as toInbound: `mentionsBot` when the bot is mentioned or replied to, never
 * from bots. Threads cannot be told apart without the channel, so the message's channel is the chat.
 */
export function rawGuildMessageToInbound(d: Record<string, unknown>, botId: string, now: () => Date): InboundMessage | null {
  const parsed = rawGuildMessage.safeParse(d);
  if (!parsed.success) return null;
  const m = parsed.data;
  if (m.author.id === botId || m.author.bot || m.author.system || m.webhook_id) return null;
  const ownMention = new RegExp(`<@!?${botId}>`, 'g');
  const mentionsBot = (m.mentions ?? []).some((u) => u.id === botId) || new RegExp(`<@!?${botId}>`).test(m.content) || m.referenced_message?.author?.id === botId;
  const names = new Map((m.mentions ?? []).map((u) => [u.id, u.global_name ?? u.username]));
  const content = m.content
    .replace(ownMention, ' ')
    .replace(/<@!?(\d+)>/g, (whole, id: string) => (names.get(id) ? `@${names.get(id)}` : whole))
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  const attachments = (m.attachments ?? []).map((a) => describeAttachment(a.filename, a.content_type, a.size));
  const text = [content, ...attachments].filter(Boolean).join('\n');
  if (!text) return null;
  return {
    platform: 'discord',
    chatId: m.channel_id,
    userId: m.author.id,
    displayName: m.author.global_name ?? m.author.username,
    text,
    isDirect: false,
    mentionsBot,
    messageId: m.id,
    updateId: m.id,
    receivedAt: now(),
    replyTarget: { platform: 'discord', chatId: m.channel_id, replyToMessageId: m.id, userId: m.author.id },
  };
}
