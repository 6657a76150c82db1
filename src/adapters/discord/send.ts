/**
 * Outbound over REST only (no gateway needed, so cron delivery works without start()):
 * each chunk is one message with `allowed_mentions: { parse: [] }` so an answer never pings @everyone, @here,
 * roles or users; the first chunk replies to the user's message. 429s are waited out by @discordjs/rest's
 * queue (Retry-After) and the chunk is sent once; longer waits than MAX_RATE_LIMIT_WAIT_MS come back as a
 * retryable PlatformApiError for the outbox.
 *
 * Slash-command answers go through the interaction webhook: chunk 0 completes the deferred "thinking…"
 * response (PATCH …/messages/@original, idempotent if retried), later chunks are followups. When the
 * interaction token has expired (15 minutes) they fall back to plain channel messages.
 */
import { z } from 'zod';
import { DiscordAPIError, REST, type RateLimitData } from './rest.js';
import { Routes } from 'discord-api-types/v10';
import type { Delivery, DeliveryTarget } from '../../core/types.js';
import { approvalComponents } from './actions.js';
import { toPlatformError } from './errors.js';
import { sendFile } from './send-file.js';
import { PlatformApiError } from '../../core/errors.js';

export const DEFAULT_API_URL = 'https://discord.com/api';
/** Per-request timeout and network retries: bounded so a dead API fails a delivery in well under a minute. */
export const REST_TIMEOUT_MS = 10_000;
export const REST_RETRIES = 2;
/** Rate-limit waits up to this long happen inline; longer ones go back to the outbox. */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/**
 * The unversioned REST base @discordjs/rest wants (it appends `/v10`): a trailing slash or a version
 * segment someone copied along (`…/api/v10/`) would otherwise double up in every request path.
 */
export function restBase(apiUrl: string | undefined): string {
  return (apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, '').replace(/\/v\d+$/, '');
}

/** REST options shared by the sender and the gateway client (same timeouts and rate-limit policy). */
export function restOptions(apiUrl: string | undefined) {
  return {
    api: restBase(apiUrl),
    timeout: REST_TIMEOUT_MS,
    retries: REST_RETRIES,
    rejectOnRateLimit: (data: RateLimitData) => Math.max(data.retryAfter, data.timeToReset) > MAX_RATE_LIMIT_WAIT_MS,
  };
}

export function createRest(token: string, apiUrl: string | undefined): REST {
  return new REST(restOptions(apiUrl)).setToken(token);
}

/** The channel a target's messages go to: a thread is itself a channel. */
export function channelFor(target: DeliveryTarget): string {
  return target.extra?.channelId ?? target.threadId ?? target.chatId;
}

/**
 * Message flag SUPPRESS_EMBEDS (1 << 2): Discord builds no link preview, so a URL in an answer is
 * never fetched by Discord's crawler when it is posted (ARCHITECTURE.md §17: no zero-click egress).
 * Set on every create and every edit — an edit without it would not unset it, but a message created
 * elsewhere without it would get previews on edit.
 */
export const SUPPRESS_EMBEDS = 1 << 2;

/** Body of an edit (channel message or interaction reply): text, no ping, no link preview. */
export function editBody(content: string) {
  return { content, allowed_mentions: { parse: [] as string[] }, flags: SUPPRESS_EMBEDS };
}

/** Body of one message: text only, never embeds or files, never a ping, never a link preview. */
export function messageBody(content: string, replyTo: string | undefined) {
  return {
    ...editBody(content),
    ...(replyTo ? { message_reference: { message_id: replyTo, fail_if_not_exists: false } } : {}),
  };
}

/**
 * Where an approval prompt's buttons are (ARCHITECTURE.md §16): a channel message (edited with the bot's
 * token) or an interaction's message (edited through its webhook while the interaction token lives, 15 min).
 */
export const discordPromptRef = z.union([
  z.object({ content: z.string(), messageId: z.string(), channelId: z.string() }),
  z.object({ content: z.string(), messageId: z.string(), applicationId: z.string(), interactionToken: z.string() }),
]);
export type DiscordPromptRef = z.infer<typeof discordPromptRef>;

/** `approvalId`: the chunk is an approval prompt's last, with its Approve / Deny buttons (ARCHITECTURE.md §16). */
async function postChannel(rest: REST, channelId: string, content: string, replyTo: string | undefined, approvalId?: string): Promise<DiscordPromptRef> {
  try {
    const body = { ...messageBody(content, replyTo), ...(approvalId ? { components: approvalComponents(approvalId) } : {}) };
    const posted = (await rest.post(Routes.channelMessages(channelId), { body })) as { id?: string } | undefined;
    return { content, messageId: String(posted?.id ?? ''), channelId };
  } catch (error) {
    throw toPlatformError(error, 'createMessage');
  }
}

function interactionExpired(error: unknown): boolean {
  // 50027 Invalid Webhook Token, 10015 Unknown Webhook, 10008 Unknown Message (original response gone).
  return error instanceof DiscordAPIError && (error.status === 401 || error.status === 404) && [50027, 10015, 10008].includes(Number(error.code));
}

