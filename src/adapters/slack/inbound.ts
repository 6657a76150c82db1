/**
 * Slack payloads → InboundMessage. Pure functions: zod checks the fields we rely on at the edge,
 * anything else (bots, edits, our own echoes, malformed bodies) is skipped with a reason for the log.
 */
import { slackAttachments, slackFilesSchema } from './attachments.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { InboundMessage } from '../../core/types.js';

/** A response_url takes answers for 30 minutes after the command (Slack docs). */
export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;

/** What a decoder knows about the bot and the moment. */
export interface DecodeContext {
  botUserId?: string;
  botId?: string;
  now: Date;
}

export type Decoded = { ok: true; message: InboundMessage } | { ok: false; reason: string };

/** The Events API envelope (HTTP body, or a Socket Mode `events_api` payload). */
const envelopeSchema = z.object({
  // Slack always sends it; a hand-written sender may not: then the event's channel and ts identify it.
  event_id: z.string().min(1).optional(),
  event: z.unknown(),
});

const eventIdentity = z.object({ channel: z.string().min(1), ts: z.string().min(1) });

/** What DMs (`message`) and mentions (`app_mention`) both carry. */
const conversationEventFields = {
  channel: z.string().min(1),
  user: z.string().min(1).optional(),
  bot_id: z.string().optional(),
  subtype: z.string().optional(),
  text: z.string().optional(),
  ts: z.string().min(1),
  thread_ts: z.string().min(1).optional(),
  /** Who started the thread this message is in (Slack sends it on thread replies). */
  parent_user_id: z.string().min(1).optional(),
  /** Files shared with the message (ARCHITECTURE.md §15). */
  files: slackFilesSchema,
};

const messageEventSchema = z.object({ type: z.literal('message'), channel_type: z.string().optional(), ...conversationEventFields });

const mentionEventSchema = z.object({ type: z.literal('app_mention'), ...conversationEventFields });

const commandSchema = z.object({
  command: z.string().min(1),
  text: z.string().default(''),
  user_id: z.string().min(1),
  user_name: z.string().optional(),
  channel_id: z.string().min(1),
  channel_name: z.string().optional(),
  // Slack always sends both; without a response_url the answer goes through the Web API, without a
  // trigger_id the command gets a fresh dedup key (Slack never redelivers a command anyway).
  response_url: z.url().optional(),
  trigger_id: z.string().min(1).optional(),
});

/**
 * Message subtypes a person writes themselves. Edits (`message_changed`), deletions, joins,
 * `bot_message` and the rest are not someone talking to the bot.
 */
const PERSON_SUBTYPES: ReadonlySet<string> = new Set(['file_share', 'thread_broadcast']);

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Removes every `<@BOTID>` / `<@BOTID|name>` mention of the bot and tidies the spaces it leaves. */
export function stripBotMention(text: string, botUserId: string | undefined): { text: string; mentioned: boolean } {
  if (!botUserId) return { text: text.trim(), mentioned: false };
  const pattern = new RegExp(`<@${escapeRegExp(botUserId)}(?:\\|[^>]*)?>`, 'g');
  const mentioned = pattern.test(text);
  pattern.lastIndex = 0;
  const stripped = text.replace(pattern, ' ').replace(/[ \t]{2,}/g, ' ').trim();
  return { text: stripped, mentioned };
}

/**
 * Slack's wire format to what the person saw: `<url|label>` → `label (url)`, `<#C1|general>` →
 * `#general`, `<!here>` → `@here`, `<@U1|name>` → `@name`; bare user mentions (`<@U1>`) stay as ids.
 * The three entities Slack escapes (`&amp; &lt; &gt;`) are decoded last, so they cannot forge a token.
 */
