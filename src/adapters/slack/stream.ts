/**
 * Streamed replies on Slack (DESIGN §10), `edit` mode: chat.postMessage, then chat.update as the
 * answer grows. The client rejects rate-limited calls, so a 429 comes back with its Retry-After (the
 * core skips updates). Answers through a response_url and ephemeral ones are not streamed: Slack
 * cannot update those by ts.
 *
 * `native` (chat.startStream / appendStream / stopStream) is not built yet: `auto` and `native`
 * stream by edits for now.
 */
import type { webApi } from '@slack/bolt';
import type { DeliveryTarget, StreamingCapability } from '../../core/types.js';
import { toPlatformError } from './errors.js';

function streamable(target: DeliveryTarget): boolean {
  return !target.ephemeral && !target.extra?.response_url && target.extra?.response_type !== 'ephemeral';
}

export function slackStreaming(client: webApi.WebClient): StreamingCapability {
  return {
    resolve: (target, mode) => (mode !== 'off' && streamable(target) ? 'edit' : null),
    async post(target, chunk) {
      try {
        const res = await client.chat.postMessage({ channel: target.chatId, text: chunk, thread_ts: target.threadId, mrkdwn: true, unfurl_links: false });
        if (!res.ts) throw new Error('chat.postMessage returned no ts');
        return res.ts;
      } catch (error) {
        throw toPlatformError('chat.postMessage', error);
      }
    },
    async edit(target, ts, chunk) {
      try {
        await client.chat.update({ channel: target.chatId, ts, text: chunk });
      } catch (error) {
        throw toPlatformError('chat.update', error);
      }
    },
  };
}
