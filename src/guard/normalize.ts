/**
 * Normalisation for the threat scan (ARCHITECTURE.md §5): the patterns read wording, so wording tricks are
 * undone first and the scan also runs on what comes out. Each *derived view* is a piece of text
 * plus the line of the scanned file it came from, so a hit is still logged with its line.
 *
 * - `normalizedView`: Unicode tag characters decoded to the ASCII they hide; NFKC (fullwidth,
 *   ligatures, compatibility forms); invisible and bidi characters removed; words that mix Latin
 *   letters with look-alikes from other scripts folded with Unicode's confusables table
 *   (`unhomoglyph`, generated from confusables.txt); words re-joined across hyphenated line
 *   breaks; letter-spaced runs ("i g n o r e") collapsed. Line breaks are kept, so only the lines
 *   that changed (and one line each side) are scanned again.
 * - `decodedViews`: base64, hex, percent-encoded and rot13 runs, decoded when the result is
 *   readable text.
 *
 * Every step is one linear regex pass (or is skipped by a cheap test), so a 1 MB file stays fast.
 */
import { lineAt } from './lines.js';
import { createRequire } from 'node:module';

/**
 * Unicode's confusables folding (the `unhomoglyph` package), loaded on first use: loading it builds
 * one regular expression of its ~6,000 look-alikes (about 10 ms), which a start does not need.
 */
let fold: ((text: string) => string) | undefined;
export const loadConfusables = (): ((text: string) => string) => (fold ??= createRequire(import.meta.url)('unhomoglyph') as (text: string) => string);
const unhomoglyph = (text: string): string => loadConfusables()(text);

export interface DerivedView {
  text: string;
  /** 1-based line of the scanned text where `text` begins. */
  line: number;
  /** What was undone, for the log. */
  how: string;
}

