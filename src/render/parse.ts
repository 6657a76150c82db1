/**
 * Markdown → mdast, once per answer: CommonMark plus GFM (tables, strikethrough, task lists,
 * footnotes, autolink literals). Every serializer walks the same tree.
 */
import type { Definition, Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { wellFormed } from './text.js';

const processor = unified().use(remarkParse).use(remarkGfm).freeze();

/** Parses Markdown into an mdast Root. Lone surrogates become U+FFFD first (no platform accepts them). */
export function parseMarkdown(markdown: string): Root {
  return processor.parse(wellFormed(markdown));
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
