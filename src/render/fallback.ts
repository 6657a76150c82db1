/**
 * An answer past the render bounds (bound.ts), or one whose tree cannot be walked, is shown as
 * written: its source text, escaped by each format like any text, in paragraphs with its line
 * breaks, and with fenced code blocks kept as code blocks (so code stays readable and monospace).
 * Nothing is dropped and nothing is read as Markdown, so the cost is linear in the length: the tree
 * is flat (paragraphs of text and breaks, code blocks), which every serializer walks without depth.
 */
import type { Code, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$/;

/** The Markdown source as a flat document: paragraphs of its lines, and its fenced code blocks. */
export function sourceDocument(markdown: string): Root {
  const children: RootContent[] = [];
  let lines: string[] = [];
  let code: { fence: string; lang: string; lines: string[] } | null = null;

  const endParagraph = (): void => {
    if (lines.length === 0) return;
    const inline: PhrasingContent[] = [];
    lines.forEach((line, k) => {
      if (k > 0) inline.push({ type: 'break' });
      inline.push({ type: 'text', value: line });
    });
    children.push({ type: 'paragraph', children: inline } satisfies Paragraph);
    lines = [];
  };
  const endCode = (): void => {
    if (!code) return;
    children.push({ type: 'code', lang: code.lang || null, value: code.lines.join('\n') } satisfies Code);
    code = null;
  };

  let start = 0;
  while (start <= markdown.length) {
    let end = markdown.indexOf('\n', start);
    if (end < 0) end = markdown.length;
    const line = markdown.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    if (code) {
      const trimmed = line.trim();
      if (trimmed.length >= code.fence.length && trimmed === code.fence[0].repeat(trimmed.length)) endCode();
      else code.lines.push(line);
      continue;
    }
    const fence = FENCE_OPEN.exec(line);
    if (fence) {
      endParagraph();
      code = { fence: fence[1], lang: fence[2], lines: [] };
      continue;
    }
    if (line.trim() === '') endParagraph();
    else lines.push(line);
  }
  endParagraph();
  endCode();
  return { type: 'root', children };
}
