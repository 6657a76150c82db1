/**
 * Which languages a text is in, so only their intent patterns run: a script of its own (Chinese,
 * Japanese, Korean, Cyrillic, Arabic, Devanagari) where that script occurs; a Latin-script language
 * where two of its common words occur (one regex pass for all of them); every language in a short text.
 */
import { readDataJson } from '../data-files.js';

/** Languages written in their own script: their patterns run where that script occurs. */
const SCRIPT_GATES: Readonly<Record<string, RegExp>> = {
  zh: /[\u4E00-\u9FFF]/,
  ja: /[\u3040-\u30FF]/,
  ko: /[\uAC00-\uD7AF]/,
  ru: /[\u0400-\u04FF]/,
  uk: /[\u0400-\u04FF]/,
  ar: /[\u0600-\u06FF]/,
  hi: /[\u0900-\u097F]/,
};

/**
 * Languages written in Latin letters: their patterns run where at least two different words of
 * theirs occur — function words and the words the intents use, none of them also an English
 * word — so an English file never pays for the Spanish or French patterns. The words are data:
 * data/language-words.json (card: data/LEXICONS.md).
 */
const LATIN_WORDS: Readonly<Record<string, readonly string[]>> = readDataJson<{ words: Record<string, string[]> }>('language-words.json').words;
const WORD_LANGS = new Map<string, string[]>();
for (const [lang, words] of Object.entries(LATIN_WORDS)) for (const w of words) WORD_LANGS.set(w, [...(WORD_LANGS.get(w) ?? []), lang]);
// Not a Unicode-mode regex with look-behind (that would cost 1 MB of English several ms): the words start with ASCII letters.
const LATIN_GATE = new RegExp(`\\b(?:${[...WORD_LANGS.keys()].sort((x, y) => y.length - x.length).join('|')})(?![A-Za-z\\u00C0-\\u024F])`, 'gi');
const LATIN_LANGS = Object.keys(LATIN_WORDS);
/** Up to this length every Latin-script language's patterns run, without the word gate. */
const SMALL_TEXT = 4096;

/** The languages whose patterns need to run on `text` (one pass for all Latin-script languages). */
export function languagesIn(text: string): Set<string> {
  const open = new Set<string>();
  for (const [lang, gate] of Object.entries(SCRIPT_GATES)) if (gate.test(text)) open.add(lang);
  // A short text (a memory entry, a skill description) is cheap to scan in every language, and may
  // hold too few words to tell which one it is.
  if (text.length <= SMALL_TEXT) {
    for (const lang of LATIN_LANGS) open.add(lang);
    return open;
  }
  const seen = new Map<string, Set<string>>();
  LATIN_GATE.lastIndex = 0;
  for (const m of text.matchAll(LATIN_GATE)) {
    const word = m[0].toLowerCase();
    for (const lang of WORD_LANGS.get(word) ?? []) {
      const words = seen.get(lang) ?? new Set<string>();
      seen.set(lang, words.add(word));
      if (words.size >= 2) open.add(lang);
    }
    if (LATIN_LANGS.every((l) => open.has(l))) break;
  }
  return open;
}
