/**
 * E-mail HTML alternative: mdast → hast (mdast-util-to-hast) → sanitized (hast-util-sanitize,
 * GitHub's schema: no script, style, event handlers or javascript: URLs) → HTML string, wrapped in
 * a minimal document. Raw HTML in the Markdown is shown as text, as in the text/plain part.
 */
import type { Element, Root as HastRoot, RootContent as HastContent } from 'hast';
import { defaultSchema, sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import type { Root } from 'mdast';
import { toHast } from 'mdast-util-to-hast';
import { isHtmlComment } from './text.js';

const STYLE =
  'body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;line-height:1.5}' +
  'pre{background:#f6f8fa;padding:8px;overflow:auto}code{font-family:ui-monospace,Menlo,Consolas,monospace}' +
  'table{border-collapse:collapse}th,td{border:1px solid #d0d7de;padding:4px 8px}blockquote{color:#57606a;border-left:3px solid #d0d7de;margin-left:0;padding-left:12px}';

/** The HTML body of a message; '' when the document has nothing to show. */
export function emailHtml(root: Root): string {
  const hast = toHast(root, {
    // HTML comments are dropped, as in the text part; other raw HTML is shown as text.
    handlers: { html: (_state, node: { value: string }) => (isHtmlComment(node.value) ? undefined : { type: 'text', value: node.value }) },
  });
  // to-hast already prefixes footnote ids (and the links to them) with user-content-; a second
  // prefix from the sanitizer would break those links.
  const clean = sanitize(hast, { ...defaultSchema, clobberPrefix: '' }) as HastRoot;
  const body = toHtml(clean);
  if (!hasVisible(clean)) return '';
  return (
    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><style>' +
    STYLE +
    '</style></head><body>\n' +
    body +
    '\n</body></html>\n'
  );
}

function hasVisible(node: HastRoot | HastContent): boolean {
  if (node.type === 'text') return node.value.trim() !== '';
  if (node.type === 'element' && (node as Element).tagName === 'img') return true;
  if ('children' in node) return node.children.some((c) => hasVisible(c));
  return false;
}
