/**
 * Outbound: rendered Telegram HTML chunks → sendMessage, in order, one message each.
 *
 * Per chunk: a 429 is waited out as Telegram says (`retry_after`) and the same chunk sent again, so it
 * arrives once; "can't parse entities" resends that chunk as plain text; a group upgraded to a
 * supergroup is followed to its new id. Anything else becomes a PlatformApiError (network and 5xx
 * retryable, so the outbox tries again later from the first unconfirmed chunk).
 */
import { z } from 'zod';
import type { Api } from 'grammy/web';
import type { Logger } from '../../core/logger.js';
import type { Delivery, DeliveryTarget } from '../../core/types.js';
import { PlatformApiError } from '../../core/errors.js';
import { GrammyError } from 'grammy/web';
import { isParseEntitiesError, migratedChatId, redactToken, retryAfterSeconds, toPlatformError } from './errors.js';
import { approvalButtonData, APPROVE_LABEL, DENY_LABEL } from '../../core/approvals/buttons.js';

/** The Approve / Deny inline keyboard of an approval prompt (ARCHITECTURE.md §16). */
export function approvalKeyboard(approvalId: string): { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> } {
  return {
    inline_keyboard: [
      [
        { text: APPROVE_LABEL, callback_data: approvalButtonData(approvalId, 'approve') },
        { text: DENY_LABEL, callback_data: approvalButtonData(approvalId, 'deny') },
      ],
    ],
  };
}
import { sendFile } from './send-file.js';

export interface SendContext {
  api: Api;
  token: string;
  logger: Logger;
  sleep: (ms: number) => Promise<void>;
  /** A 429 asking for a longer wait is handed to the outbox instead of blocking here. */
  maxRetryAfterSeconds: number;
  /** 429s waited out per chunk before giving the chunk back to the outbox. */
  maxRateLimitWaits: number;
  toPlain: (html: string) => string;
  /** An approval prompt's last chunk was posted (its buttons under it): where, for closeApprovalPrompt. */
  promptSent?: (approvalId: string, ref: TelegramPromptRef) => void;
}

/** Where an approval prompt's buttons are: its last chunk's message and the HTML it shows (also as the store keeps it). */
export const telegramPromptRef = z.object({ chatId: z.union([z.number(), z.string()]), messageId: z.number(), html: z.string() });
export type TelegramPromptRef = z.infer<typeof telegramPromptRef>;

/** Telegram ids are numbers; other Bot API servers may use `@channel` names, which pass through. */
export function chatIdParam(chatId: string): number | string {
  return /^-?\d+$/.test(chatId) ? Number(chatId) : chatId;
}

