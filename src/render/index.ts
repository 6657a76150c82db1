/**
 * Renderers: one Markdown answer → what each channel can show (DESIGN §1, §3, §6).
 *
 * Markdown is parsed once (remark + GFM) into mdast; one pure serializer per format writes a
 * token stream; the chunker packs it into messages within the platform's limit, counted as the
 * platform counts. Formats and limits come from PLATFORM_HINTS. Nothing here does I/O.
 */
import { UsageError } from '../core/errors.js';
import type { PlatformId } from '../platform/ids.js';
import { PLATFORM_HINTS } from '../core/prompt/hints.js';
import type { RenderFormat } from '../platform/formats.js';
import type { OutboundMessage } from '../core/types.js';
import { chunkTokens, type ChunkFormat } from './chunk.js';
import { discordMeasure, discordTokens } from './discord-markdown.js';
import { emailHtml } from './email-html.js';
import { emailTextTokens } from './email-text.js';
import { parseMarkdown } from './parse.js';
import { slackMeasure, slackTokens } from './slack-mrkdwn.js';
import { telegramMeasure, telegramTokens } from './telegram-html.js';
import { terminalTokens } from './terminal.js';
import { codePointLength, graphemeSplit } from './text.js';
import type { Root } from 'mdast';
import type { Token } from './tokens.js';

/** Formats `renderChunks` writes (every RenderFormat but cron's `target`). */
export type ChunkedFormat = Exclude<RenderFormat, 'target'>;

export const CHUNKED_FORMATS: readonly ChunkedFormat[] = ['telegram-html', 'slack-mrkdwn', 'discord-markdown', 'email-text', 'terminal'];

export interface RenderOptions {
  /** Max size per chunk in the format's unit; null = one chunk. Default: the platform's limit from PLATFORM_HINTS. */
  limit?: number | null;
  /** Terminal only: ANSI styling (pass stdout.isTTY). Default false. */
  color?: boolean;
}

/** Splits escaped text into units a cut may fall between: whole entities, whole escapes, graphemes. */
function unitSplitter(atom: RegExp): (raw: string) => string[] {
  return (raw) => {
    const out: string[] = [];
    let last = 0;
    for (const m of raw.matchAll(atom)) {
      if (m.index > last) out.push(...graphemeSplit(raw.slice(last, m.index)));
      out.push(m[0]);
      last = m.index + m[0].length;
    }
    if (last < raw.length) out.push(...graphemeSplit(raw.slice(last)));
    return out;
  };
}

const ENTITY_UNITS = unitSplitter(/&(?:amp|lt|gt|quot);/g);
const ESCAPE_UNITS = unitSplitter(/\\[\s\S]/g);

const FORMATS: Record<ChunkedFormat, { tokens: (root: Root, options: RenderOptions) => Token[]; chunk: ChunkFormat }> = {
  'telegram-html': { tokens: telegramTokens, chunk: { units: ENTITY_UNITS, cost: telegramMeasure.text } },
  'slack-mrkdwn': { tokens: slackTokens, chunk: { units: ENTITY_UNITS, cost: slackMeasure.text } },
  'discord-markdown': { tokens: discordTokens, chunk: { units: ESCAPE_UNITS, cost: discordMeasure.text } },
  'email-text': { tokens: emailTextTokens, chunk: { units: graphemeSplit, cost: codePointLength } },
  terminal: { tokens: (root, o) => terminalTokens(root, o.color ?? false), chunk: { units: graphemeSplit, cost: codePointLength } },
};

/** The message limit PLATFORM_HINTS gives for a format (the first platform that writes it). */
export function defaultLimit(format: ChunkedFormat): number | null {
  const hint = Object.values(PLATFORM_HINTS).find((h) => h.format === format);
  return hint ? hint.messageLimit : null;
}

function chunksOf(root: Root, format: ChunkedFormat, options: RenderOptions): string[] {
  const f = FORMATS[format];
  if (!f) throw new UsageError(`unknown render format "${String(format)}"`);
  const limit = options.limit === undefined ? defaultLimit(format) : options.limit;
  return chunkTokens(f.tokens(root, options), limit, f.chunk);
}

