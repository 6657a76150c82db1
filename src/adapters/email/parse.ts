/**
 * One raw inbound mail → what the gateway needs (ARCHITECTURE.md §11): the sender, the thread, the headers
 * that decide whether it is answered at all, and only what the person wrote — quoted replies and
 * signatures cut by reply-cut.ts (checked on the public corpora of github/email_reply_parser and
 * mailgun/talon, test/fixtures/mail-replies), an HTML-only mail turned into text by `html-to-text`
 * (the client's quoted thread dropped, the person's own blockquotes kept), a forwarded message kept
 * and reported as `quoted`, file parts handed on as attachments (ARCHITECTURE.md §15).
 *
 * No mail holds the event loop for long: mailparser decodes the raw mail, and HTML is turned into
 * text, in a worker thread (mail-worker.ts); what is left here is bounded — the body is cut to
 * MAX_PARSE_CHARS (HTML to MAX_HTML_CHARS) before the reply cut reads it, saying so, and the reply
 * cut is linear in what is left (a 766 KB one-line quote included).
 *
 * mailparser and html-to-text are loaded by the inbound door only (IMAP_URL).
 */
import { simpleParser, type AddressObject } from 'mailparser';
import { cutReply } from './reply-cut.js';
import { convertHtml, HEADER_KEYS, parseInWorker, type ParsedPart, type ParsedSource } from './mail-worker.js';
import { formatSize } from '../../core/media/parts.js';
import { oneLine } from '../../core/errors.js';

/** Longest text handed to the model; the rest is cut with a note (ARCHITECTURE.md §11). */
export const MAX_TEXT_CHARS = 100_000;
/** Longest text body the reply cut reads: a little more than is handed on, so a quote at the end can still be cut. */
export const MAX_PARSE_CHARS = 120_000;
/** Longest HTML turned into text (off the event loop), once comments, styles and scripts are gone. */
export const MAX_HTML_CHARS = 400_000;
/** Longest HTML body scanned for those invisible parts. */
const MAX_RAW_HTML_CHARS = 2_000_000;

/** File parts past this many bytes are described only when the caller names no limit (media.max_bytes' default). */
const DEFAULT_MAX_PART_BYTES = 20_000_000;

/** A file part of a mail, for the core's media intake (ARCHITECTURE.md §15). */
export interface MailAttachment {
  name: string;
  /** The declared Content-Type. */
  type: string;
  bytes: number;
  /** SHA-256 of the bytes (the attachment's ref) with the bytes; absent when the part was over the limit. */
  sha256?: string;
  data?: Uint8Array;
}

/** A parsed inbound mail, reduced to what the door translates. */
export interface InboundMail {
  /** `<id@host>` as sent (angle brackets kept); null when the mail has none. */
  messageId: string | null;
  /** The sender's address, lower-cased; '' when there is no usable From. */
  from: string;
  fromName?: string;
  /** Where the answer goes: Reply-To, else From (lower-cased). */
  replyTo: string;
  subject: string;
  inReplyTo?: string;
  /** Message-IDs of `References`, oldest first. */
  references: string[];
  date?: Date;
  /** What the person wrote, with attachments listed and over-long text cut. */
  text: string;
  /** File parts (attachments, large inline images), for the core's media intake. */
  attachments: MailAttachment[];
  /** A forwarded message the person passed on (also in `text`): someone else's words. */
  quoted?: string;
  /** Header values for the never-answered rules (screen.ts), lower-cased names. */
  headers: MailHeaders;
}

export interface MailHeaders {
  autoSubmitted?: string;
  precedence?: string;
  listId?: string;
  /** Every `Authentication-Results` header, raw. */
  authenticationResults: string[];
  /** Other markers of an auto-reply (`X-Autoreply`, `X-Autorespond`). */
  autoReplyMarkers: string[];
}

