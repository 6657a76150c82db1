/**
 * Telegram HTML (`parse_mode: HTML`).
 *
 * Dialect: <b> <i> <s> <code> <pre> (<pre><code class="language-x"> for a language) <a href>
 * <blockquote>; nothing else. Text escapes exactly & < > (and " inside attribute values).
 * Telegram's nesting rules: b/i/s may contain and be inside anything except code and pre; code,
 * pre and a contain no other entity; blockquotes do not nest. So inline code inside bold closes
 * the bold around it, code inside a link is plain text, and a nested quote is flattened.
 * Headings are bold lines, lists are •/◦/▪ or numbers, tables are a <pre> block, images are links.
 * A link shows its target in parentheses after the text (the chat shows only the text otherwise).
 * Only http(s) and tg:// targets become <a href>; others stay plain text, as Telegram refuses them.
 *
 * Length: at most 4,096 UTF-16 units of the text after entity parsing; tags count nothing.
 */
import type { Heading, PhrasingContent, Root } from 'mdast';
import { PLATFORM_FORMATS } from '../platform/formats.js';
import { Serializer, type StyleKind } from './serialize.js';
import { isAbsoluteUrl, textShowsUrl } from './text.js';
import type { Measure, Token } from './tokens.js';

/** Bot API: message text is 1–4,096 characters after entity parsing (the platform table's limit). */
export const TELEGRAM_MESSAGE_LIMIT = PLATFORM_FORMATS.telegram.messageLimit;

const LINK_SCHEMES = ['http', 'https', 'tg'] as const;
const TAG: Record<StyleKind, string> = { strong: 'b', emphasis: 'i', delete: 's' };

export function escapeTelegram(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(text: string): string {
  return escapeTelegram(text).replace(/"/g, '&quot;');
}

const ENTITY = /&(?:amp|lt|gt|quot);/g;

/** Visible length: entities count as one character, tags as none. */
export const telegramMeasure: Measure = {
  text: (raw) => raw.replace(ENTITY, '&').length,
  markup: () => 0,
};

export class TelegramSerializer extends Serializer {
  // `styles` (from Serializer) holds the inline tags open right now, innermost last ('a' included).

  constructor() {
    super(telegramMeasure);
    this.tableMaxWidth = 60;
  }

  protected escape(text: string): string {
    return escapeTelegram(text);
  }

  protected escapeCode(text: string): string {
    return escapeTelegram(text);
  }

  protected styled(kind: StyleKind, children: PhrasingContent[]): void {
    const tag = TAG[kind];
    if (this.styles.includes(tag)) {
      this.inlines(children);
      return;
    }
    this.w.open(`<${tag}>`, `</${tag}>`);
    this.styles.push(tag);
    this.inlines(children);
    this.styles.pop();
    this.w.close();
  }

  protected inlineCode(value: string): void {
    if (this.styles.includes('a')) {
      this.w.text(this.escape(value));
      return;
    }
    // code may not sit inside b/i/s: close them around it and reopen after.
    const open = [...this.styles];
    for (let k = open.length - 1; k >= 0; k--) this.w.close();
    this.w.open('<code>', '</code>', { atomic: true, verbatim: true });
    this.w.text(this.escape(value));
    this.w.close();
    for (const tag of open) this.w.open(`<${tag}>`, `</${tag}>`);
  }

  protected link(url: string, children: PhrasingContent[]): void {
    const text = this.plain(children);
    if (this.styles.includes('a') || !isAbsoluteUrl(url, LINK_SCHEMES)) {
      this.inlines(children);
      if (url && !textShowsUrl(text, url)) this.w.text(this.escape(children.length > 0 ? ` (${url})` : url));
      return;
    }
    this.w.open(`<a href="${escapeAttr(url)}">`, '</a>', { atomic: true });
    this.styles.push('a');
    if (children.length > 0) this.inlines(children);
    else this.w.text(this.escape(url));
    this.styles.pop();
    this.w.close();
    if (children.length > 0 && !textShowsUrl(text, url)) this.w.text(this.escape(` (${url})`));
  }

  protected heading(node: Heading): void {
    this.styled('strong', node.children);
  }

  protected quoteOpen(nested: boolean): boolean {
    if (nested) return false;
    this.w.open('<blockquote>', '</blockquote>');
    return true;
  }

  protected codeOpen(lang: string | null): void {
    if (lang) this.w.open(`<pre><code class="language-${escapeAttr(lang)}">`, '</code></pre>', { verbatim: true, resetPrefix: true });
    else this.w.open('<pre>', '</pre>', { verbatim: true, resetPrefix: true });
  }

  protected listMarker(ordered: boolean, n: number, depth: number, checked: boolean | null | undefined): string {
    if (checked === true) return '☑ ';
    if (checked === false) return '☐ ';
    return ordered ? `${n}. ` : `${['•', '◦', '▪'][Math.min(depth, 2)]} `;
  }
}

/** Serializes a parsed document to Telegram tokens (chunk with chunkTokens). */
export function telegramTokens(root: Root): Token[] {
  return new TelegramSerializer().serialize(root);
}