/**
 * Renders Markdown into chunks of `format`, each within the limit (Telegram: UTF-16 units of the
 * parsed text; Slack: UTF-16; Discord: code points). A document with nothing visible gives [].
 */
export function renderChunks(markdown: string, format: ChunkedFormat, options: RenderOptions = {}): string[] {
  return chunksOf(parseMarkdown(markdown), format, options);
}

/** Max subject length before it is cut at a word and given an ellipsis. */
export const SUBJECT_MAX = 120;

/**
 * Renders an e-mail: text/plain body, HTML alternative, and a subject (the first heading's text,
 * else the first non-empty line; null when there is nothing).
 */
export function renderEmail(markdown: string): { text: string; html: string; subject: string | null } {
  const root = parseMarkdown(markdown);
  const text = chunksOf(root, 'email-text', { limit: null })[0] ?? '';
  return { text, html: emailHtml(root), subject: subjectOf(root, text) };
}

function subjectOf(root: Root, text: string): string | null {
  const heading = root.children.find((n) => n.type === 'heading');
  let subject = '';
  if (heading) subject = chunksOf({ type: 'root', children: [{ ...heading, depth: 2 }] }, 'email-text', { limit: null })[0]?.split('\n')[0] ?? '';
  if (!subject.trim()) subject = text.split('\n').find((l) => l.trim() !== '') ?? '';
  subject = subject.replace(/\s+/g, ' ').trim();
  if (!subject) return null;
  if (subject.length <= SUBJECT_MAX) return subject;
  const cut = subject.slice(0, SUBJECT_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > SUBJECT_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Renders an answer for a platform, in the format and limit of PLATFORM_HINTS[platform].
 * E-mail: one chunk (the text body, none when empty) plus html and subject. `cron` is not a
 * target (a cron job delivers in its target's format): UsageError.
 */
export function renderFor(platform: PlatformId, markdown: string, options: { color?: boolean } = {}): OutboundMessage {
  const hint = PLATFORM_HINTS[platform];
  if (!hint) throw new UsageError(`unknown platform "${String(platform)}"`);
  if (hint.format === 'target') {
    throw new UsageError(`${platform} is not a render target: render for the platform the job delivers to`);
  }
  if (hint.format === 'email-text') {
    const email = renderEmail(markdown);
    const message: OutboundMessage = { chunks: email.text ? [email.text] : [] };
    if (email.html) message.html = email.html;
    if (email.subject !== null) message.subject = email.subject;
    return message;
  }
  return { chunks: renderChunks(markdown, hint.format, { limit: hint.messageLimit, color: options.color }) };
}

/**
 * Telegram HTML → plain text: tags stripped, entities decoded. For resending a chunk without
 * parse_mode when Telegram answers "can't parse entities". Link targets are already in the text.
 */
export function telegramHtmlToPlain(chunk: string): string {
  const decode = (text: string) =>
    text.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot));?/g, (m, dec?: string, hex?: string, name?: string) => {
      if (name) return { lt: '<', gt: '>', amp: '&', quot: '"' }[name as 'lt'];
      const code = dec ? Number(dec) : parseInt(hex ?? '', 16);
      return code > 0 && code < 0x110000 && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : m;
    });
  // A link's target stays visible (`text (url)`) unless the text already shows it.
  const withTargets = chunk.replace(
    /<a\s[^>]*href\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a>(\s*\(([^)]*)\))?/g,
    (_m, href: string, inner: string, shown: string | undefined, shownUrl: string | undefined) => {
      const label = inner.replace(/<[^>]*>/g, '');
      if (shown !== undefined && shownUrl === href) return `${label}${shown}`;
      const tail = shown ?? '';
      return decode(label) === decode(href) ? `${label}${tail}` : `${label} (${href})${tail}`;
    },
  );
  return decode(withTargets.replace(/<[^>]*>/g, ''));
}

export { parseMarkdown } from './parse.js';
export { TELEGRAM_MESSAGE_LIMIT } from './telegram-html.js';
export { SLACK_MESSAGE_LIMIT, SLACK_SECTION_LIMIT } from './slack-mrkdwn.js';
export { DISCORD_MESSAGE_LIMIT } from './discord-markdown.js';