/** What the person wrote, quoted replies and signatures cut (reply-cut.ts). */
export function visibleText(text: string): string {
  return cutReply(text).text;
}

/** Where Outlook's appended thread begins in an HTML reply. */
const OUTLOOK_THREAD_MARKERS = [/<div[^>]*\bid=["']?appendonsend\b/i, /<div[^>]*\bid=["']?divRplyFwdMsg\b/i, /<hr[^>]*\bid=["']?stopSpelling\b/i, /<div[^>]*\bid=["']?OLK_SRC_BODY_SECTION\b/i];

/** Comments, `<head>`, `<style>` and `<script>` removed: markup that holds no words (linear, no regular expression backtracking). */
function withoutInvisible(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  while (at < html.length) {
    const next = [lower.indexOf('<!--', at), lower.indexOf('<style', at), lower.indexOf('<script', at), lower.indexOf('<head', at)].filter((i) => i >= 0);
    if (!next.length) break;
    const start = Math.min(...next);
    out += html.slice(at, start);
    const close = lower.startsWith('<!--', start) ? '-->' : lower.startsWith('<style', start) ? '</style>' : lower.startsWith('<script', start) ? '</script>' : '</head>';
    // `<header>` is not `<head>`.
    if (close === '</head>' && /[a-z]/.test(lower[start + 5] ?? '')) {
      out += html.slice(start, start + 5);
      at = start + 5;
      continue;
    }
    const end = lower.indexOf(close, start);
    at = end < 0 ? html.length : end + close.length;
  }
  return out + html.slice(at);
}

/** The words of HTML without its markup: the fallback when the worker cannot read it (a tree too deep to walk, too slow). */
function tagsStripped(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/tr|\/h\d|\/blockquote)\b[^<>]*>/gi, '\n')
    .replace(/<[^<>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Math.min(Number(n), 0x10ffff)))
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ');
}

/** HTML-only mail as text, blockquote lines marked for the reply cut, Outlook's appended thread dropped; converted off the event loop (html-worker.ts). */
export async function htmlText(html: string): Promise<string> {
  // Outlook (desktop and on the web) puts the quoted thread after these markers as siblings, not
  // inside them: everything from the first marker on is the earlier mail.
  const marker = OUTLOOK_THREAD_MARKERS.map((m) => html.search(m)).filter((i) => i >= 0);
  if (marker.length) html = html.slice(0, Math.min(...marker));
  try {
    return await convertHtml(html);
  } catch {
    // Too slow or unreadable: the words without the markup, rather than nothing.
    return tagsStripped(html);
  }
}

/**
 * The person's words of a body (HTML when `html`), cut to the bounds first: `{ text, quoted, cutFrom }`,
 * `cutFrom` the body's length when it was cut before parsing. HTML is bounded after its invisible
 * parts are gone (an Outlook mail's styles alone can be tens of KB).
 */
export async function writtenPart(body: string, html: boolean): Promise<{ text: string; quoted?: string; cutFrom?: number }> {
  const visible = html ? withoutInvisible(body.length > MAX_RAW_HTML_CHARS ? body.slice(0, MAX_RAW_HTML_CHARS) : body) : body;
  const bound = html ? MAX_HTML_CHARS : MAX_PARSE_CHARS;
  const cut = visible.length > bound || (html && body.length > MAX_RAW_HTML_CHARS);
  const kept = visible.length > bound ? visible.slice(0, bound) : visible;
  // The text of HTML is cut to the same bound as a text body before the reply cut reads it.
  const text = html ? (await htmlText(kept)).slice(0, MAX_PARSE_CHARS) : kept;
  const reply = cutReply(text);
  return { ...reply, ...(cut ? { cutFrom: (html ? visible : body).trim().length } : {}) };
}

/** An inline image (`cid:`) of an HTML body smaller than this is layout — a logo, an icon, a tracking pixel — and is not handed on. */
export const MIN_INLINE_IMAGE_BYTES = 16 * 1024;

