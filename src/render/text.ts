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
let graphemes: Intl.Segmenter | undefined;

/** Splits into grapheme clusters, so a cut never lands inside a surrogate pair or an emoji sequence. */
export function graphemeSplit(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of (graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text)) out.push(segment);
  return out;
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
