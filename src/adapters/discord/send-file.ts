/**
 * Outbound files on Discord (ARCHITECTURE.md §15): one message per file, multipart through @discordjs/rest
 * (`files[0]` with `payload_json`, the file named in `attachments`), the caption as its content, with
 * `allowed_mentions: { parse: [] }` (never a ping) and SUPPRESS_EMBEDS (no link previews of URLs in the
 * caption). Slash-command answers send files through the interaction webhook, falling back to the
 * channel once the interaction token has expired.
 */
import { MessageFlags, Routes } from 'discord-api-types/v10';
import { DiscordAPIError, type REST } from './rest.js';
import type { DeliveryTarget, OutboundAttachment } from '../../core/types.js';
import { toPlatformError } from './errors.js';

/** Discord's message content limit (a caption longer than this is cut). */
export const CONTENT_LIMIT = 2000;

function captionOf(file: OutboundAttachment): string | undefined {
  const text = file.caption?.trim();
  if (!text) return undefined;
  const points = [...text];
  return points.length <= CONTENT_LIMIT ? text : `${points.slice(0, CONTENT_LIMIT - 1).join('')}…`;
}

/** The JSON part of a file message (`payload_json`). */
export function fileBody(file: OutboundAttachment, replyTo: string | undefined) {
  const content = captionOf(file);
  return {
    ...(content ? { content } : {}),
    attachments: [{ id: 0, filename: file.name }],
    allowed_mentions: { parse: [] as string[] },
    flags: MessageFlags.SuppressEmbeds,
    ...(replyTo ? { message_reference: { message_id: replyTo, fail_if_not_exists: false } } : {}),
  };
}

function filesOf(file: OutboundAttachment) {
  return [{ key: 'files[0]', name: file.name, data: Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength), contentType: file.mime }];
}

function interactionExpired(error: unknown): boolean {
  return error instanceof DiscordAPIError && (error.status === 401 || error.status === 404) && [50027, 10015, 10008].includes(Number(error.code));
}

/**
 * Sends one file as its own message to `channelId`, or through the interaction webhook (`index` 0
 * completes the deferred response, later ones are followups).
 */
export async function sendFile(
  rest: REST,
  target: DeliveryTarget,
  channelId: string,
  file: OutboundAttachment,
  options: { index: number; replyTo?: string },
): Promise<void> {
  const extra = target.extra ?? {};
  if (extra.interactionToken && extra.applicationId) {
    const body = fileBody(file, undefined);
    try {
      if (options.index === 0) await rest.patch(Routes.webhookMessage(extra.applicationId, extra.interactionToken, '@original'), { body, files: filesOf(file), auth: false });
      else await rest.post(Routes.webhook(extra.applicationId, extra.interactionToken), { body, files: filesOf(file), auth: false });
      return;
    } catch (error) {
      if (!(interactionExpired(error) && extra.channelId)) throw toPlatformError(error, options.index === 0 ? 'editInteractionReply' : 'createFollowup');
    }
  }
  try {
    await rest.post(Routes.channelMessages(channelId), { body: fileBody(file, options.replyTo), files: filesOf(file) });
  } catch (error) {
    throw toPlatformError(error, 'createMessage');
  }
}
