/**
 * Inbound decode: a raw MESSAGE_CREATE (validated by guard.ts) → InboundMessage, or null when Switchboard
 * should not see it.
 *
 * - DMs and guild messages. A message without `guild_id` is a DM (a bot is never in a group DM; one that
 *   says it is, by `channel_type`, is dropped). Facts: `mentionsBot` when it mentions the bot user
 *   (`<@id>`/`<@!id>`; @everyone/@here and role mentions do not), `isReplyToBot` when it replies to one of
 *   its messages; whether a message is answered is the core's call (`chats:` … `require_mention`).
 * - Threads: chatId = the parent channel, threadId = the thread (when the thread is known from the gateway,
 *   see channels.ts); the thread is itself a channel, so the reply goes to `replyTarget.extra.channelId`.
 *   A channel not known is the chat itself.
 * - Attachments become `[attachment: name.png (image/png, 12 KB)]` lines after the text.
 * - The bot's own messages, other bots', webhooks' and system messages are dropped.
 */
import { ChannelType, MessageType } from 'discord-api-types/v10';
import type { InboundMessage } from '../../core/types.js';
import { isThreadType, type ChannelFacts } from './channels.js';
import type { RawMessage, RawUser } from './guard.js';
import { discordAttachments } from './attachments.js';

/** Message types people write (everything else is a join, a pin, a boost… notice). */
const USER_MESSAGE_TYPES: ReadonlySet<number> = new Set([MessageType.Default, MessageType.Reply, MessageType.ChatInputCommand, MessageType.ContextMenuCommand]);

export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '? B';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `[attachment: name.png (image/png, 12 KB)]` — what the agent is told about a file it cannot open. */
export function describeAttachment(name: string | null | undefined, contentType: string | null | undefined, size: number): string {
  const label = (name ?? 'file').replace(/[[\]\r\n]/g, '_');
  const parts = [contentType, formatSize(size)].filter(Boolean).join(', ');
  return `[attachment: ${label} (${parts})]`;
}

export function displayName(user: RawUser): string | undefined {
  return user.global_name ?? user.username;
}

/** Removes the bot's own mention and leaves other mentions readable (`@name`, `#channel`). */
export function cleanContent(m: RawMessage, botId: string, channel: (id: string) => ChannelFacts | undefined): string {
  const names = new Map((m.mentions ?? []).map((u) => [u.id, displayName(u)]));
  return m.content
    .replace(new RegExp(`<@!?${botId}>`, 'g'), ' ')
    .replace(/<@!?(\d+)>/g, (whole, id: string) => {
      const name = names.get(id);
      return name ? `@${name}` : whole;
    })
    .replace(/<#(\d+)>/g, (whole, id: string) => {
      const name = channel(id)?.name;
      return name ? `#${name}` : whole;
    })
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** Does the message mention the bot user (`<@id>`/`<@!id>`; @everyone, @here and roles do not count)? */
export function mentionsBot(m: RawMessage, botId: string): boolean {
  if (new RegExp(`<@!?${botId}>`).test(m.content)) return true;
  // A reply that pings lists the replied-to author in `mentions` too: that is the reply, not a mention.
  return !repliesToBot(m, botId) && (m.mentions ?? []).some((u) => u.id === botId);
}

/** Does the message reply to one of the bot's own messages? */
export function repliesToBot(m: RawMessage, botId: string): boolean {
  return m.referenced_message?.author?.id === botId;
}

/** Translates one message; null = ignore it. */
export function toInbound(m: RawMessage, botId: string, channel: (id: string) => ChannelFacts | undefined, now: () => Date): InboundMessage | null {
  const author = m.author;
  if (author.id === botId || author.bot || author.system || m.webhook_id) return null;
  if (m.type !== undefined && !USER_MESSAGE_TYPES.has(m.type)) return null;
  const isDirect = m.guild_id === undefined;
  if (isDirect && m.channel_type !== undefined && m.channel_type !== ChannelType.DM) return null; // group DMs: not a door we serve
  // Unaddressed guild messages are handed over too: the gateway ignores them unless the chat says
  // `require_mention: false`.

  // Files go as attachments (fetched by the core from the CDN); one without a URL stays a description.
  const files = discordAttachments(m.attachments, typeof m.flags === 'number' ? m.flags : undefined);
  const described = (m.attachments ?? []).filter((a) => typeof a.url !== 'string').map((a) => describeAttachment(a.filename, a.content_type, a.size));
  const text = [cleanContent(m, botId, channel), ...described].filter(Boolean).join('\n');
  if (!text && !files.length) return null;

  const here = isDirect ? undefined : channel(m.channel_id);
  const parentId = here && isThreadType(here.type) ? here.parentId : undefined;
  const chatId = parentId ?? m.channel_id;
  const threadId = parentId ? m.channel_id : undefined;
  let chatTitle: string | undefined;
  if (here?.name) {
    const parentName = parentId ? channel(parentId)?.name : undefined;
    chatTitle = parentName ? `#${parentName} › ${here.name}` : `#${here.name}`;
  }

  return {
    platform: 'discord',
    chatId,
    threadId,
    userId: author.id,
    displayName: displayName(author),
    chatTitle,
    text,
    isDirect,
    mentionsBot: mentionsBot(m, botId),
    isReplyToBot: repliesToBot(m, botId),
    messageId: m.id,
    updateId: m.id,
    receivedAt: now(),
    replyTarget: {
      platform: 'discord',
      chatId,
      threadId,
      replyToMessageId: m.id,
      userId: author.id,
      ...(threadId ? { extra: { channelId: threadId } } : {}),
    },
    ...(files.length ? { attachments: files } : {}),
  };
}
