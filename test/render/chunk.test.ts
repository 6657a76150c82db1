/**
 * The chunker, through the public API with small limits: cuts fall between blocks, then lines,
 * then words; markup open at a cut is closed and reopened (code with its language); no chunk is
 * empty or over the limit; nothing is lost or written twice.
 */
import { describe, expect, it } from 'vitest';
import { renderChunks, telegramHtmlToPlain, type ChunkedFormat } from '../../src/render/index.js';
import { codePointLength } from '../../src/render/text.js';
import { validateChunk, visibleText } from '../../src/render/validate.js';

const squashWs = (s: string): string => s.replace(/\s+/g, '');

/** What a reader sees of all chunks, whitespace removed: must equal the unsplit render's. */
function seen(format: ChunkedFormat, chunks: string[]): string {
  return squashWs(chunks.map((c) => visibleText(format, c)).join(''));
}

describe('chunking', () => {
  it('prefers paragraph boundaries', () => {
    const md = ['first paragraph here', 'second paragraph here', 'third paragraph here'].join('\n\n');
    expect(renderChunks(md, 'discord-markdown', { limit: 64 })).toEqual(['first paragraph here\n\nsecond paragraph here', 'third paragraph here']);
  });

  it('then line boundaries, then words, never over the limit', () => {
    const md = Array.from({ length: 30 }, (_, i) => `line ${i} with some words`).join('  \n');
    const chunks = renderChunks(md, 'slack-mrkdwn', { limit: 100 });
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(100);
      expect(c.startsWith('line ')).toBe(true);
      expect(c.endsWith('words')).toBe(true);
    }
    const words = 'word '.repeat(200);
    for (const c of renderChunks(words, 'slack-mrkdwn', { limit: 100 })) expect(c).toMatch(/^word( word)*$/);
  });

  it('closes a code block at the cut and reopens it with its language', () => {
    const md = '```python\n' + Array.from({ length: 40 }, (_, i) => `print(${i})  # ${'x'.repeat(20)}`).join('\n') + '\n```';
    const discord = renderChunks(md, 'discord-markdown', { limit: 300 });
    expect(discord.length).toBeGreaterThan(3);
    for (const c of discord) {
      expect(c.startsWith('```python\n')).toBe(true);
      expect(c.endsWith('\n```')).toBe(true);
      expect(codePointLength(c)).toBeLessThanOrEqual(300);
    }
    const telegram = renderChunks(md, 'telegram-html', { limit: 300 });
    for (const c of telegram) {
      expect(c).toMatch(/^<pre><code class="language-python">[^<]*<\/code><\/pre>$/);
      expect(validateChunk('telegram-html', c, 300)).toEqual([]);
    }
    // Every code line arrives exactly once, in order.
    const lines = telegram.flatMap((c) => telegramHtmlToPlain(c).split('\n'));
    expect(lines).toEqual(Array.from({ length: 40 }, (_, i) => `print(${i})  # ${'x'.repeat(20)}`));
  });

  it('reopens bold and quotes across a cut', () => {
    const md = '> **' + 'bold words '.repeat(30).trim() + '**';
    for (const c of renderChunks(md, 'telegram-html', { limit: 100 })) {
      expect(c).toMatch(/^<blockquote><b>[^<]+<\/b><\/blockquote>$/);
    }
    for (const c of renderChunks(md, 'slack-mrkdwn', { limit: 100 })) expect(c).toMatch(/^&gt; \*\w[^*]*\w\*$/);
    for (const c of renderChunks(md, 'discord-markdown', { limit: 100 })) expect(c).toMatch(/^> \*\*\w[^*]*\w\*\*$/);
  });

  it('counts Telegram after entity parsing: entities are one character, tags nothing', () => {
    const md = '&'.repeat(5000);
    const chunks = renderChunks(md, 'telegram-html');
    expect(chunks).toHaveLength(2);
    expect(telegramHtmlToPlain(chunks[0])).toHaveLength(4096);
    expect(chunks[0].endsWith('&amp;')).toBe(true);
    expect(chunks.join('')).toBe('&amp;'.repeat(5000));
  });

  it('never cuts a surrogate pair or an emoji sequence', () => {
    const family = '👩‍👩‍👧‍👦';
    const md = family.repeat(1000);
    for (const [format, limit] of [
      ['telegram-html', 4096],
      ['discord-markdown', 2000],
      ['slack-mrkdwn', 500],
    ] as const) {
      const chunks = renderChunks(md, format, { limit });
      expect(chunks.join('')).toBe(md);
      for (const c of chunks) expect(c.replaceAll(family, '')).toBe('');
    }
  });

  it('cuts CJK text after its punctuation rather than mid-sentence', () => {
    const sentence = '日本語のテキストです。';
    const chunks = renderChunks(sentence.repeat(500), 'discord-markdown');
    for (const c of chunks) expect(c.endsWith('。')).toBe(true);
    expect(chunks.join('')).toBe(sentence.repeat(500));
  });

  it('keeps a Slack link whole, or falls back to text when the link alone is too long', () => {
    const md = 'see ' + '[the docs](https://example.com/docs) '.repeat(20);
    for (const c of renderChunks(md, 'slack-mrkdwn', { limit: 100 })) expect(validateChunk('slack-mrkdwn', c, 100)).toEqual([]);
    const long = `[label](https://example.com/${'p'.repeat(300)})`;
    const chunks = renderChunks(long, 'slack-mrkdwn', { limit: 100 });
    for (const c of chunks) expect(validateChunk('slack-mrkdwn', c, 100)).toEqual([]);
    expect(chunks.join('')).toContain('label');
  });

  it.each(['telegram-html', 'slack-mrkdwn', 'discord-markdown'] as const)('%s: small limits lose and repeat nothing', (format) => {
    const md = [
      '# Heading with `code`',
      'Some **bold and _nested italic_ text** with a [link](https://example.com/x) and more words to split.',
      '> quoted line one\n> quoted **line** two',
      '- item one\n- item two with more words\n  - nested item',
      '```js\nconst a = 1;\nconst b = a < 2 && a > 0;\n```',
      '| h1 | h2 |\n|---|---|\n| a | b |',
    ].join('\n\n');
    const whole = seen(format, renderChunks(md, format, { limit: null }));
    for (const limit of [64, 80, 120, 200]) {
      const chunks = renderChunks(md, format, { limit });
      for (const c of chunks) expect(validateChunk(format, c, limit)).toEqual([]);
      // Reopened markup (list indentation, quote markers, fences) is not content; drop it from both sides.
      expect(seen(format, chunks).replace(/>|```js|```/g, '')).toBe(whole.replace(/>|```js|```/g, ''));
    }
  });

  it('refuses a limit too small to hold reopened markup', () => {
    expect(() => renderChunks('text', 'discord-markdown', { limit: 10 })).toThrow(RangeError);
  });
});
