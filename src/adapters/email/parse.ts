/**
 * One raw inbound mail → what the gateway needs (ARCHITECTURE.md §11): the sender, the thread, the headers
 * that decide whether it is answered at all, and only what the person wrote — quoted replies and
 * signatures cut by reply-cut.ts (checked on the public corpora of github/email_reply_parser and
 * mailgun/talon, test/fixtures/mail-replies), an HTML-only mail turned into text by `html-to-text`
 * (the client's quoted thread dropped, the person's own blockquotes kept), a forwarded message kept
 * and reported as `quoted`, attachments named with type and size.
 *
 * The work is bounded: the body is cut to MAX_PARSE_CHARS (HTML to MAX_HTML_CHARS) before any of it
 * is parsed, saying so; the reply cut is linear in what is left; HTML is turned into text in a
 * worker thread (html-worker.ts) — so no mail holds the event loop for long (a 766 KB one-line quote
 * included).
 *
 * mailparser and html-to-text are loaded by the inbound door only (IMAP_URL).
 */
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { cutReply } from './reply-cut.js';
import { convertHtml } from './html-worker.js';

/** Longest text handed to the model; the rest is cut with a note (ARCHITECTURE.md §11). */
export const MAX_TEXT_CHARS = 100_000;
/** Longest text body the reply cut reads: a little more than is handed on, so a quote at the end can still be cut. */
export const MAX_PARSE_CHARS = 120_000;
/** Longest HTML turned into text (off the event loop), once comments, styles and scripts are gone. */
export const MAX_HTML_CHARS = 400_000;
/** Longest HTML body scanned for those invisible parts. */
const MAX_RAW_HTML_CHARS = 2_000_000;

export interface MailAttachment {
  name: string;
  type: string;
  bytes: number;
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

function attachmentsOf(mail: ParsedMail): MailAttachment[] {
  return mail.attachments
    .filter((a) => !a.related)
    .map((a) => ({ name: a.filename ?? 'unnamed', type: a.contentType || 'application/octet-stream', bytes: a.size ?? a.content?.length ?? 0 }));
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The body as it goes to the model: the person's words, attachments named, cut at MAX_TEXT_CHARS;
 * `totalChars`: the body's length when it was cut before parsing (writtenPart).
 */
export function bodyOf(written: string, attachments: readonly MailAttachment[], totalChars?: number): string {
  let text = written;
  if (text.length > MAX_TEXT_CHARS || totalChars !== undefined) {
    const total = Math.max(totalChars ?? 0, text.length);
    const kept = Math.min(text.length, MAX_TEXT_CHARS);
    text = `${text.slice(0, MAX_TEXT_CHARS)}\n\n[The mail was cut here: it has ${total.toLocaleString('en-US')} characters and only the first ${kept.toLocaleString('en-US')} were kept.]`;
  }
  if (attachments.length) {
    const list = attachments.map((a) => `- ${a.name} (${a.type}, ${formatBytes(a.bytes)})`).join('\n');
    text = `${text}${text ? '\n\n' : ''}[Attachments, not opened:]\n${list}`;
  }
  return text;
}

function firstAddress(value: AddressObject | AddressObject[] | undefined): { address: string; name?: string } | null {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  for (const group of list) {
    for (const entry of group.value) {
      if (entry.address) return { address: entry.address.toLowerCase(), name: entry.name || undefined };
    }
  }
  return null;
}

function headerText(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name);
  if (!line) return undefined;
  return line.line.slice(line.line.indexOf(':') + 1).replace(/\s+/g, ' ').trim();
}

function idsOf(value: string | string[] | undefined): string[] {
  const raw = Array.isArray(value) ? value.join(' ') : (value ?? '');
  return raw.match(/<[^<>\s]+>/g) ?? [];
}

/** Parses a raw RFC 822 message; `cutAtBytes`: only that much of a bigger mail was read (its end, attachments mostly, is missing). */
export async function parseMail(raw: Buffer | string, options: { cutAtBytes?: number } = {}): Promise<InboundMail> {
  // skipHtmlToText: `text` is only a real text/plain part, so an HTML-only mail is converted here, quotes dropped.
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  const from = firstAddress(mail.from);
  const replyTo = firstAddress(mail.replyTo) ?? from;
  const attachments = attachmentsOf(mail);
  const plain = Boolean(mail.text?.trim());
  const written = plain ? await writtenPart(mail.text ?? '', false) : typeof mail.html === 'string' ? await writtenPart(mail.html, true) : { text: '' };
  const body = bodyOf(written.text, attachments, written.cutFrom);
  const headers: MailHeaders = {
    autoSubmitted: headerText(mail, 'auto-submitted'),
    precedence: headerText(mail, 'precedence'),
    listId: headerText(mail, 'list-id'),
    authenticationResults: mail.headerLines.filter((h) => h.key === 'authentication-results').map((h) => h.line.slice(h.line.indexOf(':') + 1).replace(/\s+/g, ' ').trim()),
    autoReplyMarkers: ['x-autoreply', 'x-autorespond'].filter((k) => mail.headerLines.some((h) => h.key === k)),
  };
  return {
    messageId: idsOf(mail.messageId)[0] ?? null,
    from: from?.address ?? '',
    fromName: from?.name,
    replyTo: replyTo?.address ?? '',
    subject: (mail.subject ?? '').replace(/\s+/g, ' ').trim(),
    inReplyTo: idsOf(mail.inReplyTo)[0],
    references: idsOf(mail.references),
    date: mail.date,
    text: options.cutAtBytes ? `${body}\n\n[Only the first ${Math.round(options.cutAtBytes / 1024 / 1024)} MB of this mail were read; attachments after that are not listed.]`.trimStart() : body,
    ...(written.quoted ? { quoted: written.quoted } : {}),
    headers,
  };
}

/** `Re: <subject>`, never `Re: Re:` (also not for `RE:`, `Re[2]:`, `Aw:`… already there). */
export function replySubject(subject: string): string {
  const bare = subject.replace(/^\s*((re|aw|sv|antw)(\[\d+\])?\s*:\s*)+/i, '').trim();
  return `Re: ${bare || '(no subject)'}`;
}
