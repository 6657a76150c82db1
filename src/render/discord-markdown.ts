/**
 * Discord Markdown (message `content`).
 *
 * Dialect: **bold** *italic* ~~strike~~ `code` ```lang fences, # ## ### headings, - and 1. lists,
 * > quotes (one level), [text](url) masked links. Discord has no tables: they become a code block.
 * Markdown characters in text are backslash-escaped (\ * ~ ` | < > # [ ]; _ unless it sits inside a
 * word), so text shows as written. Pings are neutralised everywhere, code included: a zero-width
 * space after the @ of @everyone/@here and after the < of <@user>, <@&role>, <#channel> — the
 * adapter also sends allowed_mentions: { parse: [] }.
 *
 * Length: at most 2,000 characters per message, counted in code points.
 */
import type { Heading, PhrasingContent, Root } from 'mdast';
import { PLATFORM_FORMATS } from '../platform/formats.js';
import { Serializer, withUrl, type StyleKind } from './serialize.js';
import { codePointLength, isAbsoluteUrl, squash, textShowsUrl } from './text.js';
import type { Measure, Token } from './tokens.js';

/** Discord refuses message content over 2,000 characters (the platform table's limit). */
export const DISCORD_MESSAGE_LIMIT = PLATFORM_FORMATS.discord.messageLimit;

const LINK_SCHEMES = ['http', 'https'] as const;
const MARK: Record<StyleKind, string> = { strong: '**', emphasis: '*', delete: '~~' };
const ZWSP = '\u200b';

export function escapeDiscord(text: string): string {
  return text.replace(/[\\*~`|<>#[\]]/g, '\\$&').replace(/_/g, (_m, at: number, all: string) => {
    const inWord = /[\p{L}\p{N}]/u.test(all[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[at + 1] ?? '');
    return inWord ? '_' : '\\_';
  });
}

/** Makes mentions inert: no @everyone, @here, <@id>, <@&id> or <#id> survives in the raw text. */
export function neutraliseMentions(raw: string): string {
  return raw.replace(/@(everyone|here)/gi, `@${ZWSP}$1`).replace(/<(?=[@#])/g, `<${ZWSP}`);
}

/** A bare URL is shown as written (Discord links it itself); only what would end it is encoded. */
function bareUrl(url: string): string {
  return url.replace(/[<>\s]/g, (c) => encodeURIComponent(c));
}

/** A masked link's target: `(` and `)` would end the `(…)` early. */
function discordUrl(url: string): string {
  return url.replace(/[()<>\s]/g, (c) => encodeURIComponent(c).replace('(', '%28').replace(')', '%29'));
}

export const discordMeasure: Measure = { text: codePointLength, markup: codePointLength };

export class DiscordSerializer extends Serializer {
  constructor() {
    super(discordMeasure, neutraliseMentions);
  }

  protected escape(text: string): string {
    return escapeDiscord(text);
  }

  /**
   * Discord ends a code block at the first ``` anywhere, not only on a fence line, and has no escape
   * inside code: a zero-width space after every second backtick of a run leaves no three in a row
   * (a non-overlapping /```/g left ``\u200b``` of five). Every piece a chunk cut makes is as safe, as
   * a cut puts a newline and the fence between two pieces.
   */
  protected escapeCode(text: string): string {
    return text.replace(/``(?=`)/g, `\`\`${ZWSP}`);
  }

  protected styled(kind: StyleKind, children: PhrasingContent[]): void {
    this.markStyled(MARK[kind], children);
  }

  protected inlineCode(value: string): void {
    const fence = value.includes('`') ? '``' : '`';
    const pad = fence === '``' ? ' ' : '';
    this.w.open(fence + pad, pad + fence, { atomic: true, verbatim: true });
    // Inside `` … `` a run of two or more backticks would end the span: none is left.
    this.w.text(value.replace(/`(?=`)/g, `\`${ZWSP}`));
    this.w.close();
  }

  protected link(url: string, children: PhrasingContent[]): void {
    const text = squash(this.plain(children));
    const fallback = this.escape(withUrl(text, url));
    if (!isAbsoluteUrl(url, LINK_SCHEMES)) this.w.text(fallback);
    else if (!text || textShowsUrl(text, url)) this.w.atom(bareUrl(url), fallback);
    else this.w.atom(`[${this.escape(text)}](${discordUrl(url)})`, fallback);
  }

  protected heading(node: Heading): void {
    this.w.open(`${'#'.repeat(Math.min(node.depth, 3))} `, '', { reopen: '' });
    this.inlines(node.children);
    this.w.close();
  }

  protected quoteOpen(nested: boolean): boolean {
    if (nested) return false;
    this.w.open('> ', '', { prefix: '> ' });
    return true;
  }

  protected codeOpen(lang: string | null): void {
    const prefix = this.w.prefix();
    this.w.open(`\`\`\`${lang ?? ''}\n${prefix}`, `\n${prefix}\`\`\``, { verbatim: true });
  }

  protected listMarker(ordered: boolean, n: number, _depth: number, checked: boolean | null | undefined): string {
    const box = checked === true ? '☑ ' : checked === false ? '☐ ' : '';
    return (ordered ? `${n}. ` : '- ') + box;
  }
}

/** Serializes a parsed document to Discord tokens (chunk with chunkTokens). */
export function discordTokens(root: Root): Token[] {
  return new DiscordSerializer().serialize(root);
}
