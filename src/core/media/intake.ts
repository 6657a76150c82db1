/**
 * What becomes of the files people send (ARCHITECTURE.md §15), decided here for every door: each attachment
 * of an accepted message is fetched from its platform (size and time limits), its type sniffed from
 * the bytes, and then — an image re-encoded, stored and shown to the model; a voice note or audio
 * transcribed; a document's text extracted; anything else named with type and size. Whatever fails
 * is one line to the user naming the file, and the rest of the message goes on. Extracted text and
 * transcripts are untrusted (§17): wrapped as data in the message and marking the turn's taint.
 */
import type { AppConfig } from '../config.js';
import type { AttachmentFetcher, InboundAttachment, InboundMessage } from '../types.js';
import type { MessageFile, MessageMedia } from '../messages.js';
import type { MediaStore } from './types.js';
import type { MediaDataCache } from './data.js';
import type { TaintMark } from '../taint.js';
import type { MediaReaders, Transcriber } from './readers.js';
import type { PlatformId } from '../../platform/ids.js';
import { AttachmentError } from './errors.js';
import { formatSize, NO_VISION_NOTICE } from './parts.js';
import { formatUserContent } from '../user-content.js';
import { oneLine } from '../errors.js';

export interface MediaIntakeDeps {
  config: Pick<AppConfig, 'media' | 'model'>;
  store: MediaStore;
  readers: MediaReaders;
  /** null: no transcription (`transcription.backend: off`, or no endpoint for `openai`). */
  transcriber: Transcriber | null;
  /** Then: why, the line a user can act on (naming the setting); default "transcription is off". */
  transcriptionMissing?: string | null;
  /** The bytes of stored images as requests carry them (the agent's): a new image goes in at once. */
  imageData?: MediaDataCache;
  /** The door that reported a message, to fetch its attachments. */
  fetcher: (platform: PlatformId) => AttachmentFetcher | undefined;
}

/** A batch's user message, as the model gets it, and what the user is told besides the answer. */
export interface PreparedMessage {
  content: string;
  media: MessageMedia[];
  /** The message's other attachments as facts (kind, name, type, size), kept with it for its transcript. */
  files: MessageFile[];
  /** One line each: an attachment that did not reach the model, and why. */
  notices: string[];
  /** Untrusted text this message brought in (documents, transcripts). */
  taint: TaintMark[];
}

const TEXT_EXTENSIONS = new Set(
  'txt md markdown csv tsv json jsonl yaml yml xml html htm log ini toml cfg conf sql sh bash zsh ps1 py js mjs cjs ts tsx jsx java kt go rs c h cc cpp hpp cs rb php swift scala pl r lua dart css scss vue svelte diff patch tex rst org'.split(' '),
);
const TEXT_MIMES = /^(text\/|application\/(json|xml|x-yaml|yaml|javascript|x-sh|sql|csv|x-ndjson))/;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const IMAGE = /^image\/(jpeg|png|webp|gif|tiff|avif|heif|bmp)$/;
const AUDIO = /^(audio\/|video\/(ogg|mp4|webm|quicktime|x-matroska)|application\/ogg)/;

const extension = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
const quote = (name: string) => `"${name.replace(/["\n\r]/g, "'")}"`;

/** `0:12`, `3:05`, `1:02:03`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Untrusted text as data: a tag the text cannot close (ARCHITECTURE.md §17). */
function asData(tag: 'document' | 'transcript', attrs: string, text: string): string {
  const safe = text.replace(new RegExp(`</?${tag}`, 'gi'), (m) => m.replace('<', '‹'));
  return `<${tag} ${attrs} untrusted="true">\n${safe}\n</${tag}>`;
}

