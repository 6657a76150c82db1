/**
 * The renderers' intermediate form: a flat stream of tokens that a serializer writes and the chunker
 * packs into platform messages. Knowing which piece is markup, which is text, where a line or block
 * ends and which markup is open at any point is what lets the chunker cut a message anywhere safe and
 * close and reopen formatting (a code block with its language, a quote, bold) across the cut.
 */

/** A run of text up to and including its trailing spaces: the unit of word-boundary splitting. */
export interface WordToken {
  t: 'word';
  raw: string;
  cost: number;
  /** Has something visible (not only whitespace). */
  content: boolean;
}

/** An unbreakable unit (Slack `<url|text>`, Discord `[text](url)`), with a breakable stand-in if it alone exceeds the limit. */
export interface AtomToken {
  t: 'atom';
  raw: string;
  cost: number;
  content: boolean;
  fallback: Token[];
}

/** Opening markup. The chunker closes it with `close` at a cut and writes `reopen` at the start of the next chunk. */
export interface OpenToken {
  t: 'open';
  raw: string;
  cost: number;
  close: string;
  closeCost: number;
  reopen: string;
  reopenCost: number;
  /** Cut inside only when nothing else fits (links, inline code). */
  atomic: boolean;
  /** Whitespace inside is significant (code): never trimmed at a cut. */
  verbatim: boolean;
}

export interface CloseToken {
  t: 'close';
  raw: string;
  cost: number;
}

/** A line (1) or block (2) boundary; `raw` carries the newline(s) and the line prefix of open containers. */
export interface BreakToken {
  t: 'break';
  raw: string;
  cost: number;
  level: 1 | 2;
}

export type Token = WordToken | AtomToken | OpenToken | CloseToken | BreakToken;

/** How a format counts: visible text and markup may count differently (Telegram counts tags as nothing). */
export interface Measure {
  text(raw: string): number;
  markup(raw: string): number;
}

export interface OpenOptions {
  /** Written at the start of the next chunk while this is open (default: raw). */
  reopen?: string;
  /** Added after every newline while open (quote marker, list indentation). */
  prefix?: string;
  /** Drop outer prefixes inside (Telegram `<pre>`, where indentation would become code). */
  resetPrefix?: boolean;
  atomic?: boolean;
  verbatim?: boolean;
  /** The open/reopen text is visible text (a list marker), not markup. */
  visible?: boolean;
}

const WORDS = /[^ \t]+[ \t]*|[ \t]+/g;

/**
 * Builds a token stream. Blocks ask for a separator with `block()`; the separator is written lazily
 * before the next visible thing, so nothing ends in a dangling break and containers start clean.
 */
export class Writer {
  readonly tokens: Token[] = [];
  private readonly opens: { token: OpenToken; prefix: string; resetPrefix: boolean }[] = [];
  private pending: 0 | 1 | 2 = 0;
  /** Nothing written yet in the current container. */
  private fresh = true;

  constructor(
    private readonly measure: Measure,
    /** Applied to every text raw before it is measured (Discord: neutralise pings). */
    private readonly post: (raw: string) => string = (raw) => raw,
  ) {}

  /** The line prefix of the open containers. */
  prefix(): string {
    let out = '';
    for (const o of this.opens) out = o.resetPrefix ? o.prefix : out + o.prefix;
    return out;
  }

  /** Marks the start of a block: a separator of `level` goes before it unless it is first in its container. */
  block(level: 1 | 2 = 2): void {
    if (!this.fresh && level > this.pending) this.pending = level;
  }

  /** A line break now (soft/hard break, code line). */
  line(): void {
    this.pending = 0;
    this.pushBreak(1);
  }

  private flush(): void {
    if (this.pending !== 0) this.pushBreak(this.pending);
    this.pending = 0;
    this.fresh = false;
  }

  private pushBreak(level: 1 | 2): void {
    const prefix = this.prefix();
    const raw = level === 2 ? `\n${prefix.trimEnd()}\n${prefix}` : `\n${prefix}`;
    this.tokens.push({ t: 'break', raw, cost: this.measure.text(raw), level });
  }

  /** Escaped text, without newlines. Split into words so the chunker can cut between them. */
  text(raw: string): void {
    if (raw === '') return;
    this.flush();
    const words = this.post(raw).match(WORDS) ?? [];
    for (const w of words) this.tokens.push(this.word(w));
  }

  private word(raw: string): WordToken {
    return { t: 'word', raw, cost: this.measure.text(raw), content: /\S/.test(raw) };
  }

  /** An unbreakable unit; `fallbackRaw` is the escaped text used instead if it alone is over the limit. */
  atom(raw: string, fallbackRaw: string): void {
    this.flush();
    const r = this.post(raw);
    const fallback = (this.post(fallbackRaw).match(WORDS) ?? []).map((w) => this.word(w));
    this.tokens.push({ t: 'atom', raw: r, cost: this.measure.markup(r), content: /\S/.test(r), fallback });
  }

  open(raw: string, close: string, options: OpenOptions = {}): void {
    this.flush();
    const m = options.visible ? this.measure.text : this.measure.markup;
    const reopen = options.reopen ?? raw;
    const token: OpenToken = {
      t: 'open',
      raw,
      cost: m(raw),
      close,
      closeCost: this.measure.markup(close),
      reopen,
      reopenCost: m(reopen),
      atomic: options.atomic ?? false,
      verbatim: options.verbatim ?? false,
    };
    this.tokens.push(token);
    this.opens.push({ token, prefix: options.prefix ?? '', resetPrefix: options.resetPrefix ?? false });
    this.fresh = true;
  }

  close(): void {
    const o = this.opens.pop();
    if (!o) throw new Error('render: close() without open()');
    this.pending = 0;
    this.tokens.push({ t: 'close', raw: o.token.close, cost: o.token.closeCost });
    this.fresh = false;
  }

  /** Number of open markup tokens (for serializers that must close and reopen around something). */
  depth(): number {
    return this.opens.length;
  }
}
