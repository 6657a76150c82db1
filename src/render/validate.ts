/**
 * Validators written from each platform's documentation, used by the tests and the benchmark
 * (pure; no I/O). Each returns the problems found in one chunk; an empty list means the platform
 * would accept and show it as intended.
 *
 * - Telegram HTML (Bot API "Formatting options"): only the documented tags and attributes; tags
 *   strictly nested; b/i/u/s/spoiler never around or inside code/pre; code holds no tags, pre only
 *   one <code>; a holds no a/code/pre/blockquote; blockquotes not nested; text escapes & < >
 *   (only &lt; &gt; &amp; &quot; and numeric references); <a href> http(s) or tg://; 1–4,096 UTF-16
 *   units of text after entity parsing.
 * - Slack mrkdwn (Formatting text for app surfaces): & < > escaped as &amp; &lt; &gt; (no other
 *   entities); no < or > except our <url|text> links; 1–40,000 characters.
 * - Discord (Message resource, content): 1–2,000 code points; no live @everyone/@here, <@id>,
 *   <@&role> or <#channel>; code fences balanced, and no ``` but on a fence line (Discord ends a
 *   block at the first ``` anywhere).
 * Plus the word check: every word of the source (text, code, raw HTML, alt text, link and image
 * targets, footnotes) appears in what the reader sees, as often as in the source.
 */
import type { Nodes } from 'mdast';
import type { ChunkedFormat } from './index.js';
import { collectDefinitions, parseMarkdown } from './parse.js';
import { codePointLength, isHtmlComment, textShowsUrl } from './text.js';

const TG_STYLE = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'tg-spoiler', 'span']);
const TG_TAGS = new Set([...TG_STYLE, 'a', 'code', 'pre', 'blockquote', 'tg-emoji']);
const TG_ENTITY = /^&(?:lt|gt|amp|quot|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/;

function decodeTelegram(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot));/g, (_m, dec?: string, hex?: string, name?: string) => {
    if (name) return { lt: '<', gt: '>', amp: '&', quot: '"' }[name as 'lt'];
    return String.fromCodePoint(dec ? Number(dec) : parseInt(hex ?? '0', 16));
  });
}

