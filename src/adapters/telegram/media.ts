/**
 * Non-text Telegram messages become a short bracketed description for the agent, so a photo or a
 * voice note is never silently dropped: `[photo]`, `[document: report.pdf (application/pdf, 12 KB)]`,
 * `[voice message, 0:07]`, `[sticker 😀]`. File names and titles are sender-controlled: control
 * characters are removed and they are cut short.
 */
import { z } from 'zod';

const LABEL_MAX = 120;

export const mediaFields = {
  photo: z.array(z.looseObject({ width: z.number(), height: z.number() })).optional(),
  document: z.looseObject({ file_name: z.string().optional(), mime_type: z.string().optional(), file_size: z.number().optional() }).optional(),
  animation: z.looseObject({ file_name: z.string().optional(), duration: z.number().optional() }).optional(),
  voice: z.looseObject({ duration: z.number().optional(), file_size: z.number().optional() }).optional(),
  audio: z
    .looseObject({
      duration: z.number().optional(),
      performer: z.string().optional(),
      title: z.string().optional(),
      file_name: z.string().optional(),
    })
    .optional(),
  video: z.looseObject({ duration: z.number().optional(), file_name: z.string().optional() }).optional(),
  video_note: z.looseObject({ duration: z.number().optional() }).optional(),
  sticker: z.looseObject({ emoji: z.string().optional(), set_name: z.string().optional() }).optional(),
  location: z.looseObject({ latitude: z.number(), longitude: z.number() }).optional(),
  venue: z.looseObject({ title: z.string(), address: z.string() }).optional(),
  contact: z.looseObject({ phone_number: z.string(), first_name: z.string(), last_name: z.string().optional() }).optional(),
  poll: z.looseObject({ question: z.string() }).optional(),
  dice: z.looseObject({ emoji: z.string(), value: z.number() }).optional(),
  story: z.looseObject({}).optional(),
};

export type MediaFields = z.infer<ReturnType<typeof z.looseObject<typeof mediaFields>>>;

function label(value: string): string {
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > LABEL_MAX ? `${clean.slice(0, LABEL_MAX - 1)}…` : clean;
}

/** `12 KB`, `1.5 MB`, `300 bytes`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `0:07`, `3:21`, `1:02:03`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

function withDuration(kind: string, duration: number | undefined): string {
  return duration === undefined ? `[${kind}]` : `[${kind}, ${formatDuration(duration)}]`;
}

/** The bracketed description of a message's attachment, or undefined when it carries none. */
export function describeMedia(m: MediaFields): string | undefined {
  if (m.photo) return '[photo]';
  // An animation message also carries `document`: check it first.
  if (m.animation) return '[animation (GIF)]';
  if (m.document) {
    const details = [m.document.mime_type ? label(m.document.mime_type) : undefined, m.document.file_size !== undefined ? formatSize(m.document.file_size) : undefined].filter(Boolean);
    const name = m.document.file_name ? `: ${label(m.document.file_name)}` : '';
    return `[document${name}${details.length ? ` (${details.join(', ')})` : ''}]`;
  }
  if (m.voice) return withDuration('voice message', m.voice.duration);
  if (m.audio) {
    const title = [m.audio.performer, m.audio.title].filter((s): s is string => Boolean(s)).map(label).join(' – ') || (m.audio.file_name ? label(m.audio.file_name) : '');
    const duration = m.audio.duration !== undefined ? `, ${formatDuration(m.audio.duration)}` : '';
    return `[audio${title ? `: ${title}` : ''}${duration}]`;
  }
  if (m.video) return withDuration('video', m.video.duration);
  if (m.video_note) return withDuration('video message', m.video_note.duration);
  if (m.sticker) return m.sticker.emoji ? `[sticker ${label(m.sticker.emoji)}]` : '[sticker]';
  // A venue message also carries `location`: check it first.
  if (m.venue) return `[venue: ${label(m.venue.title)}, ${label(m.venue.address)}]`;
  if (m.location) return `[location: ${m.location.latitude.toFixed(5)}, ${m.location.longitude.toFixed(5)}]`;
  if (m.contact) {
    const name = label([m.contact.first_name, m.contact.last_name].filter(Boolean).join(' '));
    return `[contact: ${name}, ${label(m.contact.phone_number)}]`;
  }
  if (m.poll) return `[poll: ${label(m.poll.question)}]`;
  if (m.dice) return `[dice ${label(m.dice.emoji)} ${m.dice.value}]`;
  if (m.story) return '[story]';
  return undefined;
}
