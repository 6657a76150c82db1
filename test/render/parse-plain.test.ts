/**
 * The plain-line shortcut of parseMarkdown (src/render/parse.ts): wherever it answers, its tree must
 * be the parser's own, positions included; and it must answer for ordinary one-line prose, or it
 * spares nothing.
 */
import { describe, expect, it } from 'vitest';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parseMarkdown, plainParagraph } from '../../src/render/parse.js';
import { commonmarkExamples, LLM_ANSWERS } from './corpus.js';

const parser = unified().use(remarkParse).use(remarkGfm).freeze();

/** Every printable ASCII character, whitespace, line endings and a few non-ASCII ones (accents, CJK, Cyrillic, emoji, NBSP, U+2028, ideographic space). */
const ALPHABET = [
  ...'abcxyzABCXYZ0123456789',
  ...' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
  ' ', ' ', '\t', '\n', '\r', '\0',
  'é', 'ß', '中', 'Ж', '😀', '\u00a0', '\u2028', '\u3000', 'w', 'w', 'w', '.', ':', '/',
];

/** A deterministic pseudo-random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many of `texts` the shortcut takes; each it takes must give the parser's own tree. */
function takenAsParsed(texts: readonly string[]): number {
  let taken = 0;
  for (const text of texts) {
    const fast = plainParagraph(text);
    if (!fast) continue;
    taken++;
    expect(fast, JSON.stringify(text)).toEqual(parser.parse(text));
  }
  return taken;
}

describe('parseMarkdown: the plain-line shortcut', () => {
  it('gives the parser’s tree for every generated text it takes', () => {
    const next = random(20261201);
    const texts: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const length = 1 + Math.floor(next() * 40);
      let text = '';
      // Half start with a letter, so the shortcut is tried on many texts, not only refused at once.
      if (next() < 0.5) text += 'Hello'[Math.floor(next() * 5)];
      while (text.length < length) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
      texts.push(text);
    }
    expect(takenAsParsed(texts)).toBeGreaterThan(1000);
  });

  it('gives the parser’s tree for every CommonMark example and model answer line it takes', () => {
    const lines = [...commonmarkExamples().map((e) => e.markdown), ...LLM_ANSWERS].flatMap((m) => [m, ...m.split('\n')]);
    expect(takenAsParsed(lines)).toBeGreaterThan(50);
  });

  it('takes ordinary one-line answers and leaves anything Markdown could read to the parser', () => {
    for (const answer of ['Sure, see you at 5.', 'Echo: message 12 from 10001', 'Привет! Как дела?', 'これはテストです。', 'Done (3 files, 42% smaller).']) {
      expect(plainParagraph(answer), answer).not.toBeNull();
      expect(parseMarkdown(answer)).toEqual(parser.parse(answer));
    }
    for (const markdown of ['- item', '1. first', '# Title', 'a *b*', 'see www.example.com', 'mail me@example.com', 'x | y', 'a\nb', 'trailing  ', ' indented', 'https://example.com', 'a &amp; b', 'a <b>']) {
      expect(plainParagraph(markdown), markdown).toBeNull();
    }
  });
});
