/**
 * Slack mrkdwn (message `text` or section-block text; never a `markdown` block).
 *
 * Dialect: *bold* _italic_ ~strike~ `code` ```code block``` (no language), <url|text> links,
 * &gt; quotes. Text escapes exactly & < > as &amp; &lt; &gt; — the only entities Slack knows — so
 * `<!channel>`-style control sequences in the source stay inert. Slack has no headings or tables:
 * headings are bold lines, tables and raw HTML blocks a code block. A marker already open is not nested again
 * (`*a *b* c*` would break); a marker a letter touches from outside gets a zero-width space there. Link targets go inside <…> with | < > and spaces percent-encoded.
 *
 * Length: message text at most 40,000 characters (UTF-16), section text 3,000.
 */
import type { Heading, PhrasingContent, Root } from 'mdast';
import { PLATFORM_FORMATS } from '../platform/formats.js';
import { isStyle, Serializer, withUrl, wordTouches, type StyleKind } from './serialize.js';
import { isAbsoluteUrl, squash, textShowsUrl } from './text.js';
import type { Measure, Token } from './tokens.js';

/** chat.postMessage truncates `text` beyond this (the platform table's limit). */
export const SLACK_MESSAGE_LIMIT = PLATFORM_FORMATS.slack.messageLimit;
/** A section block's text field holds at most this many characters. */
export const SLACK_SECTION_LIMIT = 3000;

const LINK_SCHEMES = ['http', 'https', 'mailto', 'ftp'] as const;
const MARK: Record<StyleKind, string> = { strong: '*', emphasis: '_', delete: '~' };
const ZWSP = '\u200b';

export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function slackUrl(url: string): string {
  return url
    .replace(/&/g, '&amp;')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/\|/g, '%7C')
    .replace(/\s/g, (c) => encodeURIComponent(c));
}

export const slackMeasure: Measure = { text: (raw) => raw.length, markup: (raw) => raw.length };

export class SlackSerializer extends Serializer {
  constructor() {
    super(slackMeasure);
  }

  protected escape(text: string): string {
    return escapeSlack(text);
  }

  protected escapeCode(text: string): string {
    // Slack ends a block at the first ``` anywhere: a zero-width space after every second backtick
    // of a run leaves no three in a row (a non-overlapping /```/g left ``\u200b``` of five).
    return escapeSlack(text.replace(/``(?=`)/g, `\`\`${ZWSP}`));
  }

  protected styled(kind: StyleKind, children: PhrasingContent[]): void {
    this.markStyled(MARK[kind], children);
  }

  /**
   * Slack shows * _ ~ as text when a letter or digit touches them from outside (`foo*bar*`): a
   * zero-width space there lets them work, so `*foo**bar**baz*` (CommonMark 411) is italic foo,
   * bold bar. An intraword emphasis the plain formats keep as text (`2*3*4`) is left alone.
   */
  protected override inlines(nodes: readonly PhrasingContent[]): void {
    nodes.forEach((node, i) => {
      const pad = isStyle(node) && !this.styles.includes(MARK[node.type]) && !this.keptMarker(nodes, i);
      const touch = pad ? wordTouches(nodes, i) : null;
      if (touch?.before) this.w.text(ZWSP);
      this.inline(node);
      if (touch?.after) this.w.text(ZWSP);
    });
  }

  /**
   * Raw HTML blocks go in a code block: Slack cannot escape * _ ~ `, so Markdown inside an HTML
   * comment or <details> would otherwise turn live (a ``` in it would open a code block).
   */
  protected override htmlBlock(value: string): void {
    this.codeBlock(value, null);
  }

  /** Slack formatting does not span lines: close the open markers before a line break, reopen after. */
  protected override lineBreak(): void {
    const open = [...this.styles];
    for (let k = open.length - 1; k >= 0; k--) this.w.close();
    this.w.line();
    for (const mark of open) this.w.open(mark, mark);
  }

  protected inlineCode(value: string): void {
    this.w.open('`', '`', { atomic: true, verbatim: true });
    this.w.text(this.escapeCode(value.replace(/`/g, 'ˋ')));
    this.w.close();
  }

  protected link(url: string, children: PhrasingContent[]): void {
    const text = squash(this.plain(children));
    if (!isAbsoluteUrl(url, LINK_SCHEMES)) {
      this.w.text(this.escape(withUrl(text, url)));
      return;
    }
    const fallback = this.escape(withUrl(text, url));
    if (!text || textShowsUrl(text, url)) this.w.atom(`<${slackUrl(url)}>`, fallback);
    else this.w.atom(`<${slackUrl(url)}|${this.escape(text)}>`, fallback);
  }

  protected heading(node: Heading): void {
    this.styled('strong', node.children);
  }

  protected quoteOpen(nested: boolean): boolean {
    if (nested) return false;
    this.w.open('&gt; ', '', { prefix: '&gt; ' });
    return true;
  }

  protected codeOpen(): void {
    const prefix = this.w.prefix();
    this.w.open(`\`\`\`\n${prefix}`, `\n${prefix}\`\`\``, { verbatim: true });
  }

  protected listMarker(ordered: boolean, n: number, depth: number, checked: boolean | null | undefined): string {
    if (checked === true) return '☑ ';
    if (checked === false) return '☐ ';
    return ordered ? `${n}. ` : `${['•', '◦', '▪'][Math.min(depth, 2)]} `;
  }
}

/** Serializes a parsed document to Slack tokens (chunk with chunkTokens). */
export function slackTokens(root: Root): Token[] {
  return new SlackSerializer().serialize(root);
}
