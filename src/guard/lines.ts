/** Line lookups for the threat scan: which line an offset is on, where that line starts and ends. */

/** Start offsets of every line, for line lookups in O(log n). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line number of an offset. */
export function lineAt(starts: readonly number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The line of an offset with where it starts and ends in `text`. */
export function lineOf(text: string, starts: readonly number[], index: number): { line: number; start: number; end: number } {
  const lo = lineAt(starts, index) - 1;
  const end = lo + 1 < starts.length ? starts[lo + 1] - 1 : text.length;
  return { line: lo + 1, start: starts[lo], end };
}
