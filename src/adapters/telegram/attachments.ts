/**
 * Telegram attachments as facts (ARCHITECTURE.md §15): the photo (its largest size), voice note, audio,
 * round video note and document of a message, each by its `file_id`; and the fetch of their bytes
 * through `getFile` and the file URL under the Bot API root — the only place they are fetched from.
 */
import { z } from 'zod';
import type { Api } from 'grammy';
import type { AttachmentFetcher, InboundAttachment } from '../../core/types.js';
import { AttachmentError } from '../../core/media/errors.js';
import { fetchBounded, tooLarge } from '../../core/media/fetch.js';

const file = { file_id: z.string().min(1), file_size: z.number().optional() };

export const attachmentFields = z.looseObject({
  photo: z.array(z.looseObject({ ...file, width: z.number(), height: z.number() })).optional(),
  document: z.looseObject({ ...file, file_name: z.string().optional(), mime_type: z.string().optional() }).optional(),
  voice: z.looseObject({ ...file, duration: z.number().optional(), mime_type: z.string().optional() }).optional(),
  audio: z.looseObject({ ...file, duration: z.number().optional(), file_name: z.string().optional(), mime_type: z.string().optional() }).optional(),
  video_note: z.looseObject({ ...file, duration: z.number().optional() }).optional(),
  animation: z.looseObject({}).optional(),
});

const clean = (name: string) => name.replace(/[\u0000-\u001f\u007f-\u009f/\\]/g, ' ').trim().slice(0, 120) || 'file';

/** The attachments of a message (validated loosely: a field that does not parse is simply not one). */
export function telegramAttachments(message: unknown): InboundAttachment[] {
  const parsed = attachmentFields.safeParse(message);
  if (!parsed.success) return [];
  const m = parsed.data;
  const out: InboundAttachment[] = [];
  const size = (n: number | undefined) => (n === undefined ? {} : { declaredSize: n });
  if (m.photo?.length) {
    const largest = m.photo.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
    out.push({ kind: 'image', name: 'photo.jpg', declaredMime: 'image/jpeg', ...size(largest.file_size), ref: largest.file_id });
  }
  if (m.voice) out.push({ kind: 'voice', name: 'voice.ogg', declaredMime: m.voice.mime_type ?? 'audio/ogg', ...size(m.voice.file_size), ...(m.voice.duration !== undefined ? { durationSeconds: m.voice.duration } : {}), ref: m.voice.file_id });
  if (m.audio) out.push({ kind: 'audio', name: clean(m.audio.file_name ?? 'audio'), ...(m.audio.mime_type ? { declaredMime: m.audio.mime_type } : {}), ...size(m.audio.file_size), ...(m.audio.duration !== undefined ? { durationSeconds: m.audio.duration } : {}), ref: m.audio.file_id });
  if (m.video_note) out.push({ kind: 'video', name: 'video_note.mp4', declaredMime: 'video/mp4', ...size(m.video_note.file_size), ...(m.video_note.duration !== undefined ? { durationSeconds: m.video_note.duration } : {}), ref: m.video_note.file_id });
  // An animation (GIF) also carries `document`: it stays a description.
  if (m.document && !m.animation) {
    const mime = m.document.mime_type;
    out.push({ kind: mime?.startsWith('image/') ? 'image' : 'document', name: clean(m.document.file_name ?? 'document'), ...(mime ? { declaredMime: mime } : {}), ...size(m.document.file_size), ref: m.document.file_id });
  }
  return out;
}

/** Fetches through `getFile` and `{apiRoot}/file/bot<token>/<file_path>`. */
export function telegramFetcher(api: Pick<Api, 'getFile'>, apiRoot: string, token: string): AttachmentFetcher {
  return {
    async fetch(attachment, limits) {
      let path: string | undefined;
      let size: number | undefined;
      try {
        const f = await api.getFile(attachment.ref);
        path = f.file_path;
        size = f.file_size;
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        if (/too big/i.test(text)) throw new AttachmentError('too_large', 'Telegram hands bots files of at most 20 MB');
        if (/not found|invalid file_id|wrong file_id/i.test(text)) throw new AttachmentError('not_found', 'Telegram no longer has the file');
        throw new AttachmentError('unreachable', 'Telegram did not hand the file over (getFile failed)');
      }
      if (!path) throw new AttachmentError('not_found', 'Telegram gave no path for the file');
      if (size !== undefined && size > limits.maxBytes) throw tooLarge(size, limits.maxBytes);
      const encoded = path.split('/').map(encodeURIComponent).join('/');
      return fetchBounded(`${apiRoot}/file/bot${token}/${encoded}`, limits);
    },
  };
}
