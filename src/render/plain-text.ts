/**
 * Plain text for e-mail bodies and the terminal: no Markdown punctuation left. Headings are
 * underlined (= for level 1, - below), links read `text (url)`, code blocks are indented four
 * spaces, quotes take "> " (nested ones "> > "), lists "- " / "1. " / "[x] ", tables are aligned
 * columns. With `ansi` (a terminal that is a TTY) headings and bold are bold, italics italic,
 * code cyan; the text is the same either way.
 */
import stringWidth from 'string-width';
import type { Heading, PhrasingContent } from 'mdast';
import { Serializer, withUrl, type StyleKind } from './serialize.js';
import { codePointLength, squash } from './text.js';
import type { Measure } from './tokens.js';

export interface PlainOptions {
  /** ANSI styling (terminal on a TTY). */
  ansi: boolean;
  /** Tables wider than this become records. */
  tableMaxWidth: number;
}

const ANSI: Record<StyleKind | 'code', [string, string]> = {
  strong: ['\x1b[1m', '\x1b[22m'],
  emphasis: ['\x1b[3m', '\x1b[23m'],
  delete: ['\x1b[9m', '\x1b[29m'],
  code: ['\x1b[36m', '\x1b[39m'],
};

const plainMeasure: Measure = { text: codePointLength, markup: () => 0 };

export class PlainTextSerializer extends Serializer {
  constructor(private readonly options: PlainOptions) {
    super(plainMeasure);
    this.tableMaxWidth = options.tableMaxWidth;
  }

  protected escape(text: string): string {
    return text;
  }

  protected escapeCode(text: string): string {
    return text;
  }

  protected styled(kind: StyleKind, children: PhrasingContent[]): void {
    if (!this.options.ansi) {
      this.inlines(children);
      return;
    }
    this.w.open(ANSI[kind][0], ANSI[kind][1]);
    this.inlines(children);
    this.w.close();
  }

  /**
   * Plain text has no styling to show intraword emphasis with: `2*3*4` keeps its markers. Inside
   * another emphasis it is markup (`*foo**bar**baz*` reads `foobarbaz`, bold bar on a terminal).
   */
  protected override inlines(nodes: readonly PhrasingContent[]): void {
    nodes.forEach((node, i) => {
      const marker = this.keptMarker(nodes, i);
      if (!marker) return this.inline(node);
      this.w.text(marker);
      this.inlines((node as Extract<PhrasingContent, { type: 'emphasis' | 'strong' }>).children);
      this.w.text(marker);
    });
  }

  protected inlineCode(value: string): void {
    if (this.options.ansi) this.w.open(ANSI.code[0], ANSI.code[1]);
    this.w.text(value);
    if (this.options.ansi) this.w.close();
  }

  protected link(url: string, children: PhrasingContent[]): void {
    const text = squash(this.plain(children));
    this.w.text(withUrl(text, url));
  }

  protected heading(node: Heading): void {
    const text = squash(this.plain(node.children));
    if (!text) return;
    if (this.options.ansi) this.w.open(ANSI.strong[0], ANSI.strong[1]);
    this.w.text(text);
    if (this.options.ansi) this.w.close();
    this.w.line();
    this.w.text((node.depth === 1 ? '=' : '-').repeat(Math.min(Math.max(stringWidth(text), 3), 72)));
  }

  protected override thematicBreak(): void {
    this.w.text('-'.repeat(40));
  }

  protected quoteOpen(): boolean {
    this.w.open('> ', '', { prefix: '> ', visible: true });
    return true;
  }

  protected codeOpen(): void {
    this.w.open('    ', '', { prefix: '    ', visible: true, verbatim: true });
  }

  protected override preformatted(lines: readonly string[]): void {
    lines.forEach((line, k) => {
      if (k > 0) this.w.line();
      this.w.text(line);
    });
  }

  protected listMarker(ordered: boolean, n: number, _depth: number, checked: boolean | null | undefined): string {
    const box = checked === true ? '[x] ' : checked === false ? '[ ] ' : '';
    return (ordered ? `${n}. ` : '- ') + box;
  }
}
