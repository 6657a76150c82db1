/**
 * Streamed replies on Telegram (ARCHITECTURE.md §10): `sendMessageDraft` previews in private chats (Bot API
 * 9.5; a draft is only a preview, the finished answer is sent as real messages), `sendMessage` +
 * `editMessageText` elsewhere. Nothing here waits out a 429: the core skips updates instead.
 */
import type { DeliveryTarget, LiveMode, StreamingCapability } from '../../core/types.js';
import type { StreamingMode } from '../../core/config.js';
import { chatIdParam, editChunk, optionalNumber, type SendContext } from './send.js';
import { toPlatformError } from './errors.js';

/**
 * Whether the reply goes to a private chat: what the door reported at intake (the turn context puts
 * it on the target). A target made without a message (a cron `deliver`) falls back to the id: a
 * private chat's id is the user's (positive); groups and channels are negative.
 */
export function isPrivateChat(target: DeliveryTarget): boolean {
  return target.isDirect ?? /^\d+$/.test(target.chatId);
}

export function resolveMode(target: DeliveryTarget, mode: StreamingMode): LiveMode | null {
  if (mode === 'edit') return 'edit';
  if (mode === 'draft') return isPrivateChat(target) ? 'draft' : null;
  if (mode === 'auto') return isPrivateChat(target) ? 'draft' : 'edit';
  return null;
}

export function telegramStreaming(ctx: SendContext): StreamingCapability {
  return {
    resolve: resolveMode,
    async post(target, chunk, index) {
      const replyTo = index === 0 ? optionalNumber(target.replyToMessageId) : undefined;
      try {
        const sent = await ctx.api.sendMessage(chatIdParam(target.chatId), chunk, {
          parse_mode: 'HTML',
          message_thread_id: optionalNumber(target.threadId),
          reply_parameters: replyTo !== undefined ? { message_id: replyTo, allow_sending_without_reply: true } : undefined,
          link_preview_options: { is_disabled: true },
        });
        return String(sent.message_id);
      } catch (error) {
        throw toPlatformError('sendMessage', error, ctx.token);
      }
    },
    edit: (target, messageId, chunk) => editChunk(ctx, target, messageId, chunk),
    async draft(target, draftId, chunk) {
      const chat = chatIdParam(target.chatId);
      if (typeof chat !== 'number') return;
      try {
        await ctx.api.sendMessageDraft(chat, draftId, chunk, { parse_mode: 'HTML', message_thread_id: optionalNumber(target.threadId) });
      } catch (error) {
        throw toPlatformError('sendMessageDraft', error, ctx.token);
      }
    },
  };
}