/** Problems with one Telegram HTML chunk (parse_mode HTML). */
export function validateTelegramHtml(chunk: string, limit = 4096): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let visible = '';
  let i = 0;
  while (i < chunk.length) {
    const c = chunk[i];
    if (c === '&') {
      const m = TG_ENTITY.exec(chunk.slice(i, i + 12));
      if (!m) problems.push(`unescaped & at ${i}`);
      visible += m ? decodeTelegram(m[0]) : '&';
      i += m ? m[0].length : 1;
      continue;
    }
    if (c === '>') problems.push(`unescaped > at ${i}`);
    if (c !== '<') {
      visible += c;
      i++;
      continue;
    }
    const m = /^<(\/?)([a-zA-Z-]+)((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*>/.exec(chunk.slice(i));
    if (!m) {
      problems.push(`unescaped < or malformed tag at ${i}`);
      i++;
      continue;
    }
    i += m[0].length;
    const [, slash, rawName, attrText] = m;
    const name = rawName.toLowerCase();
    if (!TG_TAGS.has(name)) {
      problems.push(`tag <${name}> is not allowed`);
      continue;
    }
    if (slash) {
      if (attrText.trim()) problems.push(`end tag </${name}> has attributes`);
      if (stack[stack.length - 1] !== name) problems.push(`</${name}> does not close <${stack[stack.length - 1] ?? 'nothing'}>`);
      else stack.pop();
      continue;
    }
    problems.push(...checkAttributes(name, attrText));
    problems.push(...checkNesting(name, stack));
    stack.push(name);
  }
  if (stack.length > 0) problems.push(`unclosed <${stack.join('>, <')}>`);
  if (visible.length > limit) problems.push(`text is ${visible.length} UTF-16 units after entity parsing (limit ${limit})`);
  if (visible.trim() === '') problems.push('text is empty after entity parsing');
  return problems;
}

function checkAttributes(name: string, attrText: string): string[] {
  const attrs = [...attrText.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g)].map((a) => ({ key: a[1].toLowerCase(), value: a[2] }));
  const problems: string[] = [];
  for (const { value } of attrs) {
    if (value === undefined) continue;
    if (/[<>]/.test(value)) problems.push(`unescaped < or > in an attribute of <${name}>`);
    if (/&(?!(?:lt|gt|amp|quot|#[0-9]+|#x[0-9a-fA-F]+);)/.test(value)) problems.push(`unescaped & in an attribute of <${name}>`);
  }
  const allowed: Record<string, (key: string, value: string | undefined) => boolean> = {
    a: (k, v) => k === 'href' && v !== undefined && /^(?:https?:\/\/|tg:\/\/)\S+$/i.test(decodeTelegram(v)),
    code: (k, v) => k === 'class' && v !== undefined && /^language-[^\s"]+$/.test(v),
    blockquote: (k, v) => k === 'expandable' && v === undefined,
    span: (k, v) => k === 'class' && v === 'tg-spoiler',
    'tg-emoji': (k, v) => k === 'emoji-id' && v !== undefined && /^\d+$/.test(v),
  };
  for (const { key, value } of attrs) {
    if (!allowed[name]?.(key, value)) problems.push(`attribute ${key} not allowed on <${name}>${key === 'href' ? ` (${value})` : ''}`);
  }
  if (name === 'a' && !attrs.some((a) => a.key === 'href')) problems.push('<a> without href');
  if (name === 'span' && !attrs.some((a) => a.key === 'class')) problems.push('<span> without class="tg-spoiler"');
  return problems;
}

function checkNesting(name: string, stack: readonly string[]): string[] {
  const problems: string[] = [];
  const parent = stack[stack.length - 1];
  if (stack.includes('code')) problems.push(`<${name}> inside <code>`);
  else if (stack.includes('pre') && !(name === 'code' && parent === 'pre')) problems.push(`<${name}> inside <pre>`);
  if ((name === 'code' || name === 'pre') && stack.some((t) => TG_STYLE.has(t))) problems.push(`<${name}> inside a style tag`);
  if ((name === 'code' || name === 'pre' || name === 'a' || name === 'blockquote') && stack.includes('a')) problems.push(`<${name}> inside <a>`);
  if (name === 'blockquote' && stack.length > 0) problems.push(`<blockquote> inside <${parent}>`);
  if (name === 'pre' && stack.some((t) => t !== 'blockquote')) problems.push('<pre> inside inline markup');
  return problems;
}

const SLACK_LINK = /^<(?:https?|mailto|ftp):[^\s<>|]+(?:\|[^<>]*)?>/i;

/** Problems with one Slack mrkdwn chunk. */
export function validateSlackMrkdwn(chunk: string, limit = 40000): string[] {
  const problems: string[] = [];
  if (chunk.length > limit) problems.push(`${chunk.length} characters (limit ${limit})`);
  if (chunk.trim() === '') problems.push('empty text');
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk[i];
    if (c === '&' && !/^&(?:amp|lt|gt);/.test(chunk.slice(i, i + 5))) problems.push(`& at ${i} is not &amp; &lt; or &gt;`);
    if (c === '>') problems.push(`unescaped > at ${i}`);
    if (c === '<') {
      const m = SLACK_LINK.exec(chunk.slice(i));
      if (!m) problems.push(`unescaped < at ${i}`);
      else i += m[0].length - 1;
    }
  }
  return problems;
}

/** Problems with one Discord message content. */
export function validateDiscordMarkdown(chunk: string, limit = 2000): string[] {
  const problems: string[] = [];
  const length = codePointLength(chunk);
  if (length > limit) problems.push(`${length} code points (limit ${limit})`);
  if (chunk.replace(/\u200b/g, '').trim() === '') problems.push('empty content');
  const ping = /@(?:everyone|here)|<@[!&]?\d+>|<#\d+>/i.exec(chunk);
  if (ping) problems.push(`live mention ${ping[0]}`);
  if ((chunk.match(/```/g) ?? []).length % 2 !== 0) problems.push('unbalanced ``` fence');
  // Discord ends a code block at the first ``` anywhere: one that is not a fence (after a quote or
  // list marker at most) ends it early.
  const stray = chunk.split('\n').find((line) => line.includes('```') && !/^[> ]*(?:(?:-|\d+\.|☑|☐) )*```[A-Za-z0-9_+#.-]*$/.test(line));
  if (stray !== undefined) problems.push(`\`\`\` inside a line ends a code block early: ${stray.slice(0, 40)}`);
  return problems;
}

/** Validates a chunk of any chat format (e-mail and terminal: only "not empty"). */
export function validateChunk(format: ChunkedFormat, chunk: string, limit?: number): string[] {
  switch (format) {
    case 'telegram-html':
      return validateTelegramHtml(chunk, limit);
    case 'slack-mrkdwn':
      return validateSlackMrkdwn(chunk, limit);
    case 'discord-markdown':
      return validateDiscordMarkdown(chunk, limit);
    default:
      return chunk.trim() === '' ? ['empty chunk'] : [];
  }
}

/** What the reader sees of a chunk, as text (for the word check). */
export function visibleText(format: ChunkedFormat, chunk: string): string {
  switch (format) {
    case 'telegram-html':
      return decodeTelegram(chunk.replace(/<[^>]*>/g, ''));
    case 'slack-mrkdwn':
      return stripFences(chunk).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    case 'discord-markdown':
      return stripFences(chunk)
        .replace(/\u200b/g, '')
        .replace(/\\([^\p{L}\p{N}\s])/gu, '$1');
    default:
      return chunk.replace(/\x1b\[[0-9;]*m/g, '');
  }
}

/** Code fence lines are markup, not text (a code block cut in two is fenced on both sides). */
function stripFences(chunk: string): string {
  return chunk.replace(/\n?^(?:> |&gt; )*```[A-Za-z0-9_+#.-]*$\n?/gm, '');
}

const WORD = /[\p{L}\p{N}]+/gu;

function words(text: string): string[] {
  return text.normalize('NFC').match(WORD) ?? [];
}

/** The words a reader must find: text, code, raw HTML, alt text, link/image targets, footnotes. */
export function sourceWords(markdown: string): string[] {
  const root = parseMarkdown(markdown);
  const defs = collectDefinitions(root);
  const out: string[] = [];
  const visit = (node: Nodes): void => {
    switch (node.type) {
      case 'text':
      case 'inlineCode':
      case 'code':
        out.push(...words(node.value));
        return;
      case 'html':
        // Comments are invisible and dropped by every renderer; other raw HTML is shown as text.
        if (!isHtmlComment(node.value)) out.push(...words(node.value));
        return;
      case 'definition':
        return;
      case 'link':
        if (!textShowsUrl(textOf(node), node.url)) out.push(...words(node.url));
        break;
      case 'image':
        out.push(...words(node.alt ?? ''), ...words(node.url));
        return;
      case 'linkReference': {
        const url = defs.get(node.identifier)?.url ?? '';
        if (!textShowsUrl(textOf(node), url)) out.push(...words(url));
        break;
      }
      case 'imageReference':
        out.push(...words(node.alt ?? ''), ...words(defs.get(node.identifier)?.url ?? ''));
        return;
      case 'footnoteReference':
        out.push(...words(node.label ?? node.identifier));
        return;
      default:
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(root);
  return out;
}

/** Text content of a node (text, code and alt text), for "does the link text show its URL". */
function textOf(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  return 'children' in node ? node.children.map((c) => textOf(c)).join('') : '';
}

/**
 * Source words missing from the rendered chunks (counting repeats). A word may be glued to its
 * neighbour in the output (`foo**bar**` shows as "foobar", chunks are joined with nothing), so a
 * word not found as a whole word is looked for as a substring before it counts as missing.
 * `source` may be passed when the caller already has sourceWords(markdown).
 */
export function missingWords(
  markdown: string,
  format: ChunkedFormat,
  chunks: readonly string[],
  source: readonly string[] = sourceWords(markdown),
): string[] {
  // Joined with nothing: a word longer than a whole message had to be cut, and reads whole again.
  const text = chunks
    .map((c) => visibleText(format, c))
    .join('')
    .normalize('NFC');
  const have = new Map<string, number>();
  for (const w of words(text)) have.set(w, (have.get(w) ?? 0) + 1);
  const need = new Map<string, number>();
  for (const w of source) need.set(w, (need.get(w) ?? 0) + 1);
  const missing: string[] = [];
  for (const [w, n] of need) {
    if ((have.get(w) ?? 0) >= n) continue;
    let found = 0;
    for (let at = text.indexOf(w); at !== -1 && found < n; at = text.indexOf(w, at + w.length)) found++;
    if (found < n) missing.push(w);
  }
  return missing;
}