/** Valid UTF-8 with no NUL: text. */
function decodeText(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

export class MediaIntake {
  /** Sessions already told that their model sees no images (told once per session while this process runs). */
  private readonly toldNoVision = new Set<string>();

  constructor(private readonly deps: MediaIntakeDeps) {}

  /**
   * The user message for a batch (one or more inbound messages in arrival order): each message's
   * text, then what its attachments gave. `sessionKey` scopes the "no vision" notice.
   */
  async prepare(batch: readonly InboundMessage[], sessionKey: string, signal?: AbortSignal): Promise<PreparedMessage> {
    const parts: string[] = [];
    const out: PreparedMessage = { content: '', media: [], files: [], notices: [], taint: [] };
    if (batch.some((m) => m.attachments?.some((a) => a.kind === 'document'))) this.deps.readers.preloadDocuments?.();
    for (const message of batch) {
      const blocks: string[] = [];
      const text = formatUserContent(message);
      if (text) blocks.push(text);
      const attachments = message.attachments ?? [];
      const max = this.deps.config.media.max_per_message;
      if (attachments.length > max) {
        out.notices.push(`Only the first ${max} of ${attachments.length} attachments were read (media.max_per_message).`);
      }
      for (const attachment of attachments.slice(0, max)) {
        const block = await this.one(message.platform, attachment, out, signal);
        if (block) blocks.push(block);
      }
      parts.push(blocks.join('\n\n'));
    }
    out.content = parts.join('\n\n');
    if (out.media.length && !this.deps.config.model.vision && !this.toldNoVision.has(sessionKey)) {
      this.toldNoVision.add(sessionKey);
      out.notices.push(NO_VISION_NOTICE);
    }
    return out;
  }

  /**
   * One attachment: its block of the user message ('' when it is an image part), notices and taint added
   * to `out`; what it was, unless an image part, to `out.files` (the transcript shows it).
   */
  private async one(platform: PlatformId, a: InboundAttachment, out: PreparedMessage, signal?: AbortSignal): Promise<string> {
    const fact: { -readonly [K in keyof MessageFile]: MessageFile[K] } = { kind: a.kind, name: a.name, mime: a.declaredMime ?? 'application/octet-stream', bytes: a.declaredSize ?? 0 };
    const images = out.media.length;
    try {
      return await this.fetchAndRead(platform, a, out, fact, signal);
    } finally {
      if (out.media.length === images) out.files.push(fact);
    }
  }

  private async fetchAndRead(platform: PlatformId, a: InboundAttachment, out: PreparedMessage, fact: { mime: string; bytes: number }, signal?: AbortSignal): Promise<string> {
    const { config } = this.deps;
    const failed = (reason: string) => {
      out.notices.push(`I could not use ${quote(a.name)}: ${reason}.`);
      return `[attachment ${quote(a.name)} not available: ${reason}]`;
    };
    if (a.declaredSize !== undefined && a.declaredSize > config.media.max_bytes) {
      return failed(`it is ${formatSize(a.declaredSize)}, over the limit of ${formatSize(config.media.max_bytes)} (media.max_bytes)`);
    }
    const fetcher = this.deps.fetcher(platform);
    if (!fetcher) return failed('this chat platform does not hand its files over');
    let bytes: Uint8Array;
    try {
      bytes = await fetcher.fetch(a, { maxBytes: config.media.max_bytes, timeoutMs: config.media.fetch_timeout_seconds * 1000, signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      return failed(error instanceof AttachmentError ? error.message : `the download failed (${oneLine(error)})`);
    }
    fact.bytes = bytes.byteLength;
    if (bytes.byteLength === 0) return failed('the file is empty (0 bytes)');
    try {
      return await this.read(a, bytes, out, fact, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      return failed(error instanceof AttachmentError ? error.message : oneLine(error));
    }
  }

  private async read(a: InboundAttachment, bytes: Uint8Array, out: PreparedMessage, fact: { mime: string }, signal?: AbortSignal): Promise<string> {
    const { readers, config } = this.deps;
    const sniffed = await readers.sniff(bytes);
    if (sniffed) fact.mime = sniffed;
    const mime = sniffed ?? 'application/octet-stream';
    const named = (why = 'not read') => `[file ${quote(a.name)}, ${sniffed ?? a.declaredMime ?? 'unknown type'}, ${formatSize(bytes.byteLength)}: ${why}]`;

    if (sniffed && IMAGE.test(sniffed)) {
      const image = await readers.image(bytes, config.media.image_max_side, sniffed);
      const ref = await this.deps.store.put(image.bytes, image.mime);
      // The turn's request carries these bytes next: kept, so they are not read back from the store.
      this.deps.imageData?.keep(ref.id, image.bytes);
      out.media.push({ id: ref.id, mime: ref.mime, name: a.name, bytes: ref.bytes });
      return '';
    }
    if (a.kind === 'image') {
      out.notices.push(`${quote(a.name)} is not an image I can read (its bytes are ${sniffed ?? 'not a known image type'}).`);
      return named('sent as an image, but its bytes are not one');
    }
    // Audio, and a video the door reported as a voice/video note (its sound track is transcribed).
    if (sniffed && AUDIO.test(sniffed) && (!sniffed.startsWith('video/') || a.kind === 'voice' || a.kind === 'audio' || a.kind === 'video')) {
      return this.transcribe(a, bytes, mime, out, signal);
    }
    if (sniffed === 'application/pdf') {
      const text = await readers.pdf(bytes, config.media.max_document_chars + 1);
      return this.document(a, 'application/pdf', text, out);
    }
    if (sniffed === DOCX) return this.document(a, DOCX, await readers.docx(bytes), out);
    if (!sniffed && (TEXT_EXTENSIONS.has(extension(a.name)) || TEXT_MIMES.test(a.declaredMime ?? '') || a.kind === 'document' || a.kind === 'file')) {
      const text = decodeText(bytes);
      if (text !== null) return this.document(a, a.declaredMime?.startsWith('text/') ? a.declaredMime : 'text/plain', text, out);
    }
    return named();
  }

  private document(a: InboundAttachment, mime: string, text: string, out: PreparedMessage): string {
    const max = this.deps.config.media.max_document_chars;
    out.taint.push({ kind: 'document', source: a.name });
    const trimmed = text.trim();
    if (!trimmed) {
      out.notices.push(`${quote(a.name)} has no text I could extract (a scan or an image-only file?).`);
      return `[document ${quote(a.name)}, ${mime}: no text]`;
    }
    const chars = [...trimmed];
    const cut = chars.length > max;
    const body = cut ? chars.slice(0, max).join('') : trimmed;
    const note = cut ? `\n[cut: only the first ${max.toLocaleString('en-US')} characters are shown (media.max_document_chars)]` : '';
    if (cut) out.notices.push(`${quote(a.name)} is long: only its first ${max.toLocaleString('en-US')} characters were read (media.max_document_chars).`);
    return asData('document', `name=${quote(a.name)} type="${mime}"`, body) + note;
  }

  private async transcribe(a: InboundAttachment, bytes: Uint8Array, mime: string, out: PreparedMessage, signal?: AbortSignal): Promise<string> {
    const label = a.kind === 'voice' ? 'voice note' : a.kind === 'video' ? 'video note' : `audio ${quote(a.name)}`;
    const transcriber = this.deps.transcriber;
    if (!transcriber) {
      out.notices.push(`I cannot listen to ${quote(a.name)}: ${this.deps.transcriptionMissing ?? 'transcription is off (transcription.backend: off)'}.`);
      return `[${label}, ${formatSize(bytes.byteLength)}: not transcribed (no transcription set up)]`;
    }
    let transcript;
    try {
      transcript = await transcriber.transcribe({ bytes, mime, name: a.name }, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      const why = error instanceof AttachmentError ? error.message : oneLine(error);
      throw new AttachmentError('transcription', `the transcription failed (${why})`);
    }
    const seconds = a.durationSeconds ?? transcript.seconds;
    const head = `${label}${seconds !== undefined ? ` ${formatDuration(seconds)}` : ''}`;
    const text = transcript.text.trim();
    if (!text) {
      out.notices.push(`I heard no speech in the ${head}.`);
      return `[${head}: no speech recognised]`;
    }
    out.taint.push({ kind: 'transcript', source: a.name });
    return `[${head}, transcribed]\n${asData('transcript', `name=${quote(a.name)}`, text)}`;
  }
}
