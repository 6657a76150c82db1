/**
 * Renderers: one Markdown answer → what each channel can show (ARCHITECTURE.md §1, §3, §6).
 *
 * Markdown is parsed once (remark + GFM) into mdast; one pure serializer per format writes a
 * token stream; the chunker packs it into messages within the platform's limit, counted as the
 * platform counts. Formats and limits come from the platform table (src/platform/formats.ts).
 * Nothing here does I/O, and nothing here imports the core: the core imports this.
 */
import { PLATFORM_FORMATS, type RenderFormat } from '../platform/formats.js';
import { isPlatformId, PLATFORM_IDS, type PlatformId } from '../platform/ids.js';
import { chunkTokens, type ChunkFormat } from './chunk.js';
import { discordMeasure, discordTokens } from './discord-markdown.js';
import { emailHtml } from './email-html.js';
import { emailTextTokens } from './email-text.js';
import { RenderError } from './errors.js';
import { sourceDocument } from './fallback.js';
import { walkBounded } from './parse.js';
import { slackMeasure, slackTokens } from './slack-mrkdwn.js';
import { telegramMeasure, telegramTokens } from './telegram-html.js';
import { terminalTokens } from './terminal.js';
import { codePointLength, graphemes, wellFormed } from './text.js';
import type { Root } from 'mdast';
import type { Token } from './tokens.js';

/** One rendered answer: what the core's outbox stores and an adapter sends (core's OutboundMessage). */
export interface RenderedMessage {
  /** Chunks in the platform's format, sent in order, one platform message each. */
  chunks: string[];
  /** E-mail only: HTML alternative of the whole message. */
  html?: string;
  /** E-mail only: subject line. */
  subject?: string;
}

/** Formats `renderChunks` writes (every RenderFormat but cron's `target`). */
export type ChunkedFormat = Exclude<RenderFormat, 'target'>;

export const CHUNKED_FORMATS: readonly ChunkedFormat[] = ['telegram-html', 'slack-mrkdwn', 'discord-markdown', 'email-text', 'terminal'];

export interface RenderOptions {
  /** Max size per chunk in the format's unit; null = one chunk. Default: the platform's limit from PLATFORM_FORMATS. */
  limit?: number | null;
  /** Terminal only: ANSI styling (pass stdout.isTTY). Default false. */
  color?: boolean;
}

/** Splits escaped text into units a cut may fall between: whole entities, whole escapes, graphemes (lazily). */
function unitSplitter(atom: RegExp): (raw: string) => Iterable<string> {
  return function* units(raw) {
    let last = 0;
    for (const m of raw.matchAll(atom)) {
      if (m.index > last) yield* graphemes(raw.slice(last, m.index));
      yield m[0];
      last = m.index + m[0].length;
    }
    if (last < raw.length) yield* graphemes(raw.slice(last));
  };
}

const ENTITY_UNITS = unitSplitter(/&(?:amp|lt|gt|quot);/g);
const ESCAPE_UNITS = unitSplitter(/\\[\s\S]/g);

const FORMATS: Record<ChunkedFormat, { tokens: (root: Root, options: RenderOptions) => Token[]; chunk: ChunkFormat }> = {
  'telegram-html': { tokens: telegramTokens, chunk: { units: ENTITY_UNITS, cost: telegramMeasure.text } },
  'slack-mrkdwn': { tokens: slackTokens, chunk: { units: ENTITY_UNITS, cost: slackMeasure.text } },
  'discord-markdown': { tokens: discordTokens, chunk: { units: ESCAPE_UNITS, cost: discordMeasure.text } },
  'email-text': { tokens: emailTextTokens, chunk: { units: graphemes, cost: codePointLength } },
  terminal: { tokens: (root, o) => terminalTokens(root, o.color ?? false), chunk: { units: graphemes, cost: codePointLength } },
};

/** The message limit the platform table gives for a format (the first platform that writes it). */
export function defaultLimit(format: ChunkedFormat): number | null {
  const entry = Object.values(PLATFORM_FORMATS).find((e) => e.format === format);
  return entry ? entry.messageLimit : null;
}

function chunksOf(root: Root, format: ChunkedFormat, options: RenderOptions): string[] {
  const f = FORMATS[format];
  if (!f) throw new RenderError('unknown_format', String(format), `unknown render format "${String(format)}"`);
  const limit = options.limit === undefined ? defaultLimit(format) : options.limit;
  return chunkTokens(f.tokens(root, options), limit, f.chunk);
}

/**
 * Renders Markdown into chunks of `format`, each within the limit (Telegram: UTF-16 units of the
 * parsed text; Slack: UTF-16; Discord: code points). A document with nothing visible gives [].
 */
