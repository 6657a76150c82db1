/**
 * Outbound: one platform message per rendered mrkdwn chunk, in order. Commands answer through their
 * `response_url` (Slack allows 5 posts within 30 minutes) and fall back to the Web API beyond that;
 * everything else uses chat.postMessage (in the thread) or chat.postEphemeral.
 */
import { z } from 'zod';
import { type WebClient, WebAPIRateLimitedError } from '@slack/web-api';
import { PlatformApiError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Delivery, DeliveryTarget } from '../../core/types.js';
import { toPlatformError } from './errors.js';
import { RESPONSE_URL_TTL_MS } from './inbound.js';
import { approvalBlocks } from './actions.js';

/**
 * On every chat.postMessage and response_url answer: Slack fetches no link or media preview, so a
 * URL in an answer is never requested by Slack when it is posted (ARCHITECTURE.md §17). chat.update
 * documents neither (the posted message's setting should stand) but gets them too, through `noUnfurl`:
 * Slack ignores arguments a method does not take, and an edit that carries a URL the model wrote (a
 * streamed chunk, a closed approval prompt) then never depends on that; ephemeral messages do not unfurl.
 */
/** Where an approval prompt is (chat.postMessage's answer) and the text it shows (also as the store keeps it). */
export const slackPromptRef = z.object({ channel: z.string(), ts: z.string(), text: z.string() });
export type SlackPromptRef = z.infer<typeof slackPromptRef>;

export const NO_UNFURL = { unfurl_links: false, unfurl_media: false } as const;

/** chat.update's arguments with NO_UNFURL (not in its type: see above). */
export function noUnfurl<T extends object>(args: T): T {
  const withFlags = { ...args, ...NO_UNFURL };
  return withFlags;
}
import { uploadFile } from './send-file.js';

/** Posts Slack accepts on one response_url. */
export const RESPONSE_URL_MAX_POSTS = 5;
/** Longest Retry-After we wait out inline; longer ones go back to the outbox with their delay. */
export const MAX_INLINE_RATE_LIMIT_WAIT_MS = 60_000;
/** A 429 is waited out and the chunk sent again, at most this many times in a row. */
const MAX_RATE_LIMIT_WAITS = 3;
const RESPONSE_URL_TIMEOUT_MS = 10_000;

export interface SenderDeps {
  client: WebClient;
  logger: Logger;
  now: () => Date;
  /** Replaceable in tests; waits out a Retry-After. */
  sleep?: (ms: number) => Promise<void>;
  /** An approval prompt was posted (chat.postMessage): where, for closeApprovalPrompt (ARCHITECTURE.md §16). */
  promptSent?: (approvalId: string, ref: SlackPromptRef) => void;
}