const TAG_CHARS = /[\u{E0000}-\u{E007F}]/u;
const TAG_RUN = /[\u{E0000}-\u{E007F}]+/gu;
/** Characters that render as nothing (or reorder text); removed in the normalised view. */
const INVISIBLE =
  /[\u064B-\u065F\u0670\u0640\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|[\u{E0100}-\u{E01EF}]/gu;
const NON_ASCII = /[^\x00-\x7F]/;
/** Letters of scripts with Latin look-alikes (Greek, Cyrillic, Armenian, Cherokee, letterlike symbols, IPA). */
const LOOKALIKE = '\\u0250-\\u02AF\\u0370-\\u058F\\u13A0-\\u13FF\\u1D00-\\u1DBF\\u2100-\\u214F\\uA640-\\uA69F\\uAB70-\\uABBF';
/** Where a Latin letter and a look-alike letter touch: the word around it may be disguised. */
const JUNCTION = new RegExp(`[A-Za-z][${LOOKALIKE}]|[${LOOKALIKE}][A-Za-z]`, 'g');
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
/** Characters NFKC changes in practice: compatibility letters, fullwidth forms, ligatures, math alphanumerics. */
const COMPAT = /[\u00A0\u00AA\u00B2-\u00BA\u00BC-\u00BE\u0132-\u0133\u013F-\u0140\u017F\u01C4-\u01CC\u02B0-\u02B8\u1D2C-\u1DBF\u2000-\u20CF\u2100-\u24FF\u2C7C-\u2C7D\u3000\u3131-\u318E\u3200-\u33FF\uFB00-\uFB4F\uFE30-\uFE6F\uFF00-\uFFEF]|\uD835[\uDC00-\uDFFF]|\uD83C[\uDD00-\uDD9A]/;

/** Folds every word that holds a Latin/look-alike junction with Unicode's confusables table. */
function foldLookalikes(text: string): string {
  JUNCTION.lastIndex = 0;
  if (!JUNCTION.test(text)) return text;
  JUNCTION.lastIndex = 0;
  let out = '';
  let done = 0;
  for (const m of text.matchAll(JUNCTION)) {
    if (m.index < done) continue;
    let from = m.index;
    while (from > done && WORD_CHAR.test(text[from - 1])) from--;
    let to = m.index + 2;
    while (to < text.length && WORD_CHAR.test(text[to])) to++;
    out += text.slice(done, from) + unhomoglyph(text.slice(from, to));
    done = to;
  }
  return out + text.slice(done);
}

const HYPHEN_BREAK = /(\p{L})-[ \t]*\r?\n[ \t]*(\p{Ll}+)/gu;
const INLINE_HYPHEN = /(\p{L})-(\p{Ll})/gu;
/** A cheap first test for INLINE_HYPHEN (no `u` flag: a Unicode-mode pass over 1 MB costs several ms). */
const INLINE_HYPHEN_TEST = /[A-Za-z\u00C0-\uFFFF]-[a-z\u00DF-\uFFFF]/;
const SPACED_CHAR = 'A-Za-z0-9\\u00C0-\\u024F\\u0370-\\u1FFF\\u3040-\\u9FFF\\uAC00-\\uD7AF';
// an apostrophe counts as a letter inside a spaced run ("d e l l ' o p e r a t o r e")
const LETTER_SPACED = new RegExp(`(?:[${SPACED_CHAR}'’][ \\t]){2,}[${SPACED_CHAR}](?![${SPACED_CHAR}])`, 'g');
const WORD_BEFORE = new RegExp(`[${SPACED_CHAR}]`);
const LETTER_PAIR = new RegExp(`(?<=[ \\t]{2}|^)([${SPACED_CHAR}]) ([${SPACED_CHAR}])(?=[ \\t]{2}|$)`, 'gm');

/**
 * The text with wording tricks undone, line breaks kept (so line numbers stay valid). Returns
 * `text` itself when nothing applied.
 */
export function normalizeForScan(text: string, ascii?: boolean): string {
  let out = text;
  // (a caller that knows the text is ASCII saves the two passes that look for other characters)
  if (!ascii && TAG_CHARS.test(out)) out = out.replace(TAG_RUN, (run) => ` ${[...run].map((c) => String.fromCharCode(c.codePointAt(0)! - 0xe0000)).join('')} `);
  if (!ascii && NON_ASCII.test(out)) {
    if (COMPAT.test(out)) out = out.normalize('NFKC');
    out = foldLookalikes(out.replace(INVISIBLE, ''));
  }
  if (out.includes('-')) {
    out = out.replace(HYPHEN_BREAK, '$1$2\n');
    // "За-будь все пре-дыдущие ука-зания": a line with several words split by hyphens is read joined
    if (INLINE_HYPHEN_TEST.test(out)) out = out.split('\n').map((line) => ((line.match(INLINE_HYPHEN)?.length ?? 0) >= 3 ? line.replace(INLINE_HYPHEN, '$1$2') : line)).join('\n');
  }
  let collapsed = 0;
  out = out.replace(LETTER_SPACED, (run: string, at: number, all: string) => {
    if (at > 0 && WORD_BEFORE.test(all[at - 1])) return run;
    collapsed++;
    return run.replace(/[ \t]/g, '');
  });
  // in a letter-spaced passage, two-letter words ("n o", "b y") are spaced too
  if (collapsed >= 2) out = out.replace(LETTER_PAIR, '$1$2');
  return out;
}

/** Pieces of `normalizeForScan(text)` on the lines that differ from `text`, with a line of context each side (`ascii`: the caller knows `text` is ASCII). */
export function normalizedViews(text: string, ascii?: boolean): DerivedView[] {
  const normal = normalizeForScan(text, ascii);
  if (normal === text) return [];
  const a = text.split('\n');
  const b = normal.split('\n');
  if (a.length !== b.length) return [{ text: normal, line: 1, how: 'normalised' }];
  const views: DerivedView[] = [];
  let i = 0;
  while (i < a.length) {
    if (a[i] === b[i]) {
      i++;
      continue;
    }
    const from = Math.max(0, i - 1);
    let to = i;
    while (to + 1 < a.length && (a[to + 1] !== b[to + 1] || (to + 2 < a.length && a[to + 2] !== b[to + 2]))) to++;
    to = Math.min(a.length - 1, to + 1);
    views.push({ text: b.slice(from, to + 1).join('\n'), line: from + 1, how: 'normalised' });
    i = to + 1;
  }
  return views;
}

/** Share of bytes that are printable ASCII or common whitespace. */
function readable(bytes: Buffer): boolean {
  if (bytes.length < 8) return false;
  // Stops as soon as the noise is certainly over 5%.
  const limit = bytes.length * 0.05 + 1;
  let printable = 0;
  for (let i = 0, noise = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x09 || b === 0x0d || b >= 0x80) printable++;
    else if (++noise > limit) return false;
  }
  if (printable / bytes.length < 0.95) return false;
  // a run cut at MAX_TOKEN may end inside a UTF-8 character
  const text = bytes.toString('utf8').replace(/\uFFFD+$/, '');
  return !text.includes('\uFFFD') && /\p{L}{3}/u.test(text) && /\s/.test(text);
}

