/**
 * The one regex kit of the guard's tables. Two dialects, named for what `\p{L}` means in each:
 *
 * - Unicode mode (`unicodeRegex`, flags `giu`; the intent tables, src/guard/intents/): `\p{L}` is a
 *   letter of any script, word edges are `U_WORD_START` / `U_WORD_END` (letters and marks).
 * - Scan-letter mode (`scanLetterRegex`, flags `gi`, no `u`; the signal and concept tables): a
 *   source's `\p{L}` is rewritten to SCAN_LETTERS, the letters of the scripts the scan reads with
 *   spaces between words (Latin, Greek, Cyrillic, Arabic, Devanagari), because the `u` flag's case
 *   folding and property classes make a pass over 1 MB several times slower. CJK and Hangul are not
 *   in it: their words attach to their neighbours.
 *
 * The English table (src/guard/patterns.ts, table/) uses plain `\b` regexes and needs neither.
 */

/** Letters of the space-separated scripts, as the inside of a character class. */
export const SCAN_LETTERS = 'A-Za-z\\u00C0-\\u024F\\u0370-\\u03FF\\u0400-\\u052F\\u0600-\\u06FF\\u0900-\\u097F';

/** A scan-letter-mode regex: `[\p{L}…]` and `\p{L}` in `source` become SCAN_LETTERS. */
export const scanLetterRegex = (source: string, flags = 'gi'): RegExp =>
  new RegExp(source.replaceAll('[\\p{L}', `[${SCAN_LETTERS}`).replaceAll('\\p{L}', `[${SCAN_LETTERS}]`), flags);

/** Scan-letter mode: a word ends here (no letter, digit or underscore follows). */
export const SCAN_WORD_END = `(?![${SCAN_LETTERS}0-9_])`;

/** Scan-letter mode: one letter, digit or underscore of a space-separated script. */
export const SCAN_WORD_CHAR = new RegExp(`[${SCAN_LETTERS}0-9_]`);

/** Scan-letter mode: up to n words (letters and apostrophes) inside one sentence. */
export const upToWords = (n: number): string => `(?:[\\p{L}'’-]+[ \\t]+){0,${n}}?`;

/** Either mode: up to n characters inside one sentence (Latin or CJK sentence ends stop it). */
export const upToChars = (n: number): string => `[^.!?。！？\\n]{0,${n}}?`;

/** A Unicode-mode regex (case-blind, global, `\p{L}` is any letter). */
export const unicodeRegex = (source: string, flags = 'giu'): RegExp => new RegExp(source, flags);

/** Unicode mode: a word starts here (no letter or mark before), in any script. */
export const U_WORD_START = '(?<![\\p{L}\\p{M}])';

/** Unicode mode: a word ends here (no letter or mark after), in any script. */
export const U_WORD_END = '(?![\\p{L}\\p{M}])';

/**
 * A character inside one sentence (Latin, Cyrillic, Arabic, Devanagari): a dot followed by a letter
 * is part of an address or a file name (`leak@evil.de`, `.env`), not a sentence end.
 */
export const SENTENCE_CHAR = '(?:[^.!?\\n]|[.!?](?=[\\w/~-]))';

/** A character inside one CJK sentence. */
export const CJK_SENTENCE_CHAR = '[^。！？!?\\n]';