export function renderChunks(markdown: string, format: ChunkedFormat, options: RenderOptions = {}): string[] {
  return walkBounded(markdown, (root) => chunksOf(root, format, options));
}

/** How an answer becomes the tree the serializers walk: parsed within the bounds, or taken as written. */
type Walk = <T>(markdown: string, walk: (root: Root) => T) => T;

/** The answer as written (fallback.ts): what an answer past the bounds becomes; linear, never parsed. */
const asWritten: Walk = (markdown, walk) => walk(sourceDocument(wellFormed(markdown)));

/** Max subject length before it is cut at a word and given an ellipsis. */
export const SUBJECT_MAX = 120;

/**
 * Renders an e-mail: text/plain body, HTML alternative, and a subject (the first heading's text,
 * else the first non-empty line; null when there is nothing).
 */
export function renderEmail(markdown: string): { text: string; html: string; subject: string | null } {
  return emailWith(walkBounded, markdown);
}

function emailWith(walkWith: Walk, markdown: string): { text: string; html: string; subject: string | null } {
  return walkWith(markdown, (root) => {
    const text = chunksOf(root, 'email-text', { limit: null })[0] ?? '';
    return { text, html: emailHtml(root), subject: subjectOf(root, text) };
  });
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

/** Platforms with a format of their own: all but those whose format is `target` (cron). */
export type RenderPlatform = {
  [P in PlatformId]: (typeof PLATFORM_FORMATS)[P]['format'] extends 'target' ? never : P;
}[PlatformId];

/**
 * The platforms renderFor accepts, in PLATFORM_IDS order: what a usage line offers is what
 * assertRenderPlatform lets through, as both come from here.
 */
export const RENDER_PLATFORMS: readonly RenderPlatform[] = PLATFORM_IDS.filter(
  (p): p is RenderPlatform => PLATFORM_FORMATS[p].format !== 'target',
);

/**
 * Checks that answers can be rendered for `platform`. Throws RenderError `unknown_platform` for a
 * string that is no platform id and `not_a_target` for cron, whose reports are rendered for the
 * platform the job delivers to. The messages are the `render` command's usage lines.
 */
export function assertRenderPlatform(platform: string): asserts platform is RenderPlatform {
  if (!isPlatformId(platform)) {
    throw new RenderError('unknown_platform', platform, `unknown platform "${platform}" (one of ${RENDER_PLATFORMS.join(', ')})`);
  }
  if (PLATFORM_FORMATS[platform].format === 'target') {
    throw new RenderError('not_a_target', platform, `${platform} is not a render target; a cron job renders for the platform it delivers to`);
  }
}

/**
 * Renders an answer for a platform, in the format and limit of PLATFORM_FORMATS[platform].
 * E-mail: one chunk (the text body, none when empty) plus html and subject. `cron` is not a
 * target (a cron job delivers in its target's format): RenderError, as from assertRenderPlatform.
 */
export function renderFor(platform: PlatformId, markdown: string, options: { color?: boolean } = {}): RenderedMessage {
  return renderForWith(walkBounded, platform, markdown, options);
}

/**
 * Renders an answer for a platform as written: its text escaped for the format, in paragraphs, its
 * fenced code kept as code — what renderFor gives for an answer past RENDER_BOUNDS, whatever the
 * answer. Linear in the length and never parsed: the fallback when rendering it properly failed
 * or took too long (the render worker, ARCHITECTURE.md §6d).
 */
export function renderAsWritten(platform: PlatformId, markdown: string, options: { color?: boolean } = {}): RenderedMessage {
  return renderForWith(asWritten, platform, markdown, options);
}

function renderForWith(walkWith: Walk, platform: PlatformId, markdown: string, options: { color?: boolean }): RenderedMessage {
  assertRenderPlatform(platform);
  const entry = PLATFORM_FORMATS[platform];
  if (entry.format === 'email-text') {
    const email = emailWith(walkWith, markdown);
    const message: RenderedMessage = { chunks: email.text ? [email.text] : [] };
    if (email.html) message.html = email.html;
    if (email.subject !== null) message.subject = email.subject;
    return message;
  }
  const limit = entry.messageLimit;
  return { chunks: walkWith(markdown, (root) => chunksOf(root, entry.format, { limit, color: options.color })) };
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

export { RenderError, type RenderErrorCode } from './errors.js';
export { parseBounded, parseMarkdown } from './parse.js';
export { exceedsBounds, RENDER_BOUNDS, type BoundExcess, type BoundReason } from './bound.js';
export { TELEGRAM_MESSAGE_LIMIT } from './telegram-html.js';
export { SLACK_MESSAGE_LIMIT, SLACK_SECTION_LIMIT } from './slack-mrkdwn.js';
export { DISCORD_MESSAGE_LIMIT } from './discord-markdown.js';
