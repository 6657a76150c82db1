/**
 * The walk every format shares: mdast blocks and inlines in document order, written to a token
 * stream (tokens.ts). Each format subclasses it and says only what differs: escaping, markers,
 * links, headings, code. Policies that hold for every format live here:
 * - nothing visible is dropped: image alt text and targets, link targets, footnotes (collected and
 *   written at the end), raw HTML (written as text, escaped by the format — never live; comments,
 *   which no reader sees, are dropped);
 * - link reference definitions are not content and are not written;
 * - tables become aligned monospace lines, or "Header: value" records when too wide;
 * - list indentation and quote nesting are capped, so a hostile document cannot make the
 *   markup reopened at each chunk start larger than a message.
 */
import type {
  Blockquote,
  Code,
  Definition,
  Delete,
  FootnoteDefinition,
  Emphasis,
  Heading,
  List,
  Nodes,
  PhrasingContent,
  Root,
  Strong,
  Table,
} from 'mdast';
import { collectDefinitions } from './parse.js';
import { layoutTable, tableWidth } from './table.js';
import { isHtmlComment, squash, textShowsUrl } from './text.js';
import { Writer, type Measure, type Token } from './tokens.js';

/** Nested lists deeper than this are not indented further. */
export const MAX_INDENT_DEPTH = 6;
/** Code block languages longer than this, or with odd characters, are dropped (they are reopened at every cut). */
const LANG = /^[A-Za-z0-9_+#.-]{1,32}$/;

export type StyleKind = 'strong' | 'emphasis' | 'delete';

export abstract class Serializer {
  protected readonly w: Writer;
  protected defs = new Map<string, Definition>();
  private readonly footnotes: FootnoteDefinition[] = [];
  protected quoteDepth = 0;
  protected listDepth = 0;
  /** Tables wider than this (display columns) are written as records. */
  protected tableMaxWidth = 80;

  constructor(measure: Measure, post?: (raw: string) => string) {
    this.w = new Writer(measure, post);
  }

  /** Serializes one document. Use a fresh instance per document. */
  serialize(root: Root): Token[] {
    this.defs = collectDefinitions(root);
    this.blocks(root.children, 2);
    if (this.footnotes.length > 0) this.footnoteSection(this.footnotes);
    return this.w.tokens;
  }

  // ---- what each format says -------------------------------------------------------------

  /** Escapes text outside code. */
  protected abstract escape(text: string): string;
  /** Escapes text inside code (spans and blocks). */
  protected abstract escapeCode(text: string): string;
  protected abstract styled(kind: StyleKind, children: PhrasingContent[]): void;
  protected abstract inlineCode(value: string): void;
  /** A link; `children` may be empty (then the URL is the text). */
  protected abstract link(url: string, children: PhrasingContent[]): void;
  protected abstract heading(node: Heading): void;
  /** Opens a quote; returns false when the format flattens this (nested) quote instead. */
  protected abstract quoteOpen(nested: boolean): boolean;
  /** Opens a code block (lines follow as text with line breaks); closed by the caller. */
  protected abstract codeOpen(lang: string | null): void;
  protected abstract listMarker(ordered: boolean, n: number, depth: number, checked: boolean | null | undefined): string;

  /** Markers open around the current text (symmetric-marker formats: Slack, Discord). */
  protected styles: string[] = [];
  /** Emphasis, strong and strikethrough nodes of the source around the inline being written. */
  protected styledDepth = 0;

  /** Markers an intraword emphasis keeps as text (intrawordMarker); none inside another style (CommonMark 411). */
  protected keptMarker(nodes: readonly PhrasingContent[], i: number, styled = this.styledDepth > 0): string | null {
    return styled ? null : intrawordMarker(nodes, i);
  }

  /** Wraps children in a symmetric marker (`*…*`); a marker already open is not nested again. */
  protected markStyled(mark: string, children: PhrasingContent[]): void {
    if (this.styles.includes(mark)) {
      this.inlines(children);
      return;
    }
    this.w.open(mark, mark);
    this.styles.push(mark);
    this.inlines(children);
    this.styles.pop();
    this.w.close();
  }

  protected thematicBreak(): void {
    this.w.text(this.escape('———'));
  }

  protected image(url: string, alt: string): void {
    this.link(url, alt ? [{ type: 'text', value: alt }] : []);
  }

  /** Raw HTML from the source: shown as text, never live. */
  protected htmlBlock(value: string): void {
    this.textValue(value);
  }

  /** Monospace lines (tables). */
  protected preformatted(lines: readonly string[]): void {
    this.codeBlock(lines.join('\n'), null);
  }

  // ---- blocks ------------------------------------------------------------------------------

  protected blocks(nodes: readonly Nodes[], sep: 1 | 2): void {
    for (const node of nodes) this.block(node, sep);
  }

  protected block(node: Nodes, sep: 1 | 2): void {
    switch (node.type) {
      case 'paragraph':
        this.w.block(sep);
        this.inlines(node.children);
        return;
      case 'heading':
        this.w.block(sep);
        this.heading(node);
        return;
      case 'thematicBreak':
        this.w.block(sep);
        this.thematicBreak();
        return;
      case 'blockquote':
        this.w.block(sep);
        this.blockquote(node);
        return;
      case 'list':
        this.w.block(sep);
        this.list(node);
        return;
      case 'code':
        if (node.value.trim() === '') return;
        this.w.block(sep);
        this.codeBlock(node.value, cleanLang(node));
        return;
      case 'table':
        this.w.block(sep);
        this.table(node);
        return;
      case 'html':
        // An HTML comment is invisible wherever Markdown is shown: dropping it keeps a comment-only document at [].
        if (isHtmlComment(node.value)) return;
        this.w.block(sep);
        this.htmlBlock(node.value);
        return;
      case 'footnoteDefinition':
        this.footnotes.push(node);
        return;
      case 'definition':
      case 'yaml':
        return;
      case 'listItem':
      case 'tableRow':
      case 'tableCell':
      case 'root':
        this.blocks(node.children, sep);
        return;
      default:
        this.w.block(sep);
        this.inline(node);
    }
  }

  protected blockquote(node: Blockquote): void {
    const opened = this.quoteOpen(this.quoteDepth > 0);
    this.quoteDepth++;
    this.blocks(node.children, 2);
    this.quoteDepth--;
    if (opened) this.w.close();
  }

  protected list(node: List): void {
    const depth = this.listDepth++;
    const start = node.start ?? 1;
    node.children.forEach((item, k) => {
      this.w.block(node.spread ? 2 : 1);
      const marker = this.listMarker(node.ordered === true, start + k, depth, item.checked);
      const indent = depth < MAX_INDENT_DEPTH ? ' '.repeat(Array.from(marker).length) : '';
      this.w.open(marker, '', { reopen: indent, prefix: indent, visible: true });
      this.blocks(item.children, node.spread || item.spread ? 2 : 1);
      this.w.close();
    });
    this.listDepth--;
  }

  protected codeBlock(value: string, lang: string | null): void {
    this.codeOpen(lang);
    value.split('\n').forEach((line, k) => {
      if (k > 0) this.w.line();
      this.w.text(this.escapeCode(line));
    });
    this.w.close();
  }

  protected table(node: Table): void {
    // GFM: the header row fixes the column count; extra cells in a body row are not part of the table.
    const columns = node.children[0]?.children.length ?? 0;
    const rows = node.children.map((row) => row.children.slice(0, columns).map((cell) => squash(this.plain(cell.children))));
    const lines = layoutTable(rows, node.align ?? []);
    if (tableWidth(lines) <= this.tableMaxWidth) {
      this.preformatted(lines);
      return;
    }
    const [header = [], ...body] = rows;
    if (body.length === 0) {
      this.w.text(this.escape(header.join(' | ')));
      return;
    }
    body.forEach((row, r) => {
      if (r > 0) this.w.block(2);
      row.forEach((cell, c) => {
        if (c > 0) this.w.line();
        this.w.text(this.escape(`${header[c] || `Column ${c + 1}`}: ${cell}`));
      });
    });
  }

  protected footnoteSection(defs: readonly FootnoteDefinition[]): void {
    this.w.block(2);
    this.thematicBreak();
    for (const def of defs) {
      this.w.block(1);
      this.w.open(this.escape(`[${def.label ?? def.identifier}] `), '', { reopen: '', visible: true });
      this.blocks(def.children, 1);
      this.w.close();
    }
  }

  // ---- inlines -----------------------------------------------------------------------------

  protected inlines(nodes: readonly PhrasingContent[]): void {
    for (const node of nodes) this.inline(node);
  }

  protected inline(node: Nodes): void {
    switch (node.type) {
      case 'text':
        this.textValue(node.value);
        return;
      case 'emphasis':
      case 'strong':
      case 'delete':
        this.styledDepth++;
        this.styled(node.type, node.children);
        this.styledDepth--;
        return;
      case 'inlineCode':
        this.inlineCode(node.value);
        return;
      case 'break':
        this.lineBreak();
        return;
      case 'link':
        this.link(node.url, node.children);
        return;
      case 'linkReference': {
        const def = this.defs.get(node.identifier);
        if (def) this.link(def.url, node.children);
        else this.inlines(node.children);
        return;
      }
      case 'image':
        this.image(node.url, node.alt ?? '');
        return;
      case 'imageReference': {
        const def = this.defs.get(node.identifier);
        if (def) this.image(def.url, node.alt ?? '');
        else this.textValue(node.alt ?? '');
        return;
      }
      case 'footnoteReference':
        this.w.text(this.escape(`[${node.label ?? node.identifier}]`));
        return;
      case 'html':
        if (!isHtmlComment(node.value)) this.textValue(node.value);
        return;
      default:
        if ('children' in node) this.blocks(node.children, 2);
        else if ('value' in node) this.textValue(node.value);
    }
  }

  /** A line break inside a paragraph (soft or hard). */
  protected lineBreak(): void {
    this.w.line();
  }

  /** Text that may contain newlines (soft breaks inside a text node, raw HTML blocks). */
  protected textValue(value: string): void {
    value.split('\n').forEach((line, k) => {
      if (k > 0) this.lineBreak();
      this.w.text(this.escape(line));
    });
  }

  /** Plain text of inline content, link targets in parentheses (tables, link labels, headings in plain text). */
  protected plain(nodes: readonly PhrasingContent[], styled = this.styledDepth > 0): string {
    let out = '';
    for (const [i, node] of nodes.entries()) {
      const marker = this.keptMarker(nodes, i, styled);
      if (marker) {
        out += marker + this.plain((node as Emphasis | Strong).children, styled) + marker;
        continue;
      }
      switch (node.type) {
        case 'text':
        case 'inlineCode':
          out += node.value;
          break;
        case 'html':
          if (!isHtmlComment(node.value)) out += node.value;
          break;
        case 'break':
          out += ' ';
          break;
        case 'link': {
          const text = this.plain(node.children, styled);
          out += withUrl(text, node.url);
          break;
        }
        case 'linkReference': {
          const text = this.plain(node.children, styled);
          const def = this.defs.get(node.identifier);
          out += def ? withUrl(text, def.url) : text;
          break;
        }
        case 'image':
          out += withUrl(node.alt ?? '', node.url);
          break;
        case 'imageReference': {
          const def = this.defs.get(node.identifier);
          out += def ? withUrl(node.alt ?? '', def.url) : (node.alt ?? '');
          break;
        }
        case 'footnoteReference':
          out += `[${node.label ?? node.identifier}]`;
          break;
        default:
          if ('children' in node) out += this.plain(node.children, styled || isStyle(node));
      }
    }
    return out;
  }
}

const WORD_END = /[\p{L}\p{N}]$/u;
const WORD_START = /^[\p{L}\p{N}]/u;

/**
 * `2*3*4` parses as 2, emphasis(3), 4: intraword `*` emphasis, which in text without styling would
 * read `234`. For such a node (a letter or digit right before and after it) this gives the marker
 * to keep (`*` or `**`; intraword `_` never makes emphasis), else null.
 */
export function intrawordMarker(nodes: readonly PhrasingContent[], i: number): string | null {
  const node = nodes[i];
  if (node.type !== 'emphasis' && node.type !== 'strong') return null;
  const touch = wordTouches(nodes, i);
  if (!touch.before || !touch.after) return null;
  return node.type === 'strong' ? '**' : '*';
}

/** Whether a letter or digit of a text sibling touches node i from before / from after. */
export function wordTouches(nodes: readonly PhrasingContent[], i: number): { before: boolean; after: boolean } {
  const before = nodes[i - 1];
  const after = nodes[i + 1];
  return {
    before: before?.type === 'text' && WORD_END.test(before.value),
    after: after?.type === 'text' && WORD_START.test(after.value),
  };
}

export const isStyle = (node: Nodes): node is Emphasis | Strong | Delete => node.type === 'emphasis' || node.type === 'strong' || node.type === 'delete';

/** `text (url)`, or just the URL when the text already shows it or is empty. */
export function withUrl(text: string, url: string): string {
  if (!url || textShowsUrl(text, url)) return text || url;
  return text ? `${text} (${url})` : url;
}

function cleanLang(node: Code): string | null {
  const lang = node.lang ?? '';
  return LANG.test(lang) ? lang : null;
}
