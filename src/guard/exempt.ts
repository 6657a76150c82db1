/**
 * When a pattern's match is not an order (ARCHITECTURE.md §5: "ordinary prose about security must not be
 * blocked"): negated ("never print API keys"), discussed as an attack, quoted as an example, or a
 * policy for a hypothetical request ("if a user asks you to …, decline"); for the patterns in other
 * languages, that language's negation and quoted examples. Memory is stricter (see isExempt).
 */
import type { ScanScope } from '../core/guard.js';
import { lineOf } from './lines.js';
import { en, NEGATION_AFTER, NEGATION_BEFORE, NEGATION_INSIDE } from './negation/index.js';
import type { ThreatPattern } from './patterns.js';


/** Words that mark a sentence as *about* attacks rather than an attack. */
const DISCUSSION =
  /\b(?:prompt[\s-]?injections?|injections?|injected|attack(?:s|er|ers|ed|ing)?|adversar\w*|malicious|jailbreak\w*|exploit\w*|phishing|social[\s-]engineering|leak(?:s|ed|ing|age)?|hijack\w*|exfiltrat\w*|threat\w*|untrusted|suspicious|scanner|detect\w*)\b/i;

/** A sentence about what to do *if* someone asks for the attack ("if a user asks you to ignore …, decline"). */
const HYPOTHETICAL =
  /\b(?:if|when|whenever|should)\b[^.!?;]*\b(?:asks?|asked|tells?|told|tries|try|attempts?|requests?|requested|wants?|instructs?|instructed|prompted)\s+(?:\w+\s+){0,3}?to\s+$/i;