/**
 * The file parts handed to the core's media intake (ARCHITECTURE.md §15): every attachment, and an
 * image the HTML shows inline (`cid:`, in a multipart/related body) when it is at least
 * MIN_INLINE_IMAGE_BYTES (a pasted screenshot or photo, not a signature's logo).
 */
export function filePartsOf(parts: readonly ParsedPart[]): MailAttachment[] {
  return parts
    .filter((p) => !(p.related && p.contentType.startsWith('image/') && p.size < MIN_INLINE_IMAGE_BYTES))
    .map((p, i) => ({ name: p.name ?? defaultName(p.contentType, i + 1), type: p.contentType, bytes: p.size, ...(p.sha256 && p.data ? { sha256: p.sha256, data: p.data } : {}) }));
}

function defaultName(type: string, n: number): string {
  const sub = /^[a-z]+\/([a-z0-9.+-]+)$/i.exec(type)?.[1]?.replace(/^x-/, '').replace(/\+.*$/, '') ?? 'bin';
  const ext = sub === 'jpeg' ? 'jpg' : sub === 'plain' ? 'txt' : sub.length <= 5 ? sub : 'bin';
  return `attachment-${n}.${ext}`;
}

/**
 * The body as it goes to the model: the person's words, cut at MAX_TEXT_CHARS;
 * `totalChars`: the body's length when it was cut before parsing (writtenPart).
 */
export function bodyOf(written: string, totalChars?: number): string {
  let text = written;
  if (text.length > MAX_TEXT_CHARS || totalChars !== undefined) {
    const total = Math.max(totalChars ?? 0, text.length);
    const kept = Math.min(text.length, MAX_TEXT_CHARS);
    text = `${text.slice(0, MAX_TEXT_CHARS)}\n\n[The mail was cut here: it has ${total.toLocaleString('en-US')} characters and only the first ${kept.toLocaleString('en-US')} were kept.]`;
  }
  return text;
}

function headerText(lines: ParsedSource['headerLines'], name: string): string | undefined {
  const line = lines.find((h) => h.key === name);
  if (!line) return undefined;
  return line.line.slice(line.line.indexOf(':') + 1).replace(/\s+/g, ' ').trim();
}

function idsOf(value: string | string[] | undefined): string[] {
  const raw = Array.isArray(value) ? value.join(' ') : (value ?? '');
  return raw.match(/<[^<>\s]+>/g) ?? [];
}

/** Most of a mail's header read on the event loop when the worker could not read the mail. */
const MAX_HEADER_BYTES = 64 * 1024;

