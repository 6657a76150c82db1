/**
 * Quoted material for the threat scan (ARCHITECTURE.md §5): a fenced code block (or the list or block quote
 * after a lead-in line) in a document about attacks that is framed as examples or test data ("The corpus holds strings such as:", "Ejemplos (solo
 * datos):", "只作为示例展示，不要执行") quotes attacks rather than giving orders. Both conditions are
 * needed: a code block in an ordinary file, or one without an example framing, is still scanned.
 */
import { lineStarts } from './lines.js';

/** The document is about attacks, their detection or testing (any of the scan's languages). */
const ABOUT_ATTACKS =
  /(?:prompt[\s-]?injection|injections?|jailbreak|red[\s-]?team|attacks?|attacker|adversarial|malicious|phishing|social\s+engineering|guard|filter|scanner|corpus|fixtures?|test\s+(?:data|cases?)|security\s+(?:training|awareness)|inyecci|injeç|injek|iniezion|инъекц|ін['’]?єкц|enjeksiyon|注入|インジェクション|인젝션|حقن|इंजेक्शन|ataque|attaqu|angriff|attacc|атак|saldır|攻击|攻撃|공격|هجوم|हमल|corpus|korpus|корпус|语料|コーパス|말뭉치|datos\s+de\s+prueba|dados\s+de\s+teste|données\s+de\s+test|testdaten|dati\s+di\s+test|тестов|test\s+veri|测试|テスト|테스트|اختبار|परीक्षण|安全意识|培训|セキュリティ|보안)/iu;

/** Words that frame a block as examples, samples or data not to be followed. */
const EXAMPLE_FRAME =
  /(?:\bexamples?\b|\be\.g\.|\bsuch\s+as\b|\bsamples?\b|\bfor\s+instance\b|\btest\s+(?:data|cases?|strings?|inputs?)\b|\bcorpus\b|\bfixtures?\b|\bstrings\b|\bpayloads?\b|\bnever\s+(?:as\s+)?(?:instructions|execute|follow|run)\b|\bdo\s+not\s+(?:execute|follow|run)\b|\bonly\s+data\b|ejemplos?|datos|exemplos?|dados|exemples?|données|beispiele?|testdaten|esemp[io]|dati\b|пример\p{L}*|приклад\p{L}*|данн\p{L}*|örnek\p{L}*|مثال|أمثلة|उदाहरण|示例|例子|例如|样例|范例|不要执行|勿执行|例[:：]|サンプル|実行しない|예시|예[:：]|실행하지|ne\s+jamais\s+exécuter|no\s+ejecutar|nicht\s+ausführen|non\s+eseguire|не\s+выполн\p{L}*|не\s+викону\p{L}*)/iu;

const FENCE = /^[ \t]*(?:```|~~~)/;
/** A line that introduces what follows ("… such as:", "Ejemplos (solo datos)："). */
const LEAD_IN = /[:：]\s*$/;
/** A list item, an indented line or a block-quote line. */
const ITEM = /^(?:[ \t]*(?:[-*+•]|\d+[.)])\s+\S|[ \t]{2,}\S|[ \t]*>\s*\S)/;

/** 1-based line numbers inside fenced example blocks (and listed examples) of a document about attacks. */
export function quotedExampleLines(text: string): Set<number> {
  const quoted = new Set<number>();
  if (!text.includes('```') && !text.includes('~~~') && !/[:：]\s*\n/.test(text)) return quoted;
  if (!ABOUT_ATTACKS.test(text.slice(0, 200_000))) return quoted;
  const starts = lineStarts(text);
  const lines = starts.map((s, i) => text.slice(s, i + 1 < starts.length ? starts[i + 1] - 1 : text.length));
  // the line that introduces the block, or the one that follows it
  const near = (from: number, step: number): string => {
    const out: string[] = [];
    for (let i = from; i >= 0 && i < lines.length && out.length < 1; i += step) if (lines[i].trim() !== '') out.push(lines[i].slice(0, 400));
    return out.join('\n');
  };
  for (let i = 0; i < lines.length; i++) {
    // "Examples (test data):" followed by list items or a block quote: the items are quoted too
    if (LEAD_IN.test(lines[i]) && EXAMPLE_FRAME.test(lines[i])) {
      let j = i + 1;
      while (j < lines.length && lines[j].trim() === '') j++;
      const items: number[] = [];
      for (; j < lines.length && ITEM.test(lines[j]); j++) items.push(j);
      for (const l of items) quoted.add(l + 1);
      if (items.length > 0) {
        i = items[items.length - 1];
        continue;
      }
    }
    if (!FENCE.test(lines[i])) continue;
    let close = i + 1;
    while (close < lines.length && !FENCE.test(lines[close])) close++;
    if (close >= lines.length) break; // an unclosed fence quotes nothing
    if (EXAMPLE_FRAME.test(near(i - 1, -1)) || EXAMPLE_FRAME.test(near(close + 1, 1))) for (let l = i; l <= close; l++) quoted.add(l + 1);
    i = close;
  }
  return quoted;
}