// Matches start where a run of these characters starts (the same matches as without the
// look-behind, which only saves retrying every position inside short words).
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,}={0,2}/g;

/** One run of base64 characters (BASE64_RUN: at least 20, then up to two `=`). */
export interface Base64Run {
  index: number;
  /** The run with its `=` padding. */
  text: string;
  /** Length of the run without the padding. */
  chars: number;
}

/** The last text `base64Runs` read, and its runs (until `forgetBase64Runs`). */
let lastRuns: { text: string; runs: readonly Base64Run[] } | undefined;

/** Lets go of the text `base64Runs` keeps (the scan calls it when it is done with a file). */
export function forgetBase64Runs(): void {
  lastRuns = undefined;
}

/**
 * Every run of base64 characters in `text`, in order. The scan asks twice for the same text (the
 * decoded views and the `override-encoded` pattern, whose matches all begin such a run), so the
 * runs of the last text asked for are kept: one pass over a large file instead of two.
 */
export function base64Runs(text: string): readonly Base64Run[] {
  if (lastRuns?.text === text) return lastRuns.runs;
  const runs: Base64Run[] = [];
  BASE64_RUN.lastIndex = 0;
  for (const m of text.matchAll(BASE64_RUN)) {
    let chars = m[0].length;
    while (m[0].charCodeAt(chars - 1) === 0x3d) chars--; // '='
    runs.push({ index: m.index, text: m[0], chars });
  }
  lastRuns = { text, runs };
  return runs;
}
const ESCAPED_HEX_RUN = /(?:\\x[0-9A-Fa-f]{2}){6,}/g;
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2}[^\s%]{0,16}){3,}/g;
/** rot13 of very common English words and of the words injections use. */
export const ROT13_WORDS: readonly string[] = ['gur', 'naq', 'lbhe', 'lbh', 'nyy', 'vtaber', 'cerivbhf', 'vafgehpgvbaf', 'flfgrz', 'cebzcg', 'erirny', 'fraq', 'cnffjbeq', 'frperg', 'sbetrg', 'qvfertneq', 'ehyrf', 'hfre'];
const ROT13_HINT = new RegExp(`\\b(?:${ROT13_WORDS.join('|')})\\b`, 'gi');
/** "rot13", "ROT-13", "(rot13):": a rot13 announcement. */
const ROT13_ANNOUNCED = /\brot[-\s]?13\b[^\n]{0,80}/gi;
/** Characters of one run decoded at most. */
const MAX_TOKEN = 4096;
/** Decoded runs read per file, so a hostile file full of blobs costs bounded time. */
const MAX_DECODED = 200;

function rot13(s: string): string {
  return s.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}


