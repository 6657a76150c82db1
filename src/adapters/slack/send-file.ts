/**
 * Outbound files on Slack (ARCHITECTURE.md §15), by Slack's external upload: files.getUploadURLExternal
 * (name, length) gives an upload URL and a file id, the bytes are POSTed to that URL, and
 * files.completeUploadExternal shares the file in the channel (in the thread, with the caption as
 * its comment). Files never unfurl. Slack has no ephemeral files: a file for one person's eyes only
 * is refused, never shown to the channel.
 */
import type { WebClient } from '@slack/web-api';
import { PlatformApiError } from '../../core/errors.js';
import type { DeliveryTarget, OutboundAttachment } from '../../core/types.js';

/** One Web API call with the sender's 429 handling. */
export type SlackCall = <T>(method: string, call: () => Promise<T>) => Promise<T>;

const UPLOAD_TIMEOUT_MS = 60_000;

export async function uploadFile(client: WebClient, call: SlackCall, target: DeliveryTarget, file: OutboundAttachment): Promise<void> {
  if (target.ephemeral || target.extra?.response_type === 'ephemeral') {
    throw new PlatformApiError({ platform: 'slack', method: 'files.completeUploadExternal', message: `${file.name} cannot be shown to one person only (Slack has no ephemeral files)`, retryable: false });
  }
  const url = await call('files.getUploadURLExternal', () => client.files.getUploadURLExternal({ filename: file.name, length: file.data.length }));
  if (!url.upload_url || !url.file_id) {
    throw new PlatformApiError({ platform: 'slack', method: 'files.getUploadURLExternal', message: 'no upload_url in the answer', retryable: true });
  }
  let res: Response;
  try {
    res = await fetch(url.upload_url, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: file.data,
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    });
    await res.arrayBuffer();
  } catch (error) {
    throw new PlatformApiError({ platform: 'slack', method: 'upload', message: `the upload of ${file.name} failed: ${error instanceof Error ? error.message : String(error)}`, retryable: true, cause: error });
  }
  if (!res.ok) {
    throw new PlatformApiError({ platform: 'slack', method: 'upload', message: `the upload URL answered HTTP ${res.status} for ${file.name}`, status: res.status, retryable: res.status >= 500 || res.status === 429 });
  }
  const files: [{ id: string; title: string }] = [{ id: url.file_id, title: file.name }];
  const comment = file.caption ? { initial_comment: file.caption } : {};
  await call('files.completeUploadExternal', () =>
    target.threadId
      ? client.files.completeUploadExternal({ files, channel_id: target.chatId, thread_ts: target.threadId, ...comment })
      : client.files.completeUploadExternal({ files, channel_id: target.chatId, ...comment }),
  );
}
