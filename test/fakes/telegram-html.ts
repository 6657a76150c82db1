/**
 * Telegram's `parse_mode: HTML` parser as the Bot API server runs it (tdlib's parse_html), for the fake.
 *
 * What matters for a sender: the allowed tag set, strict nesting (an end tag must close the innermost
 * open tag), only `&lt; &gt; &amp; &quot;` and numeric character references are decoded (any other
 * `&name;` stays literal text, as on Telegram), and the error texts with UTF-8 byte offsets.
 * Length limits are checked by the caller on the parsed text, in UTF-16 units.
 */

export const ALLOWED_TAGS = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  's',
  'strike',
  'del',
  'u',
  'ins',
  'tg-spoiler',
  'tg-emoji',
  'span',
  'pre',
  'code',
  'blockquote',
]);

export interface ParsedEntity {
  type: string;
  /** UTF-16 offset in the parsed text. */
  offset: number;
  length: number;
  url?: string;
  language?: string;
}

export type HtmlParseResult = { ok: true; text: string; entities: ParsedEntity[] } | { ok: false; error: string };

const ENTITY_TYPE: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
  'tg-emoji': 'custom_emoji',
  a: 'text_link',
};

/** tdlib counts '\0' (our end of input) as space. */
function isSpace(c: string | undefined): boolean {
  return c === undefined || c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\v' || c === '\f';
}

function isNameTokenChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9.-]/.test(c);
}

/**
 * Decodes the character reference at `pos` (text[pos] === '&'). Returns the decoded text and the index
 * after it, or null when it is not one Telegram decodes (the '&' is then literal). The ';' is optional.
 */
function decodeEntity(text: string, pos: number): { value: string; next: number } | null {
  let end = pos + 1;
  let code = 0;
  if (text[end] === '#') {
    end++;
    if (text[end] === 'x') {
      end++;
      while (end < text.length && /[0-9a-fA-F]/.test(text[end]) && code < 0x110000) code = code * 16 + parseInt(text[end++], 16);
    } else {
      while (end < text.length && /[0-9]/.test(text[end]) && code < 0x110000) code = code * 10 + Number(text[end++]);
    }
    if (code === 0 || code >= 0x10ffff || end - pos >= 10) return null;
    if (code >= 0xd800 && code <= 0xdfff) return null;
  } else {
    while (end < text.length && /[A-Za-z]/.test(text[end])) end++;
    const name = text.slice(pos + 1, end);
    const named: Record<string, number> = { lt: 60, gt: 62, amp: 38, quot: 34 };
    if (!(name in named)) return null;
    code = named[name];
  }
  if (text[end] === ';') end++;
  return { value: String.fromCodePoint(code), next: end };
}

