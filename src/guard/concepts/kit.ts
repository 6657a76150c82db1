/**
 * The concept signals' own regex kit (src/guard/concepts.ts and concepts/*.ts): `re` turns `[\p{L}`
 * into an explicit letter class (Latin, Greek, Cyrillic, Arabic, Devanagari) so the regexes run
 * without the `u` flag; `E` is a word end, `W(n)` up to n words in one sentence; and the objects a
 * precedence or "void" claim names.
 */
import { SCAN_WORD_END, scanLetterRegex, upToWords } from '../pattern-kit.js';

// The tables' short names for the scan-letter dialect of the one pattern kit (src/guard/pattern-kit.ts).
export const re = scanLetterRegex;
export const E = SCAN_WORD_END;
export const W = upToWords;

/** More of what a precedence claim or a "these rules are void" claim is about (signals.ts has the core list). */
export const PRECEDENCE_OBJECT_MORE = re(
  `(?:persona|(?:guidance|rules|instructions|settings|briefing|prompt|setup|guidelines|vorgaben|pautas|règles|правила)\\s+(?:that\\s+)?(?:you\\s+(?:started|were\\s+started|began|launched|came)\\s+with|mit\\s+denen\\s+du|con\\s+las\\s+que\\s+empezaste|avec\\s+lesquelles\\s+tu|с\\s+которыми\\s+ты)|(?:your\\s+)?(?:original|initial)\\s+briefing|your\\s+briefing|safety\\s+guidance|the\\s+above|(?:any|all|every)\\s+(?:other\\s+)?platform\\s+polic\\p{L}*|platform\\s+polic(?:y|ies)|safety\\s+(?:notes?|prompt|rules?|guidelines|instructions|polic\\p{L}*)|(?:guidance|instructions|settings|rules|configuration|setup)\\s+(?:that\\s+)?you\\s+(?:were\\s+given|have\\s+been\\s+given|received|got)|(?:everything|anything|whatever|what)\\s+(?:else\\s+)?(?:you\\s+(?:were|have\\s+been)\\s+told|(?:was|has\\s+been)\\s+said\\s+to\\s+you)|earlier\\s+(?:guidance|settings|setup|rules)|any\\s+other\\s+(?:setting|instruction|rule)s?|` +
    `identität|sicherheits\\p{L}*|(?:alles|allem),?\\s+was\\s+(?:dir|du)|(?:frühere|bisherige)\\p{L}*\\s+(?:anweisung|vorgabe|regel|richtlinie)\\p{L}*|vorgaben|` +
    `identité|consignes|règles\\s+de\\s+sécurité|tout\\s+ce\\s+qu['’]on\\s+t['’]a|personalidad|identidad|directrices|pautas|lo\\s+que\\s+te\\s+(?:dijeron|indicaron)|(?:reglas|normas)\\s+de\\s+seguridad|` +
    `personalidade|identidade|diretrizes|orientações|(?:regras|normas)\\s+de\\s+segurança|personalità|identità|linee\\s+guida|direttive|impostazion\\p{L}*|regole\\s+di\\s+sicurezza|` +
    `персон\\p{L}*|личност\\p{L}*|правил\\p{L}*\\s+безопасност\\p{L}*|(?:прежн|предыдущ|ранее\\s+получен)\\p{L}*\\s+(?:правил|настро|установ|инструкц|указан)\\p{L}*|то,?\\s+что\\s+тебе|налаштуван\\p{L}*|попередн\\p{L}*\\s+(?:правил|інструкц|вказів)\\p{L}*|правил\\p{L}*\\s+безпек\\p{L}*|` +
    `kişilik|güvenlik\\s+kural\\p{L}*|önceki\\s+(?:talimat|kural|ayar)\\p{L}*|yönerge\\p{L}*|شخصية|الشخصية|الإرشادات|إرشادات|قواعد\\s+الأمان|المشغّل|व्यक्तित्व|पर्सोना|सुरक्षा\\s+नियम|पिछले\\s+निर्देश|दिशानिर्देश)${E}` +
    `|(?:设定|人设|人格|运营方|运营者|安全提示|安全规则|此前收到|之前收到|之前的设定|人格設定|ペルソナ|運営者|安全面のルール|これまでの指示|以前の指示|オペレーター設定|페르소나|운영자|안전\\s*규칙|이전\\s*(?:운영\\s*)?(?:지시|설정)|기존\\s*(?:지시|설정|규칙))`,
  'i',
);

/**
 * What a "these rules are void" claim must name to count: the operator, the system prompt, *your*
 * or the *earlier* instructions — not any instructions ("Ältere Anweisungen im Wiki sind veraltet").
 */