type ResponseType = 'in_channel' | 'ephemeral';

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createSender(deps: SenderDeps): (delivery: Delivery) => Promise<void> {
  const sleep = deps.sleep ?? defaultSleep;
  /** Posts made per response_url (in this process). Entries are dropped once their URL expired. */
  const responseUrlPosts = new Map<string, { count: number; expiresAt: number }>();

  function prune(nowMs: number): void {
    for (const [url, entry] of responseUrlPosts) if (entry.expiresAt <= nowMs) responseUrlPosts.delete(url);
  }

  /** The response_url still usable for this target, if any. */
  function usableResponseUrl(target: DeliveryTarget): string | undefined {
    const url = target.extra?.response_url;
    if (!url) return undefined;
    const nowMs = deps.now().getTime();
    prune(nowMs);
    if (expiryOf(target) <= nowMs) return undefined;
    const used = responseUrlPosts.get(url)?.count ?? 0;
    return used < RESPONSE_URL_MAX_POSTS ? url : undefined;
  }

  function expiryOf(target: DeliveryTarget): number {
    const raw = Number(target.extra?.response_url_expires_at);
    return Number.isFinite(raw) ? raw : deps.now().getTime() + RESPONSE_URL_TTL_MS;
  }

  /** POSTs one chunk to a response_url. Returns false when Slack refused it (the caller falls back). */
  async function postToResponseUrl(target: DeliveryTarget, url: string, text: string, responseType: ResponseType): Promise<boolean> {
    // Counted before the attempt: a post that timed out may still have used one of the five.
    const entry = responseUrlPosts.get(url) ?? { count: 0, expiresAt: expiryOf(target) };
    entry.count += 1;
    responseUrlPosts.set(url, entry);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ text, response_type: responseType, replace_original: false, ...NO_UNFURL }),
        signal: AbortSignal.timeout(RESPONSE_URL_TIMEOUT_MS),
      });
      const body = await res.text();
      if (res.ok && !/"ok"\s*:\s*false/.test(body)) return true;
      deps.logger.warn('slack', `response_url refused a post (HTTP ${res.status} ${body.slice(0, 80)}); falling back to the Web API`);
    } catch (error) {
      deps.logger.warn('slack', `response_url post failed (${error instanceof Error ? error.message : String(error)}); falling back to the Web API`);
    }
    // Whatever went wrong, this URL is not trusted for the rest of this answer.
    responseUrlPosts.set(url, { count: RESPONSE_URL_MAX_POSTS, expiresAt: expiryOf(target) });
    return false;
  }

  /** One Web API call; a 429 is waited out (Retry-After) and the same call made again, so the chunk goes once. */
  async function callWithRateLimit<T>(method: string, call: () => Promise<T>): Promise<T> {
    for (let waits = 0; ; waits += 1) {
      try {
        return await call();
      } catch (error) {
        if (error instanceof WebAPIRateLimitedError) {
          const waitMs = Math.max(0, error.retryAfter * 1000);
          if (waits < MAX_RATE_LIMIT_WAITS && waitMs <= MAX_INLINE_RATE_LIMIT_WAIT_MS) {
            deps.logger.info('slack', `${method} rate limited; waiting ${error.retryAfter} s as Slack asks`);
            await sleep(waitMs);
            continue;
          }
        }
        throw toPlatformError(method, error);
      }
    }
  }

  /** `approvalId`: this chunk carries an approval prompt's buttons (ARCHITECTURE.md §16), posted through the Web API. */
  async function sendChunk(target: DeliveryTarget, text: string, approvalId?: string, promptPosted?: (ref: SlackPromptRef) => void): Promise<void> {
    const responseType: ResponseType = target.ephemeral ? 'ephemeral' : target.extra?.response_type === 'ephemeral' ? 'ephemeral' : 'in_channel';
    const url = approvalId ? undefined : usableResponseUrl(target);
    if (url && (await postToResponseUrl(target, url, text, responseType))) return;
    const blocks = approvalId ? { blocks: approvalBlocks(text, approvalId) } : {};

    // Past the response_url, an answer meant for one person stays ephemeral.
    if (responseType === 'ephemeral') {
      if (!target.userId) {
        throw new PlatformApiError({ platform: 'slack', method: 'chat.postEphemeral', message: 'no user to show an ephemeral message to', retryable: false });
      }
      const user = target.userId;
      await callWithRateLimit('chat.postEphemeral', () =>
        deps.client.chat.postEphemeral({ channel: target.chatId, user, text, thread_ts: target.threadId, ...blocks }),
      );
      return;
    }
    const posted = await callWithRateLimit('chat.postMessage', () =>
      deps.client.chat.postMessage({ channel: target.chatId, text, thread_ts: target.threadId, mrkdwn: true, ...NO_UNFURL, ...blocks }),
    );
    if (approvalId && posted.ts) {
      const ref: SlackPromptRef = { channel: posted.channel ?? target.chatId, ts: posted.ts, text };
      deps.promptSent?.(approvalId, ref);
      promptPosted?.(ref);
    }
  }

  /**
   * A chunk whose message was streamed (ARCHITECTURE.md §10) is finished by chat.update (429s waited out).
   * False when the message is gone: the chunk is then posted anew.
   */
  async function finishStreamed(target: DeliveryTarget, ts: string, text: string): Promise<boolean> {
    try {
      await callWithRateLimit('chat.update', () => deps.client.chat.update(noUnfurl({ channel: target.chatId, ts, text })));
      return true;
    } catch (error) {
      if (error instanceof PlatformApiError && error.message.endsWith('message_not_found')) return false;
      throw error;
    }
  }

  return async function deliver(delivery: Delivery): Promise<void> {
    const { target, message } = delivery;
    for (let i = Math.max(0, delivery.firstChunk); i < message.chunks.length; i += 1) {
      const chunk = message.chunks[i];
      // Slack refuses an empty text (no_text); an empty chunk has nothing to show anyway.
      const streamed = target.streamedMessageIds?.[i];
      const approvalId = target.approvalId && i === message.chunks.length - 1 ? target.approvalId : undefined;
      if (chunk.trim() !== '' && !(streamed !== undefined && (await finishStreamed(target, streamed, chunk)))) await sendChunk(target, chunk, approvalId, (ref) => delivery.onPromptPosted?.(ref));
      delivery.onChunkSent(i);
    }
    // Then the files, each by the external upload (ARCHITECTURE.md §15).
    const files = message.files ?? [];
    for (let j = Math.max(0, delivery.firstChunk - message.chunks.length); j < files.length; j += 1) {
      const file = delivery.files?.[j];
      if (!file?.data.length) {
        throw new PlatformApiError({ platform: 'slack', method: 'files.getUploadURLExternal', message: `the bytes of ${files[j].name} were not handed over`, retryable: false });
      }
      await uploadFile(deps.client, callWithRateLimit, target, file);
      delivery.onChunkSent(message.chunks.length + j);
    }
  };
}