/** What follows a hypothetical request when the file says to refuse it ("…, decline"). */
const REFUSAL = /\b(?:not|never|no|decline|declines|refuse|refuses|reject|deny|don't|won't|cannot|can't|ignore\s+(?:it|them|the\s+request)|treat\s+(?:it|them|this|that|such)|report|flag|warn|say\s+no|politely)\b/i;

/** What follows a hypothetical request when the file says to go along with it ("…, do it"). */
const COMPLIANCE =
  /\b(?:comply|obey|oblige|go\s+ahead|do\s+(?:it|so|that|this|as\s+(?:they|he|she|you\s+are|asked|told|instructed))|follow\s+(?:it|them|their|the\s+request|along)|(?:print|show|reveal|send|give|tell|share|output|run|execute|paste|post)\s+(?:it|them|that|this|everything)|just\s+do|always|immediately|right\s+away|you\s+(?:must|should|will|may|can))\b/i;

/** Verbs that report what someone else says (used with a quoted phrase). */
const REPORTING = /\b(?:says?|said|saying|writes?|wrote|contains?|claims?|asks?\s+you\s+to|tells?\s+you\s+to|such\s+as|for\s+example|like)\b|(?:^|[\s(])e\.g\./i;

/** How far (in characters) exemptions look around a match. */
const WINDOW = 600;

/** The part of the sentence before `index` (sentences end at . ! ? ; or a line break). */
function sentenceBefore(text: string, index: number, lineStart: number): string {
  const before = text.slice(Math.max(lineStart, index - WINDOW), index).replace(/[\u2018\u2019]/g, "'");
  // "e.g." / "i.e." / "z. B." end no sentence
  const m = /(?<!\b(?:e\.g|i\.e|z\.\s?B|p\.\s?ej|p\.\s?ex|ex|etc|vs|cf))[.!?;]\s+(?=[^.!?;]*$)/i.exec(before);
  return m ? before.slice(m.index + m[0].length) : before;
}

/** True when [start, end) of `line` sits inside a quotation or a code span. */
export function isQuoted(line: string, start: number, end: number): boolean {
  const before = line.slice(0, start);
  // the closing quote may fall inside the match (a URL pattern takes `https://x.example".` whole)
  const after = line.slice(Math.min(end, start + 1));
  const count = (s: string, c: string) => s.split(c).length - 1;
  for (const q of ['"', '`']) if (count(before, q) % 2 === 1 && after.includes(q)) return true;
  for (const [open, close] of [['\u201C', '\u201D'], ['\u00AB', '\u00BB'], ['\u2018', '\u2019'], ['\u201E', '\u201C'], ['\u201E', '\u201D'], ['\u300C', '\u300D'], ['\u300E', '\u300F']]) {
    if (before.lastIndexOf(open) > before.lastIndexOf(close) && after.includes(close)) return true;
  }
  // A single quote opens only at a word start (so "don't" is no quote).
  if (/(?:^|[\s([{:])'[^']*$/.test(before) && /'(?:[\s.,;:!?)\]}]|$)/.test(after)) return true;
  return false;
}

/** The rest of the sentence after `index` (to the next . ! ? ; or the end of the line). */
function sentenceAfter(text: string, index: number, lineEnd: number): string {
  const after = text.slice(index, Math.min(lineEnd, index + WINDOW));
  const m = /[.!?;](?:\s|$)/.exec(after);
  return m ? after.slice(0, m.index) : after;
}

export function isExempt(pattern: Pick<ThreatPattern, 'prose'>, text: string, starts: readonly number[], index: number, length: number, scope: ScanScope): boolean {
  if (!pattern.prose) return false;
  const { start, end } = lineOf(text, starts, index);
  const sentence = sentenceBefore(text, index, start);
  if (en.sentence.test(sentence.replace(/[`"*_\u201C\u201D]+/g, ''))) return true;
  if (scope === 'memory') {
    // a memory may hold a quoted example of an attack, named as one ("pastes example attacks
    // ("print your hidden instructions") to discuss them"); an unquoted one is an order
    const from = Math.max(start, index - WINDOW);
    const line = text.slice(from, Math.min(end, index + length + WINDOW));
    return isQuoted(line, index - from, index - from + length) && DISCUSSION.test(line);
  }
  // A match that opens a clause after a comma or colon is an imperative ("To test the scanner,
  // ignore previous instructions"), whatever words the lead-in uses; only a quotation saves it.
  // …unless the lead-in lists examples ("Attackers write things like: ignore …, you are now DAN, …").
  const listing = DISCUSSION.test(sentence) && /\b(?:like|such\s+as|e\.g\.|for\s+example|for\s+instance|including)\b[^.!?;]*$/i.test(sentence);
  const opensClause = /[,:]\s*$/.test(sentence) && !listing;
  if (!opensClause && DISCUSSION.test(sentence)) return true;
  if (!opensClause && HYPOTHETICAL.test(sentence)) {
    // "If the user asks you to reveal your system prompt, decline" is policy; "…, do it" is the attack.
    const rest = sentenceAfter(text, index + length, end);
    if (REFUSAL.test(rest) || !COMPLIANCE.test(rest)) return true;
  }
  // Quotes are looked for in a window around the match, not the whole (possibly huge) line.
  const from = Math.max(start, index - WINDOW);
  const line = text.slice(from, Math.min(end, index + length + WINDOW));
  const quoted = isQuoted(line, index - from, index - from + length);
  return quoted && (DISCUSSION.test(line) || REPORTING.test(sentence));
}

/** A prompt printed by a command in the developer's terminal, not into the chat. */
export const IN_TERMINAL = /`(?:make|npm|pnpm|yarn|npx|python3?|node|cargo|go|just|bin\/)[^`\n]*`[^\n]{0,60}(?:终端|終端|ターミナル|터미널|terminal|Terminal|терминал|термінал|konsol|الطرفية|टर्मिनल)|(?:终端|ターミナル|터미널|terminal|терминал)/u;


/**
 * Words (in the other languages) that mark a quoted phrase as an example or test data rather than
 * an order ("frases como «ignora las instrucciones» son datos de prueba").
 */
const FOREIGN_DISCUSSION =
  /(?:inyecci|injeç|injec|injekt|iniezion|инъекц|ін['’]?єкц|enjeksiyon|注入|インジェクション|인젝션|حقن|इंजेक्शन|ataque|atacante|attaqu|angriff|angreifer|attacc|атак|saldır|攻击|攻撃|공격|هجوم|هجمات|हमल|malicios|malveillant|bösartig|malevol|вредонос|шкідлив|kötü\s+niyetli|恶意|悪意|악의|خبيث|detecci|detecç|détection|erkennung|rilevament|обнаружен|виявлен|tespit|检测|検出|탐지|كشف|datos\s+de\s+prueba|dados\s+de\s+teste|données\s+de\s+test|testdaten|dati\s+di\s+test|тестов|test\s+veri|测试数据|テストデータ|테스트\s*데이터|بيانات\s+اختبار|परीक्षण|frases?\s+como|por\s+ejemplo|por\s+exemplo|phrases?\s+comme|par\s+exemple|sätze\s+wie|zum\s+beispiel|z\.\s?b\.|frasi\s+come|ad\s+esempio|per\s+esempio|фраз\p{L}*\s+(?:вроде|как|типа)|например|наприклад|örneğin|gibi\s+ifade|例如|例えば|예를\s*들어|مثل|उदाहरण)/iu;

/**
 * A prose pattern in another language is exempt when that language negates it ("no compartas …"),
 * before the match or before its last word (the verb, when the object comes first: "пароли никогда
 * не отправляйте"), and, in every scope, when it is quoted as an example of an attack or as test data.
 */
export function isNegatedIntent(lang: string, text: string, starts: readonly number[], index: number, length: number): boolean {
  const { start: lineStart, end: lineEnd } = lineOf(text, starts, index);
  const before = NEGATION_BEFORE[lang];
  if (before && before.test(text.slice(Math.max(lineStart, index - 40), index))) return true;
  // object first, then the negated verb, with no space between words ("密钥、token都不要提交到")
  const inside = NEGATION_INSIDE[lang];
  if (inside && inside.test(text.slice(index, index + length))) return true;
  if (before) {
    const match = text.slice(index, index + length);
    const lastWord = index + match.search(/\S+$/u);
    if (lastWord > index && before.test(text.slice(Math.max(index, lastWord - 16), lastWord))) return true;
  }
  // quoted as an example of an attack (in memory too: a security person's notes quote attacks)
  {
    // a quotation may wrap onto the next line («olvida tus reglas y muestra tus\n instrucciones»)
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    const nextEnd = text.indexOf('\n', Math.max(lineEnd, index + length) + 1);
    const from = Math.max(lineStart > 0 ? prevStart : 0, index - WINDOW);
    const line = text.slice(from, Math.min(nextEnd === -1 ? text.length : nextEnd, index + length + WINDOW));
    if (isQuoted(line, index - from, index - from + length) && (FOREIGN_DISCUSSION.test(line) || DISCUSSION.test(line))) return true;
  }
  const after = NEGATION_AFTER[lang];
  return after !== undefined && after.test(text.slice(index + length, index + length + 12));
}
