/**
 * One raw inbound mail → what the gateway needs (ARCHITECTURE.md §11): the sender, the thread, the headers
 * that decide whether it is answered at all, and only what the person wrote — quoted replies
 * (Gmail/Apple/Thunderbird "On … wrote:", Outlook "-----Original Message-----" and "From: … Sent: …"
 * blocks, `>` lines) and signatures (after "-- ") cut by `email-reply-parser`, an HTML-only mail
 * turned into text by `html-to-text` (quote blocks dropped), attachments named with type and size.
 *
 * mailparser, html-to-text and email-reply-parser are loaded by the inbound door only (IMAP_URL).
 */
import { createRequire } from 'node:module';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { convert } from 'html-to-text';

/** Longest text handed to the model; the rest is cut with a note (ARCHITECTURE.md §11). */
export const MAX_TEXT_CHARS = 100_000;

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

interface ReplyFragment {
  isHidden(): boolean;
  isSignature(): boolean;
  getContent(): string;
}
interface ReplyParserInstance {
  read(text: string): { getFragments(): ReplyFragment[] };
}
type ReplyParserClass = new () => ReplyParserInstance;
const EmailReplyParser = createRequire(import.meta.url)('email-reply-parser') as ReplyParserClass;

/** Outlook's reply header without an address (`From: Bob Smith` / `Sent: …`), which the library misses. */
const OUTLOOK_HEADER = /^\s*\*?(From|Von|De):\*?\s.+\r?\n\s*\*?(Sent|Gesendet|Envoyé|Date):\*?\s.+$/im;

const QUOTED_LINE = /^\s*>/;

/** A line introducing a quote: ends with ':' and names a sender (an address, a date, or a "wrote" verb). */
const ATTRIBUTION = /^(?=.*(@|\d|wrote|schrieb|écrit|escribió|escreveu|scritto|schreef|написал|писал|写道|書きました|작성)).{4,300}:\s*$/i;

const DRAWN_LINE = /^\s*(-{3,}|_+|\+{2,}|={2,})\s*$/;

/** What the person wrote, quoted replies and signatures cut. */
export function visibleText(text: string): string {
  let body = text.replace(/\r\n?/g, '\n');
  const outlook = OUTLOOK_HEADER.exec(body);
  if (outlook) body = body.slice(0, outlook.index);
  const fragments = new EmailReplyParser().read(body).getFragments();
  // The library also ends the text at a drawn line (`----`, `____`, `===`): that is the person's
  // own layout, not a signature delimiter (`-- `, or `--` where a client trimmed the space).
  body = fragments
    .filter((f) => !f.isHidden() || (f.isSignature() && DRAWN_LINE.test(f.getContent().split('\n')[0] ?? '')))
    .map((f) => f.getContent())
    .join('\n')
    .replace(/(\n\s*(-{2,}|_{2,}|\+{2,}|={2,})\s*)+\s*$/, '');
  // Interleaved quoting keeps '>' lines between the person's own; those were someone else's words,
  // and so was the attribution line that introduces them ("On … wrote:", "Am … schrieb …:").
  const lines = body.split('\n');
  return lines
    .filter((line, i) => !QUOTED_LINE.test(line) && !(ATTRIBUTION.test(line) && QUOTED_LINE.test(lines.slice(i + 1).find((l) => l.trim()) ?? '')))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Where Outlook's appended thread begins in an HTML reply. */
const OUTLOOK_THREAD_MARKERS = [/<div[^>]*\bid=["']?appendonsend\b/i, /<div[^>]*\bid=["']?divRplyFwdMsg\b/i, /<hr[^>]*\bid=["']?stopSpelling\b/i];

/** HTML-only mail as text, without the quoted thread the client appended. */
export function htmlText(html: string): string {
  // Outlook (desktop and on the web) puts the quoted thread after these markers as siblings, not
  // inside them: everything from the first marker on is the earlier mail.
  const marker = OUTLOOK_THREAD_MARKERS.map((m) => html.search(m)).filter((i) => i >= 0);
  if (marker.length) html = html.slice(0, Math.min(...marker));
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'blockquote', format: 'skip' },
      { selector: 'div.gmail_quote', format: 'skip' },
      { selector: 'div.moz-cite-prefix', format: 'skip' },
      { selector: 'div#appendonsend', format: 'skip' },
      { selector: 'div#divRplyFwdMsg', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  });
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

/** The body as it goes to the model: the person's words, attachments named, cut at MAX_TEXT_CHARS. */
export function bodyOf(written: string, attachments: readonly MailAttachment[]): string {
  let text = written;
  if (text.length > MAX_TEXT_CHARS) {
    text = `${text.slice(0, MAX_TEXT_CHARS)}\n\n[The mail was cut here: it has ${text.length.toLocaleString('en-US')} characters and only the first ${MAX_TEXT_CHARS.toLocaleString('en-US')} were kept.]`;
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
  const source = mail.text?.trim() ? mail.text : typeof mail.html === 'string' ? htmlText(mail.html) : '';
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
    text: options.cutAtBytes ? `${bodyOf(visibleText(source), attachments)}\n\n[Only the first ${Math.round(options.cutAtBytes / 1024 / 1024)} MB of this mail were read; attachments after that are not listed.]`.trimStart() : bodyOf(visibleText(source), attachments),
    headers,
  };
}

/** `Re: <subject>`, never `Re: Re:` (also not for `RE:`, `Re[2]:`, `Aw:`… already there). */
export function replySubject(subject: string): string {
  const bare = subject.replace(/^\s*((re|aw|sv|antw)(\[\d+\])?\s*:\s*)+/i, '').trim();
  return `Re: ${bare || '(no subject)'}`;
}