/** The header of a raw mail alone (up to MAX_HEADER_BYTES), parsed on the event loop: bounded, fast. */
async function headersOnly(raw: Buffer): Promise<ParsedSource> {
  const head = raw.subarray(0, MAX_HEADER_BYTES);
  const end = head.indexOf('\r\n\r\n');
  const lf = head.indexOf('\n\n');
  const at = end >= 0 && (lf < 0 || end < lf) ? end : lf;
  const header = at >= 0 ? head.subarray(0, at) : head;
  const mail = await simpleParser(Buffer.concat([header, Buffer.from('\r\n\r\n')]), { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  const addresses = (value: AddressObject | AddressObject[] | undefined) =>
    (Array.isArray(value) ? value : value ? [value] : []).flatMap((g) => g.value.filter((e) => e.address).map((e) => ({ address: e.address as string, name: e.name || undefined })));
  return {
    from: addresses(mail.from),
    replyTo: addresses(mail.replyTo),
    subject: mail.subject,
    messageId: mail.messageId,
    inReplyTo: mail.inReplyTo,
    references: Array.isArray(mail.references) ? mail.references : mail.references ? [mail.references] : [],
    date: mail.date?.getTime(),
    headerLines: mail.headerLines.filter((h) => HEADER_KEYS.includes(h.key)),
    parts: [],
  };
}

export interface ParseOptions {
  /** Only that much of a bigger mail was read (its end, attachments mostly, is missing). */
  cutAtBytes?: number;
  /** File parts larger than this are described, their bytes not kept (media.max_bytes). */
  maxPartBytes?: number;
  /** How long the worker may take (PARSE_WORKER_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Move a Buffer that owns its memory to the worker instead of copying it: `raw` is empty afterwards. */
  handOver?: boolean;
}

/**
 * Parses a raw RFC 822 message off the event loop (mail-worker.ts); what is left here is bounded.
 * A mail the worker cannot read in time (or at all) is answered from its headers, saying so.
 */
export async function parseMail(raw: Buffer | string, options: ParseOptions = {}): Promise<InboundMail> {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  const size = bytes.byteLength;
  // Kept for the headers-only fallback: the bytes themselves may be moved to the worker.
  const header = Buffer.from(bytes.subarray(0, MAX_HEADER_BYTES));
  let source: ParsedSource;
  let unread: string | undefined;
  try {
    source = await parseInWorker(bytes, options.maxPartBytes ?? DEFAULT_MAX_PART_BYTES, { timeoutMs: options.timeoutMs, handOver: options.handOver || typeof raw === 'string' });
  } catch (error) {
    source = await headersOnly(header);
    unread = `[This mail (${formatSize(size)}) could not be read: ${oneLine(error)}. Only its sender and subject came through.]`;
  }
  const from = source.from[0] ? { address: source.from[0].address.toLowerCase(), name: source.from[0].name } : null;
  const replyTo = source.replyTo[0] ? source.replyTo[0].address.toLowerCase() : from?.address;
  const parts = filePartsOf(source.parts);
  // The end of a mail cut at cutAtBytes is missing: its last file part may be too.
  if (options.cutAtBytes && parts.length) parts.pop();
  const plain = Boolean(source.text?.trim());
  const written = plain ? await writtenPart(source.text ?? '', false) : source.html !== undefined ? await writtenPart(source.html, true) : { text: '' };
  const body = unread ?? bodyOf(written.text, written.cutFrom);
  const headers: MailHeaders = {
    autoSubmitted: headerText(source.headerLines, 'auto-submitted'),
    precedence: headerText(source.headerLines, 'precedence'),
    listId: headerText(source.headerLines, 'list-id'),
    authenticationResults: source.headerLines.filter((h) => h.key === 'authentication-results').map((h) => h.line.slice(h.line.indexOf(':') + 1).replace(/\s+/g, ' ').trim()),
    autoReplyMarkers: ['x-autoreply', 'x-autorespond'].filter((k) => source.headerLines.some((h) => h.key === k)),
  };
  return {
    messageId: idsOf(source.messageId)[0] ?? null,
    from: from?.address ?? '',
    fromName: from?.name,
    replyTo: replyTo ?? '',
    subject: (source.subject ?? '').replace(/\s+/g, ' ').trim(),
    inReplyTo: idsOf(source.inReplyTo)[0],
    references: idsOf(source.references),
    date: source.date === undefined ? undefined : new Date(source.date),
    text: options.cutAtBytes
      ? `${body}\n\n[Only the first ${Math.round(options.cutAtBytes / 1024 / 1024)} MB of this mail were read: an attachment it cuts through, and any after it, were not read.]`.trimStart()
      : body,
    attachments: parts,
    ...(written.quoted && !unread ? { quoted: written.quoted } : {}),
    headers,
  };
}

/** `Re: <subject>`, never `Re: Re:` (also not for `RE:`, `Re[2]:`, `Aw:`… already there). */
export function replySubject(subject: string): string {
  const bare = subject.replace(/^\s*((re|aw|sv|antw)(\[\d+\])?\s*:\s*)+/i, '').trim();
  return `Re: ${bare || '(no subject)'}`;
}
