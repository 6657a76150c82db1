/**
 * Markdown → mdast, once per answer: CommonMark plus GFM (tables, strikethrough, task lists,
 * footnotes, autolink literals). Every serializer walks the same tree.
 */
import type { Definition, Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { exceedsBounds, type BoundExcess } from './bound.js';
import { sourceDocument } from './fallback.js';
import { wellFormed } from './text.js';

const processor = unified().use(remarkParse).use(remarkGfm).freeze();

/** Parses Markdown into an mdast Root. Lone surrogates become U+FFFD first (no platform accepts them). */
export function parseMarkdown(markdown: string): Root {
  return parseBounded(markdown).root;
}

/** A parsed answer, and why it was shown as written instead of parsed (null when it was parsed). */
export interface BoundedParse {
  root: Root;
  excess: BoundExcess | 'stack' | null;
}

/**
 * Parses Markdown within RENDER_BOUNDS (bound.ts): an answer past them, or one the parser cannot
 * finish for the depth of its nesting (a RangeError from the call stack), becomes the flat source
 * document of fallback.ts — its text as written, never lost, never a stalled event loop.
 */
export function parseBounded(markdown: string): BoundedParse {
  const text = wellFormed(markdown);
  const plain = plainParagraph(text);
  if (plain) return { root: plain, excess: null };
  const excess = exceedsBounds(text);
  if (excess) return { root: sourceDocument(text), excess };
  try {
    return { root: processor.parse(text), excess: null };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { root: sourceDocument(text), excess: 'stack' };
  }
}

/** Runs `walk` on the parsed answer; a tree too deep for the call stack is walked again as the source document. */
export function walkBounded<T>(markdown: string, walk: (root: Root) => T): T {
  const parsed = parseBounded(markdown);
  try {
    return walk(parsed.root);
  } catch (error) {
    if (!(error instanceof RangeError) || parsed.excess !== null || !/call stack/i.test(error.message)) throw error;
    return walk(sourceDocument(wellFormed(markdown)));
  }
}

/**
 * One line of prose in which Markdown can find nothing: it starts with a letter (no block marker,
 * list number, indent or heading), has no line ending, control character or trailing space, and none
 * of the characters any inline construct or GFM extension needs (\ ` * _ ~ [ ] < > & | # @) nor a
 * link literal (www. or ://). Its tree is one paragraph holding the text, which is what the parser
 * gives — but the parser first recombines its construct tables and handlers for every document,
 * about 150 µs even for a one-word answer, most of what a short reply cost to render.
 * test/render/parse-plain.test.ts compares the two on generated text.
 */
const PLAIN_LINE = /^\p{L}[^\0-\x1F\x7F\\`*_~[\]<>&|#@]*$/u;
const LINK_LITERAL = /www\.|:\/\//i;

export function plainParagraph(text: string): Root | null {
  if (!PLAIN_LINE.test(text) || text.endsWith(' ') || LINK_LITERAL.test(text)) return null;
  const position = () => ({ start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: text.length + 1, offset: text.length } });
  return { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: text, position: position() }], position: position() }], position: position() };
}

/** Link reference definitions by normalized identifier (first one wins, as in CommonMark). */
export function collectDefinitions(root: Root): Map<string, Definition> {
  const defs = new Map<string, Definition>();
  const visit = (node: Nodes): void => {
    if (node.type === 'definition') {
      if (!defs.has(node.identifier)) defs.set(node.identifier, node);
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(root);
  return defs;
}
