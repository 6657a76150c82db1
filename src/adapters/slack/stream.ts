/**
 * Streamed replies on Slack (ARCHITECTURE.md §10). `native` (and `auto`): Slack's streaming message —
 * chat.startStream / appendStream / stopStream, fed with the Markdown as the model writes it — in
 * threads (channel mentions are answered in threads; outside a DM Slack wants the recipient's team
 * and user). Slack streams only thread replies in DMs, so a DM answered at the top level streams by
 * edits instead. `edit`: chat.postMessage, then chat.update. Either way the finished answer is the
 * outbox's, updating the streamed message to the same mrkdwn a plain answer has.
 *
 * The client rejects rate-limited calls, so a 429 comes back with its Retry-After (the core skips
 * updates). Answers through a response_url and ephemeral ones are not streamed: Slack cannot update
 * those by ts.
 */
import type { WebClient } from '@slack/web-api';
import type { DeliveryTarget, LiveMode, StreamingCapability } from '../../core/types.js';
import type { StreamingMode } from '../../core/config.js';
import { toPlatformError } from './errors.js';
import { NO_UNFURL, noUnfurl } from './send.js';

function streamable(target: DeliveryTarget): boolean {
  return !target.ephemeral && !target.extra?.response_url && target.extra?.response_type !== 'ephemeral';
}

/** The door's fact from intake; a target made without a message falls back to the id (DMs are D…). */
const isDm = (target: DeliveryTarget) => target.isDirect ?? target.chatId.startsWith('D');

export function resolveSlackMode(target: DeliveryTarget, mode: StreamingMode, teamId: string | undefined): LiveMode | null {
  if (mode === 'off' || !streamable(target)) return null;
  if (mode === 'edit') return 'edit';
  const native = target.threadId !== undefined && (isDm(target) || (teamId !== undefined && target.userId !== undefined));
  return native ? 'native' : 'edit';
}

async function call<T>(method: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toPlatformError(method, error);
  }
}

/** `teamId`: the workspace of the bot (auth.test), the recipients' team. */
export function slackStreaming(client: WebClient, teamId: () => string | undefined): StreamingCapability {
  return {
    resolve: (target, mode) => resolveSlackMode(target, mode, teamId()),
    async post(target, chunk) {
      const res = await call('chat.postMessage', () =>
        client.chat.postMessage({ channel: target.chatId, text: chunk, thread_ts: target.threadId, mrkdwn: true, ...NO_UNFURL }),
      );
      if (!res.ts) throw toPlatformError('chat.postMessage', new Error('chat.postMessage returned no ts'));
      return res.ts;
    },
    async edit(target, ts, chunk) {
      await call('chat.update', () => client.chat.update(noUnfurl({ channel: target.chatId, ts, text: chunk })));
    },
    async startNative(target, markdown) {
      const recipients = isDm(target) ? {} : { recipient_team_id: teamId(), recipient_user_id: target.userId };
      const res = await call('chat.startStream', () =>
        client.chat.startStream({ channel: target.chatId, thread_ts: target.threadId ?? '', markdown_text: markdown, ...recipients }),
      );
      if (!res.ts) throw toPlatformError('chat.startStream', new Error('chat.startStream returned no ts'));
      return res.ts;
    },
    async appendNative(target, ts, markdown) {
      await call('chat.appendStream', () => client.chat.appendStream({ channel: target.chatId, ts, markdown_text: markdown }));
    },
    async stopNative(target, ts) {
      await call('chat.stopStream', () => client.chat.stopStream({ channel: target.chatId, ts }));
    },
  };
}
