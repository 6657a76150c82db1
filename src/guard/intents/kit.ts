/**
 * The pattern kit of the intent tables (src/guard/intents/<lang>.ts): the sentence-bounded gaps
 * (`P` for scripts with spaces, `PC` for CJK), the word edges `B`/`E` (any script: a letter or mark
 * is `[\p{L}\p{M}]`), the regex maker, and the `accept` tests the tables share.
 */
import type { ThreatCategory } from '../patterns.js';
import { CJK_SENTENCE_CHAR, SENTENCE_CHAR, U_WORD_END, U_WORD_START, unicodeRegex } from '../pattern-kit.js';

export interface IntentPattern {
  id: string;
  category: ThreatCategory;
  /** BCP 47 language the wording is in (`en`, `zh`, …); `*` for script-independent shapes. */
  lang: string;
  regex: RegExp;
  /** Negated wording is exempt ("no compartas contraseñas"): checked before and after the match. */
  prose: boolean;
  accept?: (match: RegExpExecArray, text: string) => boolean;
}


// The tables' short names for the Unicode dialect of the one pattern kit (src/guard/pattern-kit.ts).
export const P = SENTENCE_CHAR;
export const PC = CJK_SENTENCE_CHAR;
export const B = U_WORD_START;
export const E = U_WORD_END;
export const re = unicodeRegex;

/** True when `index` sits inside an inline code span (an odd number of backticks before it on its line). */
export function inInlineCode(text: string, index: number): boolean {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const before = text.slice(Math.max(lineStart, index - 400), index);
  return (before.split('`').length - 1) % 2 === 1 && text.slice(index, index + 400).split('\n')[0].includes('`');
}

/** A match counts only when a qualifier ("previous", "your", "all", "system") is inside it or just after. */
export function qualified(qualifier: RegExp): (m: RegExpExecArray, text: string) => boolean {
  return (m, text) => qualifier.test(m[0]) || qualifier.test(text.slice(m.index + m[0].length, m.index + m[0].length + 40));
}


// ── shared noun lists ───────────────────────────────────────────────────────
export const EN_OBJECT = '(?:instructions?|guidelines?|guidance|directives?|directions|prompts?|programming|rules|policies|polic(?:y)|constraints|restrictions|identity|persona|safeguards|guardrails|system\\s+message)';
export const EN_QUAL = /\b(?:your|previous|prior|earlier|preceding|above|all|every|any|original|initial|system|safety|operator|developer|old|existing|current|given|configured|came\s+before|before\s+this|so\s+far|tool|identity)\b/i;


