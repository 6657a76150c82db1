/**
 * Backtick runs inside code (issue 38, point 13). Discord and Slack end a code block at the first
 * ``` anywhere, not only on a fence line, and neither has an escape inside code: no run of three or
 * more backticks may survive in the block, in one chunk or cut in two by a chunk seam. Each chunk is
 * checked twice: by a real CommonMark parse (remark, as the renderer parses) and by the platform's
 * own rule for where a block ends.
 */
import type { Code, InlineCode, Paragraph } from 'mdast';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, renderChunks } from '../../src/render/index.js';
import { validateDiscordMarkdown } from '../../src/render/validate.js';

const ZW = /\u200b/g;

/** Discord's code block rule (the discord-markdown package's, after simple-markdown): from ``` to the first ``` after it. */
const DISCORD_CODE_BLOCK = /^```(?:([a-z0-9_+\-.#]+?)\n)?\n*([^\n][^]*?)\n*```/i;
/** Slack's: from ``` to the first ``` after it. */
const SLACK_CODE_BLOCK = /^```([^]*?)```/;
/** Discord's inline code rule: a run of backticks, then the first run as long not followed by another backtick. */
const DISCORD_INLINE_CODE = /^(`+)([\s\S]*?[^`])\1(?!`)/;

const FORMATS = [
  ['discord-markdown', DISCORD_CODE_BLOCK],
  ['slack-mrkdwn', SLACK_CODE_BLOCK],
] as const;

/** One chunk that must be a single code block: returns its code with the zero-width spaces taken out. */
function codeOf(chunk: string, rule: RegExp): string {
  // The platform's rule: the block ends where the chunk ends, not at a ``` inside.
  expect(rule.exec(chunk)?.[0], `the platform ends the block early in:\n${chunk}`).toBe(chunk);
  // CommonMark (remark): one code node, nothing after it.
  const root = parseMarkdown(chunk);
  expect(root.children.map((n) => n.type), `remark ends the block early in:\n${chunk}`).toEqual(['code']);
  return (root.children[0] as Code).value.replace(ZW, '');
}

const squashWs = (s: string): string => s.replace(/\s+/g, '');

describe('a run of backticks inside a code block does not end it', () => {
  const CASES: [name: string, code: string][] = [
    ['three', 'a ``` b'],
    ['five', 'a ````` b'],
    ['six', '``````'],
    ['seven', '```````'],
    ['eight at a line start', '````````js'],
    ['runs of 3 to 9 on one line', Array.from({ length: 7 }, (_, k) => '`'.repeat(k + 3)).join(' x ')],
    ['a fence line inside', 'before\n```\nafter'],
  ];
  describe.each(FORMATS)('%s', (format, rule) => {
    it.each(CASES)('%s', (_name, code) => {
      const chunks = renderChunks('````````````js\n' + code + '\n````````````', format);
      expect(chunks).toHaveLength(1);
      expect(codeOf(chunks[0], rule)).toBe(code);
      if (format === 'discord-markdown') expect(validateDiscordMarkdown(chunks[0])).toEqual([]);
    });
  });
});

describe('a run of backticks cut by a chunk seam does not end the block (long code block)', () => {
  const filler = Array.from({ length: 40 }, (_, i) => `const v${i} = compute(${i}); // line ${i} of the filler`);
  // The run sits in a word longer than a message, so the chunker must cut inside the word; the
  // sweep moves the run across that cut.
  const CASES: [name: string, run: number, tail: string][] = [
    ['7 backticks mid-word', 7, 'z'.repeat(200)],
    ['7 backticks at the end of a line', 7, ''],
    ['5 backticks mid-word', 5, 'z'.repeat(200)],
    ['5 backticks at the end of a line', 5, ''],
  ];
  describe.each(FORMATS)('%s', (format, rule) => {
    it.each(CASES)('%s', (_name, run, tail) => {
      let seamsInRun = 0;
      for (let y = 1975; y <= 2000; y++) {
        const code = [...filler, 'y'.repeat(y) + '`'.repeat(run) + tail, ...filler].join('\n');
        const chunks = renderChunks('```js\n' + code + '\n```', format, { limit: 2000 });
        expect(chunks.length).toBeGreaterThan(2);
        const codes = chunks.map((c) => codeOf(c, rule));
        expect(squashWs(codes.join(''))).toBe(squashWs(code));
        chunks.forEach((c, k) => {
          if (format === 'discord-markdown') expect(validateDiscordMarkdown(c)).toEqual([]);
          const next = chunks[k + 1];
          if (next && /[`\u200b]\n```$/.test(c) && /^```(?:js)?\n[`\u200b]/.test(next)) seamsInRun++;
        });
      }
      // The sweep really put a seam inside the run of backticks.
      expect(seamsInRun).toBeGreaterThan(0);
    });
  });
});

describe('a run of backticks inside Discord inline code does not end the span', () => {
  it.each([
    ['`` a`b ``', 'a`b'],
    ['`` a```b ``', 'a```b'],
    ['``` a``b ```', 'a``b'],
    ['`` a`````b ``', 'a`````b'],
    ['`` ````` ``', '`````'],
  ])('%s', (markdown, value) => {
    const chunks = renderChunks(markdown, 'discord-markdown');
    expect(chunks).toHaveLength(1);
    expect(DISCORD_INLINE_CODE.exec(chunks[0])?.[0]).toBe(chunks[0]);
    const para = parseMarkdown(chunks[0]).children[0] as Paragraph;
    expect(para.children.map((n) => n.type)).toEqual(['inlineCode']);
    expect((para.children[0] as InlineCode).value.replace(ZW, '')).toBe(value);
  });
});
