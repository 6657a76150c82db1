/**
 * Folding (ARCHITECTURE.md §5 "Threat scan"): a copy of a text with common obfuscations undone character for
 * character — fullwidth letters, Cyrillic/Greek look-alikes and leet digits inside Latin words,
 * Markdown emphasis at word edges — so the patterns read "1gn0r3 *all* previous" as written plainly.
 */
import { EMPHASIS_MARKERS, LETTER_DIGIT, NON_ASCII_KEY } from './keywords.js';

/** Cyrillic and Greek letters that look like Latin ones (one UTF-16 unit each). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ӏ: 'l', ԛ: 'q', ԝ: 'w',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S', У: 'Y',
  ο: 'o', α: 'a', ι: 'i', κ: 'k', ν: 'v', ρ: 'p', τ: 't', υ: 'u', ε: 'e',
  Ο: 'O', Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't' };
/** Leetspeak only uses these digits; a word with a 2, 6, 8 or 9 is an id, a version or a hash. */
const LEET_WORD = /^(?=.*[A-Za-z\u00C0-\u024F\u0400-\u04FF].*[A-Za-z\u00C0-\u024F\u0400-\u04FF])(?=.*[013457])[^2689]{3,}$/;
const LATIN = /[A-Za-z]/;
/** A short word of one letter and leet digits ("n40", "4s", "s3"), folded only in a text already written in leetspeak. */
const LEET_SHORT = /^(?=.*[A-Za-z])(?=.*[013457])[A-Za-z013457]{2,4}$/;
/** "4th", "10px", "64kb", "3am": a number with a unit or ordinal, not leetspeak. */
const NUMBER_WITH_UNIT = /^\d+(?:st|nd|rd|th|px|pt|em|rem|vh|vw|k|m|g|kb|mb|gb|tb|ms|s|h|d|w|x|am|pm|v|b|fps|hz|khz|mhz|ghz|p|i)$/i;
const HOMOGLYPH_CHARS = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`);
/**
 * A word in which Latin letters, digits (or @ $) and Greek/Cyrillic letters meet. Only these can
 * need folding; finding them with one ASCII-range regex keeps folding a 1 MB file cheap.
 */
const MIXED_WORD =
  /(?<![A-Za-z0-9\u00C0-\u024F\u0370-\u04FF])[A-Za-z0-9\u00C0-\u024F\u0370-\u04FF]*?(?:[A-Za-z\u00C0-\u024F][0-9\u0370-\u04FF]|[0-9\u0370-\u04FF][A-Za-z\u00C0-\u024F]|[0-9][\u0370-\u04FF]|[\u0370-\u04FF][0-9])[A-Za-z0-9\u00C0-\u024F\u0370-\u04FF]*/g;

/** The junction every MIXED_WORD match holds: when the text has none, folding words is skipped. */
const JUNCTION_CHARS = /[A-Za-z\u00C0-\u024F][0-9\u0370-\u04FF]|[0-9\u0370-\u04FF][A-Za-z\u00C0-\u024F]|[0-9][\u0370-\u04FF]|[\u0370-\u04FF][0-9]/;
/** The markers the emphasis step replaces: without any, that pass is skipped. */
const EMPHASIS_CHARS = /[*_]|~~/;

/**
 * A copy of `text` with common obfuscations undone, character for character (same length, so
 * match offsets and line numbers stay valid): fullwidth letters and digits → ASCII; in words that mix
 * Latin letters with Cyrillic/Greek look-alikes or leet digits, those → Latin ("Ignоre", "1gn0r3");
 * Markdown emphasis markers at word edges → spaces ("ignore *all* previous"). Whole-script
 * Russian or Greek words and plain numbers are left alone.
 */
export function foldForScan(text: string, keywords?: ReadonlySet<string>): string {
  // With the text's keywords (`keywordsIn([text])`), a pass that can change nothing is skipped: an
  // ASCII text has no fullwidth letters and no Greek or Cyrillic ones, so only a Latin letter next
  // to a digit is a junction there; and the emphasis markers are keywords.
  const ascii = keywords !== undefined && !keywords.has(NON_ASCII_KEY);
  // fullwidth letters and digits only: fullwidth punctuation is ordinary CJK typography
  let out = ascii ? text : text.replace(/[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  if (ascii ? LETTER_DIGIT.some((k) => keywords.has(k)) : JUNCTION_CHARS.test(out)) {
    let leetWords = 0;
    const fold = (loose: boolean) => (word: string) => {
      const hasLatin = LATIN.test(word);
      const mixedScript = hasLatin && HOMOGLYPH_CHARS.test(word);
      const leet = (LEET_WORD.test(word) || (loose && LEET_SHORT.test(word))) && !NUMBER_WITH_UNIT.test(word);
      if (!mixedScript && !leet) return word;
      if (leet) leetWords++;
      let folded = '';
      for (const c of word) folded += (mixedScript && HOMOGLYPHS[c]) || (leet && LEET[c]) || c;
      return folded;
    };
    out = out.replace(MIXED_WORD, fold(false));
    // a text written in leetspeak: its short words ("n40", "4s") are leet too
    if (leetWords >= 3) out = out.replace(MIXED_WORD, fold(true));
  }
  if (keywords ? !EMPHASIS_MARKERS.some((k) => keywords.has(k)) : !EMPHASIS_CHARS.test(out)) return out;
  return out.replace(/(?<=^|[\s(>])(?:\*{1,3}|_{1,3}|~~)(?=[A-Za-z])|(?<=[A-Za-z])(?:\*{1,3}|_{1,3}|~~)(?=$|[\s.,;:!?)])/gm, (m) => ' '.repeat(m.length));
}