// ── secrets sent to an address, any language ────────────────────────────────
export const SECRET_NOUN = re(`${B}(?:passwords?|passphrases?|passcodes?|api[\\s_-]?keys?|keys|tokens?|secrets?|credentials|transcripts?|conversations?|chat\\s+(?:history|histories|logs?)|memory\\s+files?|contraseñas?|claves?|credenciales|secretos?|conversaci(?:ón|on|ones)|historial|transcripciones|senhas?|chaves?|credenciais|segredos?|conversas?|histórico|mots?\\s+de\\s+passe|clés|jetons?|identifiants|historique|passw(?:ö|oe)rt\\p{L}*|schlüssel\\p{L}*|zugangsdaten|geheimnisse|chatverl(?:a|ä)uf\\p{L}*|unterhaltung\\p{L}*|gespräch\\p{L}*|chiavi|chiave|credenziali|segreti|conversazion\\p{L}*|cronologia|парол\\p{L}*|ключ\\p{L}*|токен\\p{L}*|секрет\\p{L}*|переписк\\p{L}*|учётн\\p{L}*|учетн\\p{L}*|листуванн\\p{L}*|облікові|şifre\\p{L}*|parola\\p{L}*|anahtar\\p{L}*|konuşma\\p{L}*|sohbet\\p{L}*|كلمات?\\s+(?:ال)?مرور|كلمة\\s+السر|المفاتيح|مفتاح|بيانات\\s+الاعتماد|المحادث\\p{L}*|पासवर्ड|कुंजी|टोकन|क्रेडेंशियल|बातचीत)|(?:密码|密钥|令牌|凭据|凭证|私钥|聊天记录|对话记录|パスワード|トークン|秘密鍵|APIキー|認証情報|会話|履歴|비밀번호|암호|토큰|API\\s*키|자격\\s*증명|대화|채팅\\s*기록)`);
export const SEND_VERB = re(`${B}(?:send|sends|forward|forwards|upload|uploads|post|posts|e-?mail|e-?mails|mail|mails|transmit|transmits|deliver|delivers|exfiltrate|exfiltrates|leak|leaks|submit|submits)${E}|${B}(?:env[ií]\\p{L}*|mand[ae]\\p{L}*|reenv[ií]\\p{L}*|remit[ae]\\p{L}*|sub[ea]\\p{L}*|transmit\\p{L}*|encaminh\\p{L}*|repass\\p{L}*|envoi\\p{L}*|envoy\\p{L}*|transf[eè]r\\p{L}*|transmet\\p{L}*|expédi\\p{L}*|téléverse\\p{L}*|schick\\p{L}*|sende\\p{L}*|weiterleit\\p{L}*|leite\\p{L}*|übermittl\\p{L}*|maile\\p{L}*|hochlad\\p{L}*|lade\\p{L}*|invi[aie]\\p{L}*|inoltr\\p{L}*|trasmett\\p{L}*|spedisc\\p{L}*|caric\\p{L}*|отправ\\p{L}*|перешл\\p{L}*|пересыла\\p{L}*|пересл\\p{L}*|загруз\\p{L}*|выгруз\\p{L}*|скинь\\p{L}*|пришл\\p{L}*|переда\\p{L}*|надішл\\p{L}*|надсила\\p{L}*|відправ\\p{L}*|пересила\\p{L}*|завантаж\\p{L}*|gönder\\p{L}*|ilet\\p{L}*|yükle\\p{L}*|yolla\\p{L}*|aktar\\p{L}*|أرسل|ارسل|ابعث|ارفع|ترسل\\p{L}*|يرسل\\p{L}*|भेज\\p{L}*|फॉरवर्ड|अपलोड)|(?:发送|发到|转发|上传|发给|寄给|提交|送信|送っ|送る|送れ|送付|転送|アップロード|전송|보내|업로드|전달)`);
/** Negation just before a verb (English and the other languages). */
export const NEGATED_VERB = /(?:(?:^|[^\p{L}])(?:never|not|no|don't|dont|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|won't|avoid|nunca|jamás|jamais|não|nao|nie|niemals|nicht|keinesfalls|ne|n['’]|non|mai|не|никогда|ніколи|asla|لا|لن|मत|नहीं|कभी)(?:\s+\p{L}+){0,2}\s+|(?:不要|不得|切勿|禁止|严禁|绝不|请勿|不许|不准|别|決して))$/iu;
/** Negation on the verb (verb-final languages: Japanese, Korean, Turkish, Hindi). */
export const NEGATED_AFTER = /^(?:し|を)?(?:ない|ません|しない|するな|禁止)|^(?:하|을|를)?\s*(?:지\s*마|지\s*말|지\s*않|면\s*안|금지)|^(?:me|ma)(?:yin|yın|meli|malı)?(?![\p{L}])|^\s+(?:न|नहीं|मत)(?![\p{L}])/iu;

/** A negation word anywhere in a clause (for verbs that come at its end). */
export const CLAUSE_NEGATION = /(?:^|[^\p{L}])(?:never|niemals|nie|nicht|keinesfalls|jamais|nunca|jamás|mai|никогда|ніколи|asla)(?![\p{L}])|(?:不要|切勿|绝不|決して)/iu;

/** The last two sentences before `index` (within the paragraph). */
export function lastSentences(text: string, index: number): string {
  let before = text.slice(Math.max(0, index - 300), index);
  const para = before.lastIndexOf('\n\n');
  if (para >= 0) before = before.slice(para + 2);
  const ends = [...before.matchAll(/[.!?。！？](?=\s)|\n(?=\s*[-*#>]|\s*\d+[.)])/gu)];
  return ends.length >= 2 ? before.slice(ends[ends.length - 2].index! + 1) : before;
}

/** A pronoun standing for an object named earlier ("forward it to", "envíala a", "mande-as para"). */
export const OBJECT_PRONOUN = /^(?:-(?:la|las|lo|los|le|les|lhe|lhes|a|as|o|os|li|gli)(?![\p{L}])|\s+(?:it|them|these|those|all\s+of\s+them|la|las|lo|los|les|sie|es|ihn|их|его|её|ее|їх|його|її|onları|onu)(?![\p{L}]))/iu;
export const CLITIC_VERB = /(?:la|las|lo|los|le|les|li|gli)$/iu;

export function sendsSecretTo(m: RegExpExecArray, text: string): boolean {
  const at = m[0].startsWith('@') ? text.slice(Math.max(0, m.index - 64), m.index).search(/[\w.+-]+$/) : -1;
  const start = at >= 0 ? Math.max(0, m.index - 64) + at : m.index;
  const before = lastSentences(text, start);
  const after = text.slice(m.index + m[0].length, m.index + m[0].length + 40).split(/[.!?。！？\n]/u)[0];
  SECRET_NOUN.lastIndex = 0;
  const noun = SECRET_NOUN.exec(before);
  if (!noun) return false;
  const negated = (pre: string, post: string) => NEGATED_VERB.test(pre.slice(-24)) || NEGATED_AFTER.test(post.slice(0, 8));
  // The verb before the address: the secret named after it ("send the passwords to"), or before it
  // and picked up by a pronoun ("… a token, forward it to"); free word order outside Latin script.
  SEND_VERB.lastIndex = 0;
  for (const v of before.matchAll(SEND_VERB)) {
    const rest = before.slice(v.index + v[0].length);
    if (negated(before.slice(0, v.index), rest)) continue;
    SECRET_NOUN.lastIndex = 0;
    if (SECRET_NOUN.test(rest)) return true;
    if (v.index > noun.index && (OBJECT_PRONOUN.test(rest) || CLITIC_VERB.test(v[0]) || v[0].charCodeAt(0) > 0x3ff)) return true;
  }
  // The verb after the address (verb-final languages: "… 토큰을 https://… 로 전송하세요"), unless
  // the sentence rules it out before the address ("Tokens niemals per E-Mail oder an https://… schicken").
  if (CLAUSE_NEGATION.test(before.split(/[.!?。！？](?=\s)|\n/u).at(-1) ?? '')) return false;
  SEND_VERB.lastIndex = 0;
  for (const v of after.matchAll(SEND_VERB)) {
    if (!negated(after.slice(0, v.index), after.slice(v.index + v[0].length))) return true;
  }
  return false;
}
