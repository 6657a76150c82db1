/**
 * Partial Markdown as the model has written it so far, made renderable as it will read when
 * finished: an unclosed code fence, inline code span or strong/emphasis run at the end is closed, so
 * a half-written `**bold` shows bold rather than stray asterisks. (The renderer turns any input into
 * valid platform output; this only makes the preview look like the answer.)
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function closeOpenMarkdown(text: string): string {
  let open: string | null = null;
  let lastBlockStart = 0;
  let offset = 0;
  for (const line of text.split('\n')) {
    const fence = FENCE.exec(line);
    if (fence) {
      if (open === null) open = fence[1];
      else if (fence[1][0] === open[0] && fence[1].length >= open.length && line.trim() === fence[1]) open = null;
    } else if (open === null && line.trim() === '') lastBlockStart = offset + line.length + 1;
    offset += line.length + 1;
  }
  if (open !== null) return `${text.replace(/\n?$/, '\n')}${open}`;
  const block = text.slice(lastBlockStart);
  // Inline code first: inside it, * and _ are literal.
  const ticks = block.match(/`+/g) ?? [];
  if (ticks.filter((t) => t.length === 1).length % 2 === 1) return `${text}\``;
  const outsideCode = block.replace(/`[^`]*`/g, '');
  let closing = '';
  if ((outsideCode.match(/\*\*/g) ?? []).length % 2 === 1) closing += '**';
  const singles = outsideCode.replace(/\*\*/g, '').match(/(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])/g) ?? [];
  if (singles.length % 2 === 1) closing = `*${closing}`;
  if (!closing) return text;
  // A closing delimiter must follow a non-space character.
  return `${text.replace(/\s+$/, '')}${closing}`;
}
