/**
 * The bound on Markdown rendering (ARCHITECTURE.md §6c). Rendering runs on the event loop, so an
 * answer whose parse would take long freezes every door; a hijacked model can write one on purpose.
 * The CommonMark parser (micromark) is linear on ordinary text but not on everything: nesting
 * hundreds of containers deep, or thousands of emphasis, bracket, backtick or `<` delimiters in one
 * paragraph, costs time quadratic (or worse) in their number (cmark's test/pathological_tests.py
 * has the catalogue). This module decides, in one linear pass over the source and before any
 * parsing, whether an answer stays within bounds that keep its parse cheap; an answer past them is
 * shown as written (fallback.ts), never parsed.
 *
 * The pass tracks fenced code (whose content micromark does not parse inline) conservatively:
 * whatever it cannot be sure is inside a fence — a tab in the indentation, a line that leaves the
 * fence's container — counts as outside, so the doubt falls on the safe side.
 */

/** The bounds. Documented in ARCHITECTURE.md §6c; each one is tested at and past its value. */
export const RENDER_BOUNDS = {
  /** Longer answers are not parsed: even linear parsing of more would take too long. */
  maxChars: 32_000,
  /** Containers (block quotes, list items, indentation in steps of two spaces) deeper than this on one line. */
  maxDepth: 16,
  /**
   * Containers the parser carries over all lines: each line costs its depth (a blank line the depth
   * of the line before, as its containers stay open). Many shallow nestings cost as much as one deep.
   */
  maxContainerWork: 8_000,
  /** Delimiter characters (* _ ~ ` [ ] <) outside code in one paragraph. */
  maxDelimiters: 480,
} as const;

export type BoundReason = 'size' | 'depth' | 'containers' | 'delimiters';

/** Why a document is past the bounds, with what was measured; null when it is within them. */
export interface BoundExcess {
  reason: BoundReason;
  /** What was measured (characters, depth, or delimiters in the worst paragraph). */
  value: number;
}

const DELIMITER = /[*_~`[\]<]/g;
/** Block-quote markers at a line start; the count is their number of `>`. */
const QUOTES = /^(?: {0,3}> ?)*/;
/** List markers chained at a line start (`- 1. * text`). */
const LIST_MARKERS = /^(?: {0,3}(?:[-+*]|\d{1,9}[.)])(?: +|$))+/;
const FENCE = /^( *)(`{3,}|~{3,})(.*)$/;

interface OpenFence {
  char: string;
  length: number;
  quotes: number;
  /** Column (after the quote markers) where the fence characters start; content lines must reach it. */
  column: number;
}

/**
 * Checks `markdown` against RENDER_BOUNDS in one pass: O(length), no allocation per character.
 * Returns the first bound passed, or null.
 */
export function exceedsBounds(markdown: string, bounds: typeof RENDER_BOUNDS = RENDER_BOUNDS): BoundExcess | null {
  if (markdown.length > bounds.maxChars) return { reason: 'size', value: markdown.length };
  let fence: OpenFence | null = null;
  let paragraph = 0;
  let work = 0;
  let lastDepth = 0;
  let start = 0;
  while (start <= markdown.length) {
    let end = markdown.indexOf('\n', start);
    if (end < 0) end = markdown.length;
    const line = markdown.slice(start, end);
    start = end + 1;

    const quoteMatch = QUOTES.exec(line)?.[0] ?? '';
    const quotes = countChar(quoteMatch, '>');
    const rest = line.slice(quoteMatch.length);

    if (fence) {
      if (stillInFence(fence, quotes, rest)) {
        if (closesFence(fence, rest)) fence = null;
        continue;
      }
      fence = null; // its container ended: this line is read as ordinary Markdown below
    }

    if (/^[ \t]*$/.test(rest)) {
      paragraph = 0;
      work += Math.max(lastDepth, quotes);
      if (work > bounds.maxContainerWork) return { reason: 'containers', value: work };
      continue;
    }
    const markers = LIST_MARKERS.exec(rest)?.[0] ?? '';
    const depth = quotes + countListMarkers(markers) + Math.floor(indentWidth(rest.slice(markers.length)) / 2);
    if (depth > bounds.maxDepth) return { reason: 'depth', value: depth };
    lastDepth = depth;
    work += depth;
    if (work > bounds.maxContainerWork) return { reason: 'containers', value: work };

    const body = rest.slice(markers.length);
    const opened = FENCE.exec(body);
    if (opened && !body.slice(0, opened[1].length).includes('\t') && !(opened[2][0] === '`' && opened[3].includes('`'))) {
      fence = { char: opened[2][0], length: opened[2].length, quotes, column: markers.length + opened[1].length };
      paragraph = 0;
      continue;
    }
    paragraph += countDelimiters(line);
    if (paragraph > bounds.maxDelimiters) return { reason: 'delimiters', value: paragraph };
  }
  return null;
}

/** A fence line continues only with at least the fence's quote markers and its indentation, no tabs. */
function stillInFence(fence: OpenFence, quotes: number, rest: string): boolean {
  if (quotes < fence.quotes) return false;
  if (/^[ ]*$/.test(rest)) return true;
  const lead = /^[ \t]*/.exec(rest)?.[0] ?? '';
  return !lead.includes('\t') && lead.length >= fence.column;
}

function closesFence(fence: OpenFence, rest: string): boolean {
  const trimmed = rest.trim();
  return trimmed.length >= fence.length && trimmed === fence.char.repeat(trimmed.length);
}

function countChar(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) n++;
  return n;
}

function countListMarkers(markers: string): number {
  return markers === '' ? 0 : (markers.match(/(?:[-+*]|\d{1,9}[.)])(?: +|$)/g)?.length ?? 0);
}

/** Leading whitespace width, a tab counting 4. */
function indentWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    if (ch === ' ') w++;
    else if (ch === '\t') w += 4;
    else break;
  }
  return w;
}

function countDelimiters(line: string): number {
  DELIMITER.lastIndex = 0;
  let n = 0;
  while (DELIMITER.exec(line) !== null) n++;
  return n;
}