export function optionalNumber(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

async function sendChunk(
  ctx: SendContext,
  target: { chatId: number | string; threadId?: number },
  html: string,
  replyTo: number | undefined,
  approvalId?: string,
): Promise<number> {
  let plain = false;
  let migrated = false;
  let waits = 0;
  for (;;) {
    const text = plain ? ctx.toPlain(html) : html;
    try {
      const sent = await ctx.api.sendMessage(target.chatId, text, {
        parse_mode: plain ? undefined : 'HTML',
        message_thread_id: target.threadId,
        reply_parameters: replyTo !== undefined ? { message_id: replyTo, allow_sending_without_reply: true } : undefined,
        link_preview_options: { is_disabled: true },
        ...(approvalId ? { reply_markup: approvalKeyboard(approvalId) } : {}),
      });
      return sent.message_id;
    } catch (error) {
      const retryAfter = retryAfterSeconds(error);
      if (retryAfter !== undefined && retryAfter <= ctx.maxRetryAfterSeconds && waits < ctx.maxRateLimitWaits) {
        waits++;
        ctx.logger.info('telegram', `rate limited on sendMessage: waiting ${retryAfter} s as Telegram asks, then sending the same chunk again`);
        await ctx.sleep(retryAfter * 1000);
        continue;
      }
      if (!plain && isParseEntitiesError(error)) {
        plain = true;
        ctx.logger.warn('telegram', `Telegram refused the HTML (${redactToken(error.description, ctx.token)}); resending the chunk as plain text`);
        continue;
      }
      const newId = migratedChatId(error);
      if (newId !== undefined && !migrated) {
        migrated = true;
        ctx.logger.info('telegram', `chat ${target.chatId} was upgraded to supergroup ${newId}; sending there`);
        target.chatId = newId;
        continue;
      }
      throw toPlatformError('sendMessage', error, ctx.token);
    }
  }
}

/** Telegram's answer when an edit would change nothing: the message already shows that text. */
export function isNotModified(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && /message is not modified/i.test(error.description);
}

/** Edits one message to an HTML chunk; an unchanged text is fine; HTML Telegram refuses goes as plain text. */
export async function editChunk(ctx: SendContext, target: DeliveryTarget, messageId: string, html: string): Promise<void> {
  const chat = chatIdParam(target.chatId);
  try {
    await ctx.api.editMessageText(chat, Number(messageId), html, { parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
  } catch (error) {
    if (isNotModified(error)) return;
    if (isParseEntitiesError(error)) {
      try {
        await ctx.api.editMessageText(chat, Number(messageId), ctx.toPlain(html), { link_preview_options: { is_disabled: true } });
        return;
      } catch (plainError) {
        if (isNotModified(plainError)) return;
        throw toPlatformError('editMessageText', plainError, ctx.token);
      }
    }
    throw toPlatformError('editMessageText', error, ctx.token);
  }
}

/**
 * A chunk whose message was streamed (ARCHITECTURE.md §10): that message is edited to the chunk, waiting out
 * 429s as for a send. False when the message is gone (deleted meanwhile): the chunk is then sent.
 */
async function finishStreamed(ctx: SendContext, target: DeliveryTarget, messageId: string, html: string): Promise<boolean> {
  for (let waits = 0; ; waits++) {
    try {
      await editChunk(ctx, target, messageId, html);
      return true;
    } catch (error) {
      const retryAfterMs = error instanceof PlatformApiError ? error.retryAfterMs : undefined;
      if (retryAfterMs !== undefined && retryAfterMs <= ctx.maxRetryAfterSeconds * 1000 && waits < ctx.maxRateLimitWaits) {
        ctx.logger.info('telegram', `rate limited on editMessageText: waiting ${retryAfterMs / 1000} s as Telegram asks, then finishing the streamed message`);
        await ctx.sleep(retryAfterMs);
        continue;
      }
      if (error instanceof PlatformApiError && /message to edit not found|message can't be edited/i.test(error.message)) return false;
      throw error;
    }
  }
}

/** Sends the reply's parts from `firstChunk` on (chunks, then files); onChunkSent after each accepted part. */
export async function deliverChunks(ctx: SendContext, delivery: Delivery): Promise<void> {
  const { target, message } = delivery;
  if (target.platform !== 'telegram') {
    throw new PlatformApiError({ platform: 'telegram', method: 'sendMessage', message: `cannot deliver to a ${target.platform} target`, retryable: false });
  }
  const chat = { chatId: chatIdParam(target.chatId), threadId: optionalNumber(target.threadId) };
  const replyTo = optionalNumber(target.replyToMessageId);
  for (let i = Math.max(0, delivery.firstChunk); i < message.chunks.length; i++) {
    const chunk = message.chunks[i];
    if (chunk.trim() === '') {
      // Telegram refuses an empty text; an empty chunk has nothing to lose.
      delivery.onChunkSent(i);
      continue;
    }
    const streamed = target.streamedMessageIds?.[i];
    if (streamed !== undefined && (await finishStreamed(ctx, target, streamed, chunk))) {
      delivery.onChunkSent(i);
      continue;
    }
    // An approval prompt's buttons go under its last chunk.
    const buttons = target.approvalId && i === message.chunks.length - 1 ? target.approvalId : undefined;
    const messageId = await sendChunk(ctx, chat, chunk, i === 0 ? replyTo : undefined, buttons);
    if (buttons) {
      const ref: TelegramPromptRef = { chatId: chat.chatId, messageId, html: chunk };
      ctx.promptSent?.(buttons, ref);
      delivery.onPromptPosted?.(ref);
    }
    delivery.onChunkSent(i);
  }
  const files = message.files ?? [];
  for (let j = Math.max(0, delivery.firstChunk - message.chunks.length); j < files.length; j++) {
    const file = delivery.files?.[j];
    if (!file?.data.length) {
      throw new PlatformApiError({ platform: 'telegram', method: 'sendDocument', message: `the bytes of ${files[j].name} were not handed over`, retryable: false });
    }
    // A reply that is only files replies (in groups) with its first file.
    await sendFile(ctx, chat, file, message.chunks.length === 0 && j === 0 ? replyTo : undefined);
    delivery.onChunkSent(message.chunks.length + j);
  }
}

/** "typing…" in the chat; failures only matter for debugging. */
export async function sendTyping(ctx: SendContext, target: DeliveryTarget): Promise<void> {
  try {
    await ctx.api.sendChatAction(chatIdParam(target.chatId), 'typing', { message_thread_id: optionalNumber(target.threadId) });
  } catch (error) {
    ctx.logger.debug('telegram', `sendChatAction failed: ${toPlatformError('sendChatAction', error, ctx.token).message}`);
  }
}