async function postInteraction(rest: REST, target: DeliveryTarget, index: number, content: string, approvalId?: string): Promise<DiscordPromptRef> {
  const extra = target.extra ?? {};
  const appId = extra.applicationId as string;
  const token = extra.interactionToken as string;
  const body = { ...editBody(content), ...(approvalId ? { components: approvalComponents(approvalId) } : {}) };
  try {
    const posted = (
      index === 0 ? await rest.patch(Routes.webhookMessage(appId, token, '@original'), { body, auth: false }) : await rest.post(Routes.webhook(appId, token), { body, auth: false })
    ) as { id?: string } | undefined;
    return { content, messageId: index === 0 ? '@original' : String(posted?.id ?? ''), applicationId: appId, interactionToken: token };
  } catch (error) {
    if (interactionExpired(error) && extra.channelId) return postChannel(rest, extra.channelId, content, undefined, approvalId);
    throw toPlatformError(error, index === 0 ? 'editInteractionReply' : 'createFollowup');
  }
}

/**
 * A chunk whose message was streamed (ARCHITECTURE.md §10) is finished by editing it (429s waited out by the
 * REST queue). False when the message is gone (deleted meanwhile): the chunk is then sent anew.
 */
async function finishStreamed(rest: REST, target: DeliveryTarget, messageId: string, content: string): Promise<boolean> {
  try {
    await rest.patch(Routes.channelMessage(channelFor(target), messageId), { body: editBody(content) });
    return true;
  } catch (error) {
    if (error instanceof DiscordAPIError && error.status === 404) return false;
    throw toPlatformError(error, 'editMessage');
  }
}

/**
 * The prompt closed without a press on it: its closing line in bold, the buttons removed, SUPPRESS_EMBEDS
 * kept (the prompt shows the model's arguments, §17).
 */
export async function closeDiscordPrompt(rest: REST, ref: DiscordPromptRef, line: string): Promise<void> {
  const body = { ...editBody(`${ref.content}\n\n**${line}**`.slice(0, 2000)), components: [] };
  try {
    if ('channelId' in ref) await rest.patch(Routes.channelMessage(ref.channelId, ref.messageId), { body });
    else await rest.patch(Routes.webhookMessage(ref.applicationId, ref.interactionToken, ref.messageId), { body, auth: false });
  } catch (error) {
    throw toPlatformError(error, 'editMessage');
  }
}

/** Sends chunks from `firstChunk` on, in order, reporting each one the platform accepted; `promptSent` learns where an approval prompt's buttons went. */
export async function deliverChunks(rest: REST, delivery: Delivery, promptSent?: (approvalId: string, ref: DiscordPromptRef) => void): Promise<void> {
  const { target, message } = delivery;
  const viaInteraction = Boolean(target.extra?.interactionToken && target.extra?.applicationId);
  const channelId = channelFor(target);
  for (let i = Math.max(0, delivery.firstChunk); i < message.chunks.length; i++) {
    const chunk = message.chunks[i];
    // Discord refuses empty messages (50006); renderers never produce one, so skip rather than fail the reply.
    const streamed = target.streamedMessageIds?.[i];
    if (chunk.trim() !== '' && streamed !== undefined && !viaInteraction && (await finishStreamed(rest, target, streamed, chunk))) {
      delivery.onChunkSent(i);
      continue;
    }
    if (chunk.trim() !== '') {
      const approvalId = target.approvalId && i === message.chunks.length - 1 ? target.approvalId : undefined;
      const ref = viaInteraction
        ? await postInteraction(rest, target, i, chunk, approvalId)
        : await postChannel(rest, channelId, chunk, i === 0 ? target.replyToMessageId : undefined, approvalId);
      if (approvalId && ref.messageId) {
        promptSent?.(approvalId, ref);
        delivery.onPromptPosted?.(ref);
      }
    }
    delivery.onChunkSent(i);
  }
  // Then the files, one message each (ARCHITECTURE.md §15).
  const files = message.files ?? [];
  for (let j = Math.max(0, delivery.firstChunk - message.chunks.length); j < files.length; j++) {
    const file = delivery.files?.[j];
    if (!file?.data.length) {
      throw new PlatformApiError({ platform: 'discord', method: 'createMessage', message: `the bytes of ${files[j].name} were not handed over`, retryable: false });
    }
    const index = message.chunks.length + j;
    await sendFile(rest, target, channelId, file, { index, replyTo: index === 0 ? target.replyToMessageId : undefined });
    delivery.onChunkSent(index);
  }
}

/** "typing…" for about 10 s; failures do not matter to the conversation. */
export async function sendTyping(rest: REST, target: DeliveryTarget): Promise<void> {
  if (target.extra?.interactionToken) return; // a deferred interaction already shows "thinking…"
  try {
    await rest.post(Routes.channelTyping(channelFor(target)));
  } catch {
    // swallowed on purpose: typing is cosmetic
  }
}
