/**
 * Character helpers for the prompt. Limits (`limits.*_chars`) count Unicode code points, so that a
 * cut never splits a surrogate pair and an emoji counts as one character.
 */

/** Length in code points. */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The first `limit` code points of `text`. */
export function takeChars(text: string, limit: number): string {
  if (limit <= 0) return '';
  if (text.length <= limit) return text; // UTF-16 length ≥ code points: nothing to cut
  return Array.from(text).slice(0, limit).join('');
}

/** Normalises line endings so that a file edited on Windows gives the same prompt bytes. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Strips a leading byte-order mark (editors on Windows add one; it is not an injection). */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export interface HeadTail {
  text: string;
  /** Code points removed from the middle (0 when nothing was cut). */
  cut: number;
  total: number;
}

/**
 * Keeps at most `limit` code points of `text`: 70% from the head and 30% from the tail, with a
 * marker in between that says how many characters were cut. The head ends and the tail starts at a
 * line break when one is near, so that no line is shown half.
 */
export function truncateHeadTail(text: string, limit: number, label: string): HeadTail {
  const chars = Array.from(text);
  const total = chars.length;
  if (total <= limit) return { text, cut: 0, total };
  let headLen = Math.floor(limit * 0.7);
  let tailLen = limit - headLen;
  // Prefer whole lines: move the cut back to a newline within the last 10% of each part.
  const head = chars.slice(0, headLen).join('');
  const nl = head.lastIndexOf('\n');
  if (nl >= 0 && headLen - charLength(head.slice(0, nl + 1)) <= headLen * 0.1) headLen = charLength(head.slice(0, nl + 1));
  const tailStart = total - tailLen;
  const tail = chars.slice(tailStart).join('');
  const tnl = tail.indexOf('\n');
  if (tnl >= 0 && charLength(tail.slice(0, tnl + 1)) <= tailLen * 0.1) tailLen -= charLength(tail.slice(0, tnl + 1));
  const cut = total - headLen - tailLen;
  const headText = chars.slice(0, headLen).join('');
  const tailText = chars.slice(total - tailLen).join('');
  const marker = `[… ${cut} chars cut from the middle of ${label} (${total} chars; kept the first ${headLen} and the last ${tailLen}) …]`;
  return { text: `${headText.replace(/\n*$/, '')}\n\n${marker}\n\n${tailText.replace(/^\n*/, '')}`, cut, total };
}
