/**
 * One row per Markdown construct: what each format writes for it (Telegram HTML, Slack mrkdwn,
 * Discord Markdown, e-mail text). Read a row as "the model wrote X, the user sees Y".
 */
import { describe, expect, it } from 'vitest';
import { renderChunks, renderEmail } from '../../src/render/index.js';

type Row = [construct: string, markdown: string, telegram: string, slack: string, discord: string, email: string];

const ZW = '\u200b';
const ROWS: Row[] = [
  ['heading', '# Title *x*', '<b>Title <i>x</i></b>', '*Title _x_*', '# Title *x*', 'Title x\n======='],
  ['styles', '**b** _i_ ~~s~~ `c`', '<b>b</b> <i>i</i> <s>s</s> <code>c</code>', '*b* _i_ ~s~ `c`', '**b** *i* ~~s~~ `c`', 'b i s c'],
  ['escaping', 'a < b & c > d "q"', 'a &lt; b &amp; c &gt; d "q"', 'a &lt; b &amp; c &gt; d "q"', 'a \\< b & c \\> d "q"', 'a < b & c > d "q"'],
  [
    'link',
    '[docs](https://ex.com/a_b?x=1&y=2)',
    '<a href="https://ex.com/a_b?x=1&amp;y=2">docs</a> (https://ex.com/a_b?x=1&amp;y=2)',
    '<https://ex.com/a_b?x=1&amp;y=2|docs>',
    '[docs](https://ex.com/a_b?x=1&y=2)',
    'docs (https://ex.com/a_b?x=1&y=2)',
  ],
  ['autolink', '<https://ex.com>', '<a href="https://ex.com">https://ex.com</a>', '<https://ex.com>', 'https://ex.com', 'https://ex.com'],
  ['relative link', '[home](/index.html)', 'home (/index.html)', 'home (/index.html)', 'home (/index.html)', 'home (/index.html)'],
  ['javascript: link', '[x](javascript:alert(1))', 'x (javascript:alert(1))', 'x (javascript:alert(1))', 'x (javascript:alert(1))', 'x (javascript:alert(1))'],
  [
    'image',
    '![a cat](https://ex.com/cat.png)',
    '<a href="https://ex.com/cat.png">a cat</a> (https://ex.com/cat.png)',
    '<https://ex.com/cat.png|a cat>',
    '[a cat](https://ex.com/cat.png)',
    'a cat (https://ex.com/cat.png)',
  ],
  [
    'code block',
    '```py\nif a < b:\n    pass\n```',
    '<pre><code class="language-py">if a &lt; b:\n    pass</code></pre>',
    '```\nif a &lt; b:\n    pass\n```',
    '```py\nif a < b:\n    pass\n```',
    '    if a < b:\n        pass',
  ],
  ['quote', '> one\n>\n> two', '<blockquote>one\n\ntwo</blockquote>', '&gt; one\n&gt;\n&gt; two', '> one\n>\n> two', '> one\n>\n> two'],
  ['nested quote', '> a\n>> b', '<blockquote>a\n\nb</blockquote>', '&gt; a\n&gt;\n&gt; b', '> a\n>\n> b', '> a\n>\n> > b'],
  ['lists', '- a\n  - b\n1. c', '• a\n  ◦ b\n\n1. c', '• a\n  ◦ b\n\n1. c', '- a\n  - b\n\n1. c', '- a\n  - b\n\n1. c'],
  ['task list', '- [x] done\n- [ ] todo', '☑ done\n☐ todo', '☑ done\n☐ todo', '- ☑ done\n- ☐ todo', '- [x] done\n- [ ] todo'],
  [
    'table',
    '| a | b |\n|---|--:|\n| 1 | 22 |',
    '<pre>a |  b\n--+---\n1 | 22</pre>',
    '```\na |  b\n--+---\n1 | 22\n```',
    '```\na |  b\n--+---\n1 | 22\n```',
    'a |  b\n--+---\n1 | 22',
  ],
  [
    'raw HTML',
    '<script>alert(1)</script>',
    '&lt;script&gt;alert(1)&lt;/script&gt;',
    '```\n&lt;script&gt;alert(1)&lt;/script&gt;\n```',
    '\\<script\\>alert(1)\\</script\\>',
    '<script>alert(1)</script>',
  ],
  ['inline raw HTML', 'a <b>x</b>', 'a &lt;b&gt;x&lt;/b&gt;', 'a &lt;b&gt;x&lt;/b&gt;', 'a \\<b\\>x\\</b\\>', 'a <b>x</b>'],
  ['footnote', 'x[^1]\n\n[^1]: note', 'x[1]\n\n———\n[1] note', 'x[1]\n\n———\n[1] note', 'x\\[1\\]\n\n———\n\\[1\\] note', 'x[1]\n\n' + '-'.repeat(40) + '\n[1] note'],
  ['thematic break', 'a\n\n---\n\nb', 'a\n\n———\n\nb', 'a\n\n———\n\nb', 'a\n\n———\n\nb', 'a\n\n' + '-'.repeat(40) + '\n\nb'],
  ['mentions', '@everyone <@123>', '@everyone &lt;@123&gt;', '@everyone &lt;@123&gt;', `@${ZW}everyone \\<${ZW}@123\\>`, '@everyone <@123>'],
  ['code inside bold', '**use `npm` now**', '<b>use </b><code>npm</code><b> now</b>', '*use `npm` now*', '**use `npm` now**', 'use npm now'],
  ['hard break', 'a  \nb', 'a\nb', 'a\nb', 'a\nb', 'a\nb'],
  ['link reference', '[x][r]\n\n[r]: https://r.io', '<a href="https://r.io">x</a> (https://r.io)', '<https://r.io|x>', '[x](https://r.io)', 'x (https://r.io)'],
  [
    'row with more cells than its header (GFM drops the extra ones)',
    '| a | b |\n|---|---|\n| 1 | 2 | 3 |',
    '<pre>a | b\n--+--\n1 | 2</pre>',
    '```\na | b\n--+--\n1 | 2\n```',
    '```\na | b\n--+--\n1 | 2\n```',
    'a | b\n--+--\n1 | 2',
  ],
  ['intraword underscore', 'snake_case and _x_', 'snake_case and <i>x</i>', 'snake_case and _x_', 'snake_case and *x*', 'snake_case and x'],
  ['strong inside emphasis (CommonMark 411)', '*foo**bar**baz*', '<i>foo<b>bar</b>baz</i>', `_foo${ZW}*bar*${ZW}baz_`, '*foo**bar**baz*', 'foobarbaz'],
  ['emphasis inside strong (CommonMark 429)', '**foo*bar*baz**', '<b>foo<i>bar</i>baz</b>', `*foo${ZW}_bar_${ZW}baz*`, '**foo*bar*baz**', 'foobarbaz'],
  ['emphasis inside strikethrough', '~~foo*bar*baz~~', '<s>foo<i>bar</i>baz</s>', `~foo${ZW}_bar_${ZW}baz~`, '~~foo*bar*baz~~', 'foobarbaz'],
  ['strong touched by a letter', 'foo **bar**baz', 'foo <b>bar</b>baz', `foo *bar*${ZW}baz`, 'foo **bar**baz', 'foo barbaz'],
];