export function slackToPlainText(text: string): string {
  const converted = text.replace(/<([^<>\n]+)>/g, (whole, inner: string) => {
    const bar = inner.indexOf('|');
    const target = bar >= 0 ? inner.slice(0, bar) : inner;
    const label = bar >= 0 ? inner.slice(bar + 1) : '';
    if (target.startsWith('@')) return label ? `@${label.replace(/^@/, '')}` : whole;
    if (target.startsWith('#')) return label ? `#${label}` : whole;
    if (target.startsWith('!')) {
      if (label) return label;
      const name = target.slice(1).split('^')[0];
      return ['here', 'channel', 'everyone'].includes(name) ? `@${name}` : whole;
    }
    const url = target.startsWith('mailto:') ? target.slice('mailto:'.length) : target;
    if (!label || label === url || label === target) return url;
    return `${label} (${url})`;
  });
  return converted.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function fromSelfOrBot(event: { user?: string; bot_id?: string; subtype?: string }, ctx: DecodeContext): string | undefined {
  if (event.bot_id !== undefined) return event.bot_id === ctx.botId ? 'own message' : 'message from a bot';
  if (event.subtype === 'bot_message') return 'message from a bot';
  if (event.user !== undefined && event.user === ctx.botUserId) return 'own message';
  return undefined;
}

/** A reply in a thread the bot started (a thread's first message is not a reply to anyone). */
function repliesToBot(event: { ts: string; thread_ts?: string; parent_user_id?: string }, ctx: DecodeContext): boolean {
  return event.thread_ts !== undefined && event.thread_ts !== event.ts && ctx.botUserId !== undefined && event.parent_user_id === ctx.botUserId;
}

function parseEnvelope(body: unknown): { eventId: string; event: unknown } | { error: string } {
  const env = envelopeSchema.safeParse(body);
  if (!env.success) return { error: 'malformed event envelope' };
  if (env.data.event_id) return { eventId: env.data.event_id, event: env.data.event };
  const id = eventIdentity.safeParse(env.data.event);
  if (!id.success) return { error: 'malformed event envelope (no event_id)' };
  return { eventId: `ev-${id.data.channel}-${id.data.ts}`, event: env.data.event };
}

/**
 * The envelope and event of a `message` or `app_mention`, when a person wrote it: malformed
 * payloads, the bot's own and other bots' messages, and subtypes that are not a person writing are
 * a reason instead.
 */
function personEvent<T extends { user?: string; bot_id?: string; subtype?: string }>(
  body: unknown,
  schema: z.ZodType<T>,
  kind: 'message' | 'app_mention',
  ctx: DecodeContext,
): { env: { eventId: string }; event: T } | { reason: string } {
  const env = parseEnvelope(body);
  if ('error' in env) return { reason: env.error };
  const parsed = schema.safeParse(env.event);
  if (!parsed.success) return { reason: `malformed ${kind} event ${env.eventId}` };
  const event = parsed.data;
  const botReason = fromSelfOrBot(event, ctx);
  if (botReason) return { reason: botReason };
  if (event.subtype !== undefined && !PERSON_SUBTYPES.has(event.subtype)) return { reason: `${kind} subtype ${event.subtype}` };
  return { env, event };
}

/**
 * A `message` event. Direct messages (`channel_type: im`) are for the bot. A message in a channel or
 * private channel (`channel`/`group`) is handed over with `mentionsBot: false` and answered in its
 * thread like a mention; the core decides whether it is answered (`chats:` … `require_mention`). One
 * that mentions the bot is skipped: Slack sends the same message as an `app_mention` too (other
 * event_id, same channel and ts), and that one answers it.
 */
export function decodeMessageEvent(body: unknown, ctx: DecodeContext): Decoded {
  const person = personEvent(body, messageEventSchema, 'message', ctx);
  if ('reason' in person) return { ok: false, reason: person.reason };
  const { env, event } = person;
  // message.im always carries channel_type 'im'; a payload without it is still a DM when the channel is one (D…).
  const isIm = event.channel_type === 'im' || (event.channel_type === undefined && event.channel.startsWith('D'));
  const inChannel = event.channel_type === 'channel' || event.channel_type === 'group';
  if (!isIm && !inChannel) return { ok: false, reason: `message in a ${event.channel_type ?? 'unknown'} channel` };
  if (!event.user) return { ok: false, reason: 'message without a user' };
  const { text: stripped, mentioned } = stripBotMention(event.text ?? '', ctx.botUserId);
  if (inChannel && mentioned) return { ok: false, reason: `message ${event.channel}/${event.ts} mentions the bot (answered as its app_mention)` };
  const text = slackToPlainText(stripped);
  if (!text && !event.files?.length) return { ok: false, reason: 'empty message' };
  // In a DM the answer goes where the person wrote: the DM itself, or the thread they replied in.
  // In a channel it goes in the thread, as for a mention: the thread's ts, or the message's own.
  const threadId = inChannel ? (event.thread_ts ?? event.ts) : event.thread_ts;
  return handOver({ ...event, user: event.user }, { eventId: env.eventId, threadId, text, isDirect: isIm, mentionsBot: mentioned }, ctx);
}

/** An `app_mention`: answered in its thread — the thread's `thread_ts`, or the mention's own `ts` at top level. */
export function decodeMentionEvent(body: unknown, ctx: DecodeContext): Decoded {
  const person = personEvent(body, mentionEventSchema, 'app_mention', ctx);
  if ('reason' in person) return { ok: false, reason: person.reason };
  const { env, event } = person;
  if (!event.user) return { ok: false, reason: 'app_mention without a user' };
  const threadId = event.thread_ts ?? event.ts;
  const text = slackToPlainText(stripBotMention(event.text ?? '', ctx.botUserId).text);
  // A bare mention is still addressed to the bot; the core decides what an empty turn means.
  return handOver({ ...event, user: event.user }, { eventId: env.eventId, threadId, text, isDirect: event.channel.startsWith('D'), mentionsBot: true }, ctx);
}

/**
 * A Slack `ts` (`1710000001.000100`: seconds and microseconds) as ms since the epoch; undefined when it
 * is not one. The core answers a session's messages in this order (ARCHITECTURE.md §9).
 */
export function slackTsMs(ts: string): number | undefined {
  const m = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(ts);
  if (!m) return undefined;
  return Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(6, '0')) / 1000;
}

