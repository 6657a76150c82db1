/**
 * Tables for formats that have none: columns padded to equal display width (string-width, so CJK
 * and emoji count double), a dashed rule under the header. Chat renderers put the lines in a
 * monospace block; too-wide tables become one "Header: value" record per row instead.
 */
import stringWidth from 'string-width';
import type { AlignType } from 'mdast';

/** Lays out rows of plain cell text; the first row is the header. */
export function layoutTable(rows: readonly (readonly string[])[], align: readonly (AlignType | undefined)[] = []): string[] {
  const cols = Math.max(0, ...rows.map((r) => r.length));
  const widths = new Array<number>(cols).fill(0);
  for (const row of rows) for (let c = 0; c < cols; c++) widths[c] = Math.max(widths[c], stringWidth(row[c] ?? ''));
  const pad = (text: string, c: number): string => {
    const gap = widths[c] - stringWidth(text);
    if (align[c] === 'right') return ' '.repeat(gap) + text;
    if (align[c] === 'center') return ' '.repeat(Math.floor(gap / 2)) + text + ' '.repeat(gap - Math.floor(gap / 2));
    return text + ' '.repeat(gap);
  };
  const line = (row: readonly string[]): string =>
    widths
      .map((_, c) => pad(row[c] ?? '', c))
      .join(' | ')
      .trimEnd();
  const out = rows.map(line);
  if (out.length > 0) out.splice(1, 0, widths.map((w) => '-'.repeat(Math.max(w, 1))).join('-+-'));
  return out;
}

/** Display width of the widest line. */
export function tableWidth(lines: readonly string[]): number {
  return Math.max(0, ...lines.map((l) => stringWidth(l)));
}