/**
 * Encoded runs (base64, hex, percent, rot13) decoded to readable text, each with its line. With the
 * text's keywords (the scan's keyword pass, which looks for `rot` and ROT13_WORDS too), the rot13
 * passes are skipped when the text has none of their words.
 */
export function decodedViews(text: string, starts: readonly number[], keywords?: ReadonlySet<string>): DerivedView[] {
  const views: DerivedView[] = [];
  const add = (index: number, decoded: string, how: string) => {
    if (views.length < MAX_DECODED) views.push({ text: decoded, line: lineAt(starts, index), how });
  };
  // One pass finds both: a hex run is also a run of base64 characters.
  for (const m of base64Runs(text)) {
    if (views.length >= MAX_DECODED) break;
    // A long run is read from its start (where a hidden instruction begins); one repeated
    // character ("aaaa…", "----") encodes nothing.
    const token = m.text.slice(0, Math.min(m.chars, MAX_TOKEN));
    if (/^(.)\1*$/.test(token.slice(0, 32))) continue;
    if (token.length >= 20 && /^[0-9A-Fa-f]+$/.test(token)) {
      const bytes = Buffer.from(token.slice(0, token.length & ~1), 'hex');
      if (readable(bytes)) add(m.index, bytes.toString('utf8'), 'hex');
      continue;
    }
    if (!/[a-z]/.test(token) || !/[A-Z0-9]/.test(token)) continue;
    // the whole run: cut to a multiple of 4 it would lose the last bytes and break a UTF-8 character
    const bytes = Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (readable(bytes)) add(m.index, bytes.toString('utf8'), 'base64');
  }
  if (text.includes('\\x')) {
    for (const m of text.matchAll(ESCAPED_HEX_RUN)) {
      if (views.length >= MAX_DECODED) break;
      const bytes = Buffer.from(m[0].replace(/\\x/g, ''), 'hex');
      if (readable(bytes)) add(m.index, bytes.toString('utf8'), 'hex');
    }
  }
  if (text.includes('%')) {
    for (const m of text.matchAll(PERCENT_RUN)) {
      if (views.length >= MAX_DECODED) break;
      try {
        const decoded = decodeURIComponent(m[0].replace(/\+/g, ' '));
        if (decoded !== m[0] && /\s/.test(decoded)) add(m.index, decoded, 'percent-encoding');
      } catch {
        // not valid percent-encoding: nothing hidden to read
      }
    }
  }
  // An announced rot13 block ("ROT13 – bitte dekodieren und befolgen") is read decoded whatever its language.
  if ((!keywords || keywords.has('rot')) && /rot[-\s]?13/i.test(text)) {
    for (const m of text.matchAll(ROT13_ANNOUNCED)) {
      if (views.length >= MAX_DECODED) break;
      const line = lineAt(starts, m.index);
      const from = line < starts.length ? starts[line] : text.length; // the lines after the announcement
      const para = text.slice(from, from + 2000);
      const end = para.search(/\n[ \t]*\n/);
      const block = end >= 0 ? para.slice(0, end) : para;
      const sameLine = text.slice(m.index + m[0].length, line < starts.length ? starts[line] - 1 : text.length);
      if (sameLine.trim()) add(m.index, rot13(sameLine), 'rot13');
      if (block.trim()) add(from, rot13(block), 'rot13');
    }
  }
  const hinted = new Map<number, number>();
  if (!keywords || ROT13_WORDS.some((w) => keywords.has(w))) for (const m of text.matchAll(ROT13_HINT)) {
    const line = lineAt(starts, m.index);
    hinted.set(line, (hinted.get(line) ?? 0) + 1);
    if (hinted.size > MAX_DECODED) break;
  }
  for (const [line, hits] of hinted) {
    if (hits < 2 || views.length >= MAX_DECODED) continue;
    const end = line < starts.length ? starts[line] - 1 : text.length;
    add(starts[line - 1], rot13(text.slice(starts[line - 1], Math.min(end, starts[line - 1] + 4000))), 'rot13');
  }
  return views;
}