/** The inbound message of a person's `message` or `app_mention`, answered where `threadId` says. */
function handOver(
  event: { channel: string; ts: string; user: string; thread_ts?: string; parent_user_id?: string; files?: unknown[] },
  facts: { eventId: string; threadId: string | undefined; text: string; isDirect: boolean; mentionsBot: boolean },
  ctx: DecodeContext,
): Decoded {
  const { threadId } = facts;
  const attachments = slackAttachments(event.files);
  const sentAt = slackTsMs(event.ts);
  return {
    ok: true,
    message: {
      platform: 'slack',
      chatId: event.channel,
      threadId,
      userId: event.user,
      text: facts.text,
      isDirect: facts.isDirect,
      mentionsBot: facts.mentionsBot,
      isReplyToBot: repliesToBot(event, ctx),
      messageId: event.ts,
      updateId: facts.eventId,
      receivedAt: ctx.now,
      ...(sentAt === undefined ? {} : { sentAt }),
      replyTarget: { platform: 'slack', chatId: event.channel, threadId, userId: event.user },
      ...(attachments.length ? { attachments } : {}),
    },
  };
}

/**
 * A slash command. The answer goes through `response_url` (works even where the bot is not a
 * channel member) with `response_type` from config, else through the Web API; `trigger_id` is
 * unique per invocation and serves as the dedup key.
 */
export function decodeCommand(payload: unknown, ctx: DecodeContext, responseType: 'in_channel' | 'ephemeral'): Decoded {
  const parsed = commandSchema.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: 'malformed slash command payload' };
  const cmd = parsed.data;
  const extra: Record<string, string> = { response_type: responseType };
  if (cmd.response_url) {
    extra.response_url = cmd.response_url;
    extra.response_url_expires_at = String(ctx.now.getTime() + RESPONSE_URL_TTL_MS);
  }
  const triggerId = cmd.trigger_id ?? `cmd-${randomUUID()}`;
  return {
    ok: true,
    message: {
      platform: 'slack',
      chatId: cmd.channel_id,
      userId: cmd.user_id,
      displayName: cmd.user_name,
      chatTitle: cmd.channel_name && cmd.channel_name !== 'directmessage' && cmd.channel_name !== 'privategroup' ? cmd.channel_name : undefined,
      text: slackToPlainText(cmd.text.trim()),
      isDirect: cmd.channel_name === 'directmessage' || cmd.channel_id.startsWith('D'),
      mentionsBot: false,
      isReplyToBot: false,
      // A slash command is the bot's own by definition (Slack routes it to this app only).
      command: { name: cmd.command.replace(/^\//, '').toLowerCase(), forBot: true },
      messageId: triggerId,
      updateId: triggerId,
      receivedAt: ctx.now,
      replyTarget: { platform: 'slack', chatId: cmd.channel_id, userId: cmd.user_id, ephemeral: responseType === 'ephemeral' ? true : undefined, extra },
    },
  };
}
