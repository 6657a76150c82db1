/**
 * Small string helpers shared by the renderers: length units, grapheme splitting, URL checks.
 * All pure; no platform knowledge beyond "how does this platform count".
 */

/** Raw HTML that is nothing but comments: invisible wherever Markdown is shown, so every format drops it. */
export function isHtmlComment(value: string): boolean {
  return /^\s*(?:<!--[\s\S]*?-->\s*)+$/.test(value);
}

/** Length in UTF-16 code units (how Telegram and Slack count). */
export function utf16Length(text: string): number {
  return text.length;
}

/** Length in Unicode code points (how Discord counts). */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Made on first use: the process's first Intl.Segmenter loads ICU's break rules (about 20 ms), which a start does not need. */
let segmenter: Intl.Segmenter | undefined;

/** Code units given to the segmenter at a time, so reading the first units of a long run costs what they cost. */
const SEGMENT_WINDOW = 1024;

/** ASCII other than CR: never joins the character before or after it into one grapheme (CR joins a following LF). */
const isPlainAscii = (c: number): boolean => c < 0x80 && c !== 13;

/**
 * Grapheme clusters one by one, so a cut never lands inside a surrogate pair or an emoji sequence.
 * An ASCII character with ASCII after it is a cluster of its own and skips the segmenter (ICU costs
 * microseconds per cluster: a 100 KB base64 blob took a second); other text goes to the segmenter
 * a window at a time, each window starting at a cluster boundary, its last (maybe cut) cluster read
 * again at the start of the next window.
 */
export function* graphemes(text: string): Generator<string> {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (isPlainAscii(text.charCodeAt(i)) && (i + 1 >= n || text.charCodeAt(i + 1) < 0x80)) {
      yield text[i++];
      continue;
    }
    // A stretch that may hold multi-unit clusters: up to a boundary that is certain (plain ASCII
    // followed by ASCII), or a window's length.
    let j = i + 1;
    while (j < n && j - i < SEGMENT_WINDOW && !(isPlainAscii(text.charCodeAt(j - 1)) && text.charCodeAt(j) < 0x80)) j++;
    const segments = Array.from((segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text.slice(i, j)), (s) => s.segment);
    const certain = j >= n || (isPlainAscii(text.charCodeAt(j - 1)) && text.charCodeAt(j) < 0x80);
    const last = certain || segments.length < 2 ? segments.length : segments.length - 1;
    for (let k = 0; k < last; k++) {
      yield segments[k];
      i += segments[k].length;
    }
  }
}

/** Splits into grapheme clusters (all of them: for short texts; a chunk cut reads `graphemes` lazily). */
export function graphemeSplit(text: string): string[] {
  return Array.from(graphemes(text));
}

/** Replaces lone surrogates with U+FFFD: platforms refuse ill-formed UTF-16 and JSON cannot carry it safely. */
export function wellFormed(text: string): string {
  // String.prototype.toWellFormed is Node 20+, but lib ES2023 does not declare it.
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** An absolute URL with one of the given schemes that the WHATWG parser accepts. */
export function isAbsoluteUrl(url: string, schemes: readonly string[]): boolean {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (!match || !schemes.includes(match[1].toLowerCase())) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** The URL without scheme noise, for deciding whether a link's text already shows its target. */
function bareUrl(url: string): string {
  return url
    .replace(/^(?:https?:\/\/|mailto:)/i, '')
    .replace(/\/$/, '')
    .toLowerCase();
}

/** True when a link whose text is `text` already shows `url` (autolinks, `www.` literals, e-mail addresses). */
export function textShowsUrl(text: string, url: string): boolean {
  return text.trim() !== '' && bareUrl(text.trim()) === bareUrl(url);
}

/** Collapses runs of whitespace to one space and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
