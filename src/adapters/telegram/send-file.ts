/**
 * Outbound files (ARCHITECTURE.md §15): one part of a reply → sendPhoto (JPEG, PNG, WebP up to Telegram's
 * 10 MB photo limit), sendVoice (Opus in OGG), sendDocument (anything else), uploaded as multipart
 * through grammY's InputFile. The caption goes as plain text, cut to Telegram's 1,024 characters.
 * 429s are waited out as for text chunks; anything else is a PlatformApiError for the outbox.
 */
import { InputFile, type Api } from 'grammy/web';
import type { Logger } from '../../core/logger.js';
import type { OutboundAttachment } from '../../core/types.js';
import { retryAfterSeconds, toPlatformError } from './errors.js';

/** What sending a file needs of the sender's context (send.ts's SendContext has it all). */
export interface FileSendContext {
  api: Api;
  token: string;
  logger: Logger;
  sleep: (ms: number) => Promise<void>;
  maxRetryAfterSeconds: number;
  maxRateLimitWaits: number;
}

/** Telegram's caption limit, in characters after entity parsing. */
export const CAPTION_LIMIT = 1024;
/** sendPhoto takes photos up to 10 MB; a larger image goes as a document (full quality anyway). */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

export type FileMethod = 'sendPhoto' | 'sendVoice' | 'sendDocument';

/** Which Bot API method sends a file of this type and size. */
export function fileMethod(file: Pick<OutboundAttachment, 'mime' | 'size'>): FileMethod {
  const base = file.mime.split(';')[0].trim();
  if (PHOTO_TYPES.has(base) && file.size <= PHOTO_MAX_BYTES) return 'sendPhoto';
  // A voice note is Opus in OGG (file-type: `audio/ogg; codecs=opus`); OGG Vorbis is not.
  if (base === 'audio/opus' || (base === 'audio/ogg' && /codecs=opus/.test(file.mime))) return 'sendVoice';
  return 'sendDocument';
}

/** A caption within Telegram's limit (counted in UTF-16 units, as Telegram counts). */
export function fitCaption(caption: string | undefined): string | undefined {
  const text = caption?.trim();
  if (!text) return undefined;
  return text.length <= CAPTION_LIMIT ? text : `${text.slice(0, CAPTION_LIMIT - 1)}…`;
}

/** Sends one file to the chat; resolves once Telegram accepted it. */
export async function sendFile(
  ctx: FileSendContext,
  chat: { chatId: number | string; threadId?: number },
  file: OutboundAttachment,
  replyTo: number | undefined,
): Promise<void> {
  const method = fileMethod(file);
  const other = {
    caption: fitCaption(file.caption),
    message_thread_id: chat.threadId,
    reply_parameters: replyTo !== undefined ? { message_id: replyTo, allow_sending_without_reply: true } : undefined,
  };
  for (let waits = 0; ; waits++) {
    // An InputFile is read once per request: a new one for every try.
    const input = new InputFile(file.data, file.name);
    try {
      if (method === 'sendPhoto') await ctx.api.sendPhoto(chat.chatId, input, other);
      else if (method === 'sendVoice') await ctx.api.sendVoice(chat.chatId, input, other);
      else await ctx.api.sendDocument(chat.chatId, input, other);
      return;
    } catch (error) {
      const retryAfter = retryAfterSeconds(error);
      if (retryAfter !== undefined && retryAfter <= ctx.maxRetryAfterSeconds && waits < ctx.maxRateLimitWaits) {
        ctx.logger.info('telegram', `rate limited on ${method}: waiting ${retryAfter} s as Telegram asks, then sending the same file again`);
        await ctx.sleep(retryAfter * 1000);
        continue;
      }
      throw toPlatformError(method, error, ctx.token);
    }
  }
}