export const VOID_OBJECT = re(
  `(?:operat\\p{L}*|opérat\\p{L}*|operador\\p{L}*|operatore|оператор\\p{L}*|operatör\\p{L}*|betreiber\\p{L}*|المشغل|المشغّل|ऑपरेटर|system\\s*-?prompt|system\\s+(?:message|instructions|rules)|systemanweisung\\p{L}*|prompt\\s+(?:del\\s+|do\\s+|di\\s+)?sist\\p{L}+|системн\\p{L}*\\s+(?:промпт|сообщ|инструкц|підказ|повідом)\\p{L}*|sistem\\s+(?:mesaj|talimat|istem)\\p{L}*|` +
    `(?:your|tes|tus|suas|tuas|le\\s+tue|твои|твої|deine)\\s+(?:\\p{L}+\\s+)?(?:instructions|rules|guidelines|consignes|règles|instrucciones|reglas|instruções|regras|istruzioni|regole|инструкции|правила|інструкції|anweisungen|regeln|vorgaben)|` +
    `(?:previous|earlier|original|initial|prior|früher\\p{L}*|bisherig\\p{L}*|vorherig\\p{L}*|ursprünglich\\p{L}*|précédent\\p{L}*|antérieur\\p{L}*|anterior\\p{L}*|precedent\\p{L}*|прежн\\p{L}*|предыдущ\\p{L}*|попередн\\p{L}*|önceki)\\s+(?:\\p{L}+\\s+)?(?:instructions|guidance|rules|guidelines|settings|configuration|config|setup|prompt|anweisung\\p{L}*|vorgabe\\p{L}*|regel\\p{L}*|consignes|règles|instrucciones|reglas|directrices|instruções|regras|diretrizes|istruzioni|regole|direttive|инструкц\\p{L}*|правил\\p{L}*|указани\\p{L}*|вказів\\p{L}*|talimat\\p{L}*|kural\\p{L}*)|` +
    `(?:guidance|instructions|diretrizes|directrices|consignes|istruzioni)\\s+(?:\\p{L}+\\s+){0,2}?(?:received|given|recebidas|recibidas|reçues|ricevute)|(?:التعليمات|الإرشادات|القواعد)\\s+السابقة|पिछले\\s+निर्देश)${E}` +
    `|(?:系统提示|运营方|之前的(?:设定|指令)|此前|システムプロンプト|運営|オペレーター|시스템\\s*프롬프트|운영자|이전\\s*지시)`,
  'i',
);

/** A claim whose wording names the outranked rules first ("X より優先", "X보다 우선", "X से ऊपर", "is superseded"). */
export const LOSER_FIRST = /^(?:(?:is|are)\s+now\s+superseded|yields?|defers?|takes?\s+a\s+back|より|に優先|を上書き|と同等|同等の|に取って代わ|보다|에\s*우선|을\s*대체|를\s*대체|덮어쓰|동등하게|से\s+ऊपर|की\s+जगह|yerine|esas|eşdeğer|ağır|(?:is|are)\s+superseded|gleich|наравне|нарівні|приравнива)/iu;

/** The file naming itself as the winner: "this file", "these notes", "diese Datei", "本文件", "هذه الملاحظات". */
export const SELF_REFERENCE = re(
  `(?:this\\s+(?:file|document|section|note|memory|persona|skill|config\\p{L}*|repo\\p{L}*|rule)|these\\s+(?:notes|rules|instructions)|diese[rsnm]?\\s+(?:Datei|Regel|Richtlinie|Abschnitt|Notiz\\p{L}*|Anweisung\\p{L}*)|ce\\s+(?:fichier|document)|cette\\s+(?:section|note|règle|consigne)|ces\\s+(?:notes|règles|consignes)|` +
    `est[ea]\\s+(?:archivo|documento|sección|nota|regla|arquivo|ficheiro|seção|secção|regra)|est[ea]s\\s+(?:notas|reglas|regras)|questo\\s+(?:file|documento)|questa\\s+(?:sezione|nota|regola)|queste\\s+note|` +
    `(?:этот|данный)\\s+файл|эти\\s+(?:заметки|правила)|цей\\s+файл|ці\\s+нотатки|bu\\s+(?:dosya|not|bölüm|kural)\\p{L}*|هذا\\s+الملف|هذه\\s+(?:الملاحظات|الشخصية|التعليمات)|(?:यह|ये)\\s+(?:फ़ाइल|फाइल|नोट्स))` +
    `|(?:本文件|本文档|此文件|这些笔记|本节|このファイル|本ファイル|このメモ|이\\s*파일|이\\s*문서|이\\s*메모)`,
  'i',
);

export const PRECEDENCE_CORE_WINDOW_BEFORE = 160;
export const PRECEDENCE_CORE_WINDOW_AFTER = 100;

/** The sentence-bounded text before and after a match. */
export function around(text: string, m: { 0: string; index: number }, before = PRECEDENCE_CORE_WINDOW_BEFORE, after = PRECEDENCE_CORE_WINDOW_AFTER): [string, string] {
  let b = text.slice(Math.max(0, m.index - before), m.index);
  const cut = Math.max(b.lastIndexOf('\n\n'), b.search(/[.!?。！？][^.!?。！？]*$/));
  if (cut >= 0) b = b.slice(cut + 1);
  const a = text.slice(m.index + m[0].length, m.index + m[0].length + after).split(/[.!?。！？](?=\s|$)|\n\n/)[0];
  return [b, a];
}
