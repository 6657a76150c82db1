/**
 * Discord attachments as facts (ARCHITECTURE.md §15): each file of a message, by its CDN URL; a voice message
 * (flag IS_VOICE_MESSAGE) is a voice note with its length. Fetched only from Discord's CDN hosts (or the
 * host of DISCORD_API_URL, where a test's fake serves them), never from a URL in the message text.
 */
import type { AttachmentFetcher, AttachmentKind, InboundAttachment } from '../../core/types.js';
import { fileHostFetcher, kindOfDeclared } from '../../core/media/fetch.js';

const IS_VOICE_MESSAGE = 1 << 13;
const CDN_HOSTS = ['cdn.discordapp.com', 'media.discordapp.net'];

export interface RawAttachment {
  filename: string;
  content_type?: string | null;
  size: number;
  url?: unknown;
  duration_secs?: unknown;
}

function kindOf(mime: string | null | undefined, voice: boolean): AttachmentKind {
  return voice ? 'voice' : kindOfDeclared(mime);
}

export function discordAttachments(list: readonly RawAttachment[] | undefined, flags: number | undefined): InboundAttachment[] {
  const voice = ((flags ?? 0) & IS_VOICE_MESSAGE) !== 0;
  return (list ?? [])
    .filter((a): a is RawAttachment & { url: string } => typeof a.url === 'string')
    .map((a) => ({
      kind: kindOf(a.content_type, voice),
      name: a.filename.replace(/[\u0000-\u001f/\\]/g, ' ').slice(0, 120) || 'file',
      ...(a.content_type ? { declaredMime: a.content_type } : {}),
      declaredSize: a.size,
      ...(typeof a.duration_secs === 'number' ? { durationSeconds: a.duration_secs } : {}),
      ref: a.url,
    }));
}

export function discordFetcher(apiUrl: string): AttachmentFetcher {
  return fileHostFetcher({ platform: 'Discord', where: "Discord's CDN", hosts: CDN_HOSTS, apiUrl });
}
