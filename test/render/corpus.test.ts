/**
 * Corpus: every CommonMark spec example, realistic LLM answers and stress documents, through every
 * renderer. Each chunk must pass its platform's validator (src/render/validate.ts, written from the
 * platform docs; Telegram chunks also through the fake Bot API's HTML parser), and every word of the
 * source must reach the reader.
 */
import { describe, expect, it } from 'vitest';
import { CHUNKED_FORMATS, renderChunks, type ChunkedFormat } from '../../src/render/index.js';
import { missingWords, sourceWords, validateChunk, validateDiscordMarkdown, validateSlackMrkdwn, validateTelegramHtml } from '../../src/render/validate.js';
import { parseTelegramHtml } from '../fakes/telegram-html.js';
import { commonmarkExamples, LLM_ANSWERS, stressDocs } from './corpus.js';

interface Doc {
  name: string;
  markdown: string;
}

/** Failures of one document in one format, as readable lines (empty when fine). */
function check(doc: Doc, format: ChunkedFormat, source: string[]): string[] {
  const chunks = renderChunks(doc.markdown, format);
  const out: string[] = [];
  chunks.forEach((chunk, k) => {
    for (const p of validateChunk(format, chunk)) out.push(`${doc.name} [${format}] chunk ${k}: ${p}`);
    if (format === 'telegram-html') {
      const parsed = parseTelegramHtml(chunk);
      if (!parsed.ok) out.push(`${doc.name} [${format}] chunk ${k}: Bot API would say: can't parse entities: ${parsed.error}`);
      else if (parsed.text.length > 4096) out.push(`${doc.name} [${format}] chunk ${k}: message is too long`);
    }
  });
  const missing = missingWords(doc.markdown, format, chunks, source);
  if (missing.length > 0) out.push(`${doc.name} [${format}] lost words: ${missing.slice(0, 5).map((w) => w.slice(0, 20)).join(', ')}`);
  return out;
}

function runAll(docs: Doc[]): string[] {
  const failures: string[] = [];
  for (const doc of docs) {
    const source = sourceWords(doc.markdown);
    for (const format of CHUNKED_FORMATS) failures.push(...check(doc, format, source));
  }
  return failures;
}

describe('corpus', () => {
  it('every CommonMark spec example renders valid and whole in every format', () => {
    const examples = commonmarkExamples();
    expect(examples.length).toBeGreaterThan(600);
    expect(runAll(examples.map((e) => ({ name: `spec #${e.number} (${e.section})`, markdown: e.markdown })))).toEqual([]);
  });

  it('realistic LLM answers render valid and whole', () => {
    expect(runAll(LLM_ANSWERS.map((markdown, i) => ({ name: `answer ${i}`, markdown })))).toEqual([]);
  });

  it('stress documents: long, wide, emoji and CJK near limits, hostile HTML, pings', () => {
    expect(runAll(stressDocs())).toEqual([]);
  });

  it('stress documents really are split (the limits are exercised)', () => {
    const doc = stressDocs().find((d) => d.name === 'long code block')!;
    expect(renderChunks(doc.markdown, 'telegram-html').length).toBeGreaterThan(5);
    expect(renderChunks(doc.markdown, 'discord-markdown').length).toBeGreaterThan(10);
    expect(renderChunks(doc.markdown, 'slack-mrkdwn').length).toBeGreaterThan(1);
  });
});

describe('the corpus validators refuse what the platform docs say the platform refuses', () => {
  it.each([
    ['<b>bold', 'unclosed'],
    ['<b><i>x</b></i>', 'does not close'],
    ['<div>x</div>', 'not allowed'],
    ['a < b', 'unescaped <'],
    ['a &nbsp; b', 'unescaped &'],
    ['<b><code>x</code></b>', 'inside a style tag'],
    ['<a href="/rel">x</a>', 'attribute href'],
    ['<blockquote><blockquote>x</blockquote></blockquote>', 'inside <blockquote>'],
    ['<pre><b>x</b></pre>', 'inside <pre>'],
    ['<b> </b>', 'empty'],
    ['x'.repeat(4097), 'limit 4096'],
  ])('Telegram: %#', (chunk, problem) => {
    expect(validateTelegramHtml(chunk).join('; ')).toContain(problem);
  });

  it('Telegram: counts entities as one character', () => {
    expect(validateTelegramHtml('&amp;'.repeat(4096))).toEqual([]);
    expect(validateTelegramHtml('<b>ok</b> &lt;tag&gt; <a href="https://x.io?a=1&amp;b=2">x</a>')).toEqual([]);
  });

  it.each([
    ['a < b', 'unescaped <'],
    ['a > b', 'unescaped >'],
    ['a & b', 'is not'],
    ['&quot;', 'is not'],
    ['<!channel>', 'unescaped <'],
    ['x'.repeat(40001), 'limit 40000'],
  ])('Slack: %#', (chunk, problem) => {
    expect(validateSlackMrkdwn(chunk).join('; ')).toContain(problem);
  });

  it('Slack: accepts its own links and entities', () => {
    expect(validateSlackMrkdwn('see <https://x.io/a?b=1&amp;c=2|the *docs*> &lt;tag&gt;')).toEqual([]);
  });

  it.each([
    ['hi @everyone', 'live mention'],
    ['hi @here', 'live mention'],
    ['hi <@123>', 'live mention'],
    ['hi <@&456>', 'live mention'],
    ['```js\nx', 'unbalanced'],
    ['```\na ``\u200b```\u200b``\n```', 'inside a line'],
    ['é'.repeat(2001), 'limit 2000'],
    ['\u200b ', 'empty'],
  ])('Discord: %#', (chunk, problem) => {
    expect(validateDiscordMarkdown(chunk).join('; ')).toContain(problem);
  });

  it('the word check notices a dropped word', () => {
    expect(missingWords('hello brave world', 'email-text', ['hello world'])).toEqual(['brave']);
    expect(missingWords('[docs](https://example.com/guide)', 'telegram-html', ['<a href="https://example.com/guide">docs</a>'])).toEqual(
      expect.arrayContaining(['guide']),
    );
    expect(missingWords('the the', 'email-text', ['the'])).toEqual(['the']);
  });
});