describe.each([
  ['telegram-html', 2],
  ['slack-mrkdwn', 3],
  ['discord-markdown', 4],
  ['email-text', 5],
] as const)('%s', (format, column) => {
  it.each(ROWS.map((r) => [r[0], r[1], r[column]]))('%s', (_name, markdown, expected) => {
    expect(renderChunks(markdown, format)).toEqual([expected]);
  });
});

describe('formats per platform', () => {
  it('Slack formatting does not span a line break: markers close and reopen', () => {
    expect(renderChunks('**one\ntwo**', 'slack-mrkdwn')).toEqual(['*one*\n*two*']);
  });

  it('Telegram keeps code out of links and bold (its nesting rules)', () => {
    expect(renderChunks('[`npm`](https://npmjs.com)', 'telegram-html')).toEqual(['<a href="https://npmjs.com">npm</a> (https://npmjs.com)']);
  });

  it('a ``` inside code cannot end the block early (Slack, Discord)', () => {
    const md = '````\na ``` b\n````';
    expect(renderChunks(md, 'discord-markdown')[0]).toBe(`\`\`\`\na \`\`${ZW}\` b\n\`\`\``);
    expect(renderChunks(md, 'slack-mrkdwn')[0]).toBe(`\`\`\`\na \`\`${ZW}\` b\n\`\`\``);
  });

  it('terminal: plain by default, ANSI bold when asked', () => {
    expect(renderChunks('**b**', 'terminal')).toEqual(['b']);
    expect(renderChunks('**b**', 'terminal', { color: true })).toEqual(['\x1b[1mb\x1b[22m']);
  });

  it('wide tables become records instead of overflowing lines', () => {
    const header = Array.from({ length: 12 }, (_, i) => `Heading ${i}`);
    const row = Array.from({ length: 12 }, (_, i) => `value ${i}`);
    const md = `| ${header.join(' | ')} |\n|${' --- |'.repeat(12)}\n| ${row.join(' | ')} |`;
    const [chunk] = renderChunks(md, 'discord-markdown');
    expect(chunk.split('\n')[0]).toBe('Heading 0: value 0');
    expect(chunk.split('\n')).toHaveLength(12);
  });

  it('plain text keeps intraword * that would otherwise vanish: 2*3*4 stays 2*3*4', () => {
    expect(renderChunks('2*3*4 = 24 and 2**3**4', 'email-text')).toEqual(['2*3*4 = 24 and 2**3**4']);
    expect(renderChunks('2*3*4', 'terminal')).toEqual(['2*3*4']);
    // ordinary emphasis between spaces still loses its markers
    expect(renderChunks('a *b* c', 'email-text')).toEqual(['a b c']);
  });

  it('emphasis inside emphasis is styled, never left as stray ** (CommonMark 411)', () => {
    expect(renderEmail('*foo**bar**baz*').text).toBe('foobarbaz');
    expect(renderChunks('*foo**bar**baz*', 'terminal', { color: true })).toEqual(['\x1b[3mfoo\x1b[1mbar\x1b[22mbaz\x1b[23m']);
    // where the formats write plain text: headings, link labels, table cells
    expect(renderChunks('# *foo**bar**baz*', 'email-text')).toEqual(['foobarbaz\n=========']);
    expect(renderChunks('[*foo**bar**baz*](https://ex.com)', 'email-text')).toEqual(['foobarbaz (https://ex.com)']);
    expect(renderChunks('[*foo**bar**baz*](https://ex.com)', 'slack-mrkdwn')).toEqual(['<https://ex.com|foobarbaz>']);
    expect(renderChunks('[*foo**bar**baz*](https://ex.com)', 'discord-markdown')).toEqual(['[foobarbaz](https://ex.com)']);
    expect(renderChunks('| h |\n|---|\n| *foo**bar**baz* |', 'email-text')[0]).toMatch(/\nfoobarbaz$/);
  });

  it('Discord shows a bare URL as written (no %28/%29); masked link targets stay encoded', () => {
    expect(renderChunks('see https://example.org/path_(x) now', 'discord-markdown')).toEqual(['see https://example.org/path_(x) now']);
    expect(renderChunks('[x](https://example.org/a_(b))', 'discord-markdown')).toEqual(['[x](https://example.org/a_%28b%29)']);
  });

  it('nothing visible gives no chunk at all', () => {
    for (const format of ['telegram-html', 'slack-mrkdwn', 'discord-markdown', 'email-text', 'terminal'] as const) {
      expect(renderChunks('', format)).toEqual([]);
      expect(renderChunks(' \n\n\t', format)).toEqual([]);
      expect(renderChunks('[ref]: https://example.com', format)).toEqual([]);
      expect(renderChunks('```\n```', format)).toEqual([]);
    }
  });
});
