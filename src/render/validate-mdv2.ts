/**
 * A validator for Telegram MarkdownV2 (parse_mode: MarkdownV2), written from the Bot API
 * "Formatting options" section. Switchboard sends HTML; this exists so the benchmark can judge
 * converters that write MarkdownV2 (telegramify-markdown) by the platform's rules:
 * - outside entities, _ * [ ] ( ) ~ ` > # + - = | { } . ! must be backslash-escaped
 *   (> may start a line as a blockquote); any ASCII character may be escaped (a backslash before
 *   anything else is literal);
 * - inside `code` and ```pre```, only ` and \ need escaping; inside the (...) of a link, ) and \;
 * - * _ __ ~ || [ ] are balanced and properly nested;
 * - 1–4,096 characters of text after parsing.
 * It approximates Telegram's parser; it is not byte-exact (e.g. the ___ ambiguity is not modelled).
 */

const RESERVED = new Set('_*[]()~`>#+-=|{}.!'.split(''));

/** Problems with one MarkdownV2 message (empty list: Telegram would accept it). */
export function validateTelegramMarkdownV2(text: string, limit = 4096): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let visible = 0;
  let lineStart = true;
  const toggle = (mark: string): void => {
    if (stack[stack.length - 1] === mark) stack.pop();
    else if (stack.includes(mark)) problems.push(`${mark} closes across another entity`);
    else stack.push(mark);
  };
  /** Scans to `end` (unescaped), counting text; returns the index after it or -1. */
  const scanTo = (from: number, end: string, count: boolean): number => {
    for (let j = from; j < text.length; j++) {
      if (text[j] === '\\') {
        j++;
        if (count) visible++;
        continue;
      }
      if (text.startsWith(end, j)) return j + end.length;
      if (count) visible++;
    }
    return -1;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const atLineStart = lineStart;
    lineStart = c === '\n';
    if (c === '\\') {
      const code = text.charCodeAt(i + 1);
      // Only ASCII 1–126 can be escaped; before anything else the backslash is a plain character.
      visible++;
      i += code >= 1 && code <= 126 ? 2 : 1;
      continue;
    }
    if (atLineStart && (c === '>' || text.startsWith('**>', i))) {
      i += c === '>' ? 1 : 3;
      continue;
    }
    if (c === '`') {
      const fence = text.startsWith('```', i) ? '```' : '`';
      const next = scanTo(i + fence.length, fence, true);
      if (next < 0) {
        problems.push(`unclosed ${fence} at ${i}`);
        break;
      }
      i = next;
      continue;
    }
    if (c === '*' || c === '~') {
      toggle(c);
      i++;
      continue;
    }
    if (c === '_') {
      const mark = text[i + 1] === '_' ? '__' : '_';
      toggle(mark);
      i += mark.length;
      continue;
    }
    if (c === '|' && text[i + 1] === '|') {
      toggle('||');
      i += 2;
      continue;
    }
    if (c === '[') {
      stack.push('[');
      i++;
      continue;
    }
    if (c === ']' && stack[stack.length - 1] === '[' && text[i + 1] === '(') {
      stack.pop();
      const next = scanTo(i + 2, ')', false);
      if (next < 0) {
        problems.push(`unclosed link URL at ${i}`);
        break;
      }
      i = next;
      continue;
    }
    if (RESERVED.has(c)) problems.push(`character '${c}' is reserved and must be escaped (at ${i})`);
    visible++;
    i++;
  }
  if (stack.length > 0) problems.push(`unclosed ${stack.join(' ')}`);
  if (visible > limit) problems.push(`text is ${visible} characters after parsing (limit ${limit})`);
  if (visible === 0) problems.push('text is empty');
  return problems;
}
