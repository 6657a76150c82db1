/**
 * Streamed replies on Discord (ARCHITECTURE.md §10): the first message, then edits (PATCH). Streaming uses its
 * own REST client that rejects a rate limit at once instead of waiting it out (the core then skips
 * updates); the finished answer goes through deliver(), which edits the streamed messages and waits
 * out 429s like any send. Slash-command answers (interaction webhooks) are not streamed.
 */
import { REST } from './rest.js';
import { Routes } from 'discord-api-types/v10';
import type { DeliveryTarget, StreamingCapability } from '../../core/types.js';
import { channelFor, editBody, messageBody, restOptions } from './send.js';
import { toPlatformError } from './errors.js';

export function createStreamingRest(token: string, apiUrl: string | undefined): REST {
  return new REST({ ...restOptions(apiUrl), rejectOnRateLimit: () => true, retries: 0 }).setToken(token);
}

/** Edits a message to `content`; mentions and link previews stay off, as in every message. */
export async function editMessage(rest: REST, target: DeliveryTarget, messageId: string, content: string): Promise<void> {
  try {
    await rest.patch(Routes.channelMessage(channelFor(target), messageId), { body: editBody(content) });
  } catch (error) {
    throw toPlatformError(error, 'editMessage');
  }
}

export function discordStreaming(rest: () => REST): StreamingCapability {
  return {
    resolve: (target, mode) => (mode === 'edit' && !target.extra?.interactionToken ? 'edit' : null),
    async post(target, chunk, index) {
      try {
        const created = (await rest().post(Routes.channelMessages(channelFor(target)), {
          body: messageBody(chunk, index === 0 ? target.replyToMessageId : undefined),
        })) as { id: string };
        return created.id;
      } catch (error) {
        throw toPlatformError(error, 'createMessage');
      }
    },
    edit: (target, messageId, chunk) => editMessage(rest(), target, messageId, chunk),
  };
}