/** Parses Telegram HTML; errors carry the text after `Bad Request: can't parse entities: `. */
export function parseTelegramHtml(text: string): HtmlParseResult {
  const bytePrefix = (index: number) => Buffer.byteLength(text.slice(0, index), 'utf8');
  const fail = (error: string): HtmlParseResult => ({ ok: false, error });
  let out = '';
  const entities: ParsedEntity[] = [];
  const open: { tag: string; argument?: string; offset: number }[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '&') {
      const decoded = decodeEntity(text, i);
      if (decoded) {
        out += decoded.value;
        i = decoded.next;
        continue;
      }
    }
    if (c !== '<') {
      out += c;
      i++;
      continue;
    }
    const begin = i++;
    if (text[i] !== '/') {
      while (!isSpace(text[i]) && text[i] !== '>') i++;
      if (i >= text.length) return fail(`Unclosed start tag at byte offset ${bytePrefix(begin)}`);
      const tag = text.slice(begin + 1, i).toLowerCase();
      if (!ALLOWED_TAGS.has(tag)) return fail(`Unsupported start tag "${tag}" at byte offset ${bytePrefix(begin)}`);
      let argument: string | undefined;
      while (text[i] !== '>') {
        while (i < text.length && isSpace(text[i])) i++;
        if (text[i] === '>') break;
        const nameStart = i;
        while (i < text.length && !isSpace(text[i]) && !'=>/"\''.includes(text[i])) i++;
        const attr = text.slice(nameStart, i).toLowerCase();
        if (!attr) return fail(`Empty attribute name in the tag "${tag}" at byte offset ${bytePrefix(begin)}`);
        while (i < text.length && isSpace(text[i])) i++;
        if (text[i] !== '=') {
          if (i >= text.length) return fail(`Unclosed start tag "${tag}" at byte offset ${bytePrefix(begin)}`);
          if (tag === 'blockquote' && attr === 'expandable') argument = 'expandable';
          continue;
        }
        i++;
        while (i < text.length && isSpace(text[i])) i++;
        if (i >= text.length) return fail(`Unclosed start tag "${tag}" at byte offset ${bytePrefix(begin)}`);
        let value = '';
        if (text[i] !== '"' && text[i] !== "'") {
          const tokenStart = i;
          while (isNameTokenChar(text[i])) i++;
          value = text.slice(tokenStart, i).toLowerCase();
          if (!isSpace(text[i]) && text[i] !== '>') return fail(`Unexpected end of name token at byte offset ${bytePrefix(tokenStart)}`);
        } else {
          const quote = text[i++];
          while (i < text.length && text[i] !== quote) {
            if (text[i] === '&') {
              const decoded = decodeEntity(text, i);
              if (decoded) {
                value += decoded.value;
                i = decoded.next;
                continue;
              }
            }
            value += text[i++];
          }
          if (text[i] === quote) i++;
        }
        if (i >= text.length) return fail(`Unclosed start tag at byte offset ${bytePrefix(begin)}`);
        if (tag === 'a' && attr === 'href') argument = value;
        else if (tag === 'code' && attr === 'class' && value.startsWith('language-')) argument = value.slice('language-'.length);
        else if (tag === 'span' && attr === 'class' && value.startsWith('tg-')) argument = value.slice('tg-'.length);
        else if (tag === 'tg-emoji' && attr === 'emoji-id') argument = value;
        else if (tag === 'pre' && attr === 'class' && value.startsWith('language-')) argument = value.slice('language-'.length);
      }
      if (tag === 'span' && argument !== 'spoiler') {
        return fail(`Tag "span" must have class "tg-spoiler" at byte offset ${bytePrefix(begin)}`);
      }
      open.push({ tag, argument, offset: utf16Length(out) });
      i++; // past '>'
    } else {
      if (open.length === 0) return fail(`Unexpected end tag at byte offset ${bytePrefix(begin)}`);
      while (!isSpace(text[i]) && text[i] !== '>') i++;
      const endTag = text.slice(begin + 2, i).toLowerCase();
      while (i < text.length && isSpace(text[i])) i++;
      if (text[i] !== '>') return fail(`Unclosed end tag at byte offset ${bytePrefix(begin)}`);
      const top = open[open.length - 1];
      if (endTag && endTag !== top.tag) {
        return fail(`Unmatched end tag at byte offset ${bytePrefix(begin)}, expected "</${top.tag}>", found "</${endTag}>"`);
      }
      open.pop();
      const length = utf16Length(out) - top.offset;
      if (length > 0) {
        if (top.tag === 'tg-emoji' && !/^[0-9]+$/.test(top.argument ?? '')) return fail('Invalid custom emoji identifier specified');
        const entity: ParsedEntity = { type: ENTITY_TYPE[top.tag], offset: top.offset, length };
        if (top.tag === 'a') entity.url = top.argument ?? out.slice(top.offset);
        if (top.tag === 'code' && top.argument) entity.language = top.argument;
        if (top.tag === 'blockquote' && top.argument === 'expandable') entity.type = 'expandable_blockquote';
        entities.push(entity);
      }
      i++; // past '>'
    }
  }
  if (open.length > 0) return fail(`Can't find end tag corresponding to start tag "${open[open.length - 1].tag}"`);
  return { ok: true, text: out, entities };
}

/** Length as Telegram counts it (UTF-16 code units; JS strings already are). */
export function utf16Length(text: string): number {
  return text.length;
}
