/**
 * Which languages a text is in, so only their intent patterns run: a script of its own (Chinese,
 * Japanese, Korean, Cyrillic, Arabic, Devanagari) where that script occurs; a Latin-script language
 * where two of its common words occur (one regex pass for all of them); every language in a short text.
 */
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
 * word — so an English file never pays for the Spanish or French patterns.
 */
const LATIN_WORDS: Readonly<Record<string, string>> = {
  es: 'los las una del por para que tus sus todas todos esto nada ignora olvida instrucciones reglas contraseña contraseñas eres usuario asistente envía envíe manda digas muestra',
  pt: 'os uma dos das por para que com seu sua suas todas todos isso nada ao não você voce esqueça instruções regras senha senhas usuário assistente envie mande conte mostre sem',
  de: 'der das dem den und ist nicht nichts mit du dich dir deine deinen alle auf ein eine kein keine jetzt anweisungen regeln ignoriere vergiss benutzer nutzer schicke sende gib zeig',
  fr: 'les des une est dans avec vous tu ton tes ta pour sur cette ne rien toutes tous au aux ignorez oublie instructions consignes règles utilisateur envoie dis affiche',
  it: 'il gli della del che non sei tuo tue tutte tutti ora più ignora dimentica istruzioni regole utente assistente invia manda dire mostra senza',
  tr: 'bir ve bu bunu için ile artık tüm talimatları kuralları şifre şifreleri parola kullanıcı kullanıcıya asistan gönder unut konuşma değilsin',
};
const WORD_LANGS = new Map<string, string[]>();
for (const [lang, words] of Object.entries(LATIN_WORDS)) for (const w of words.split(' ')) WORD_LANGS.set(w, [...(WORD_LANGS.get(w) ?? []), lang]);
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
