/**
 * Documents for the corpus tests and the benchmark: every example of the CommonMark spec (npm
 * `commonmark-spec`, tabs restored from the spec's → marker), a few realistic LLM answers, and
 * stress documents built near each platform's limits.
 */
import { createRequire } from 'node:module';

interface SpecExample {
  markdown: string;
  section: string;
  number: number;
}

const require = createRequire(import.meta.url);

/** The CommonMark spec examples (0.31.2: 652 of them). */
export function commonmarkExamples(): SpecExample[] {
  const spec = require('commonmark-spec') as { tests: SpecExample[] };
  return spec.tests.map((t) => ({ ...t, markdown: t.markdown.replace(/→/g, '\t') }));
}

/** Answers shaped like what a model writes: headings, lists, code, tables, links, quotes. */
export const LLM_ANSWERS: readonly string[] = [
  `## Setting up a reverse proxy with nginx

Here's a minimal setup for **nginx** in front of a Node app listening on port \`3000\`:

\`\`\`nginx
server {
    listen 80;
    server_name example.com;

    location / {
        proxy_pass http://127.0.0.1:3000;
        proxy_set_header Host $host;
        proxy_set_header X-Real-IP $remote_addr;
    }
}
\`\`\`

Then:

1. Save it as \`/etc/nginx/sites-available/app\`.
2. Link it: \`ln -s ../sites-available/app /etc/nginx/sites-enabled/\`.
3. Test and reload:
   \`\`\`bash
   sudo nginx -t && sudo systemctl reload nginx
   \`\`\`

> **Note:** if you use HTTPS, get a certificate with [certbot](https://certbot.eff.org/) first.

See the [official docs](https://nginx.org/en/docs/) for more.`,

  `# Comparison: SQLite vs PostgreSQL

| Feature | SQLite | PostgreSQL |
|---|:---:|---:|
| Setup | none (a file) | server process |
| Concurrency | one writer | many writers |
| Full-text search | FTS5 | tsvector |
| Size limit | 281 TB | unlimited* |

**TL;DR:** use SQLite for a single-process app; PostgreSQL when several services write at once.

- Pros of SQLite:
  - zero ops
  - fast reads
- Cons:
  - ~~no~~ limited concurrency
  - no network access

Footnote: WAL mode helps[^wal].

[^wal]: Write-ahead logging lets readers run while one writer writes.`,

  `Sure! Here's a Python function that checks whether a string is a palindrome:

\`\`\`python
def is_palindrome(s: str) -> bool:
    cleaned = [c.lower() for c in s if c.isalnum()]
    return cleaned == cleaned[::-1]
\`\`\`

It works like this:
* it keeps only letters and digits (so "A man, a plan" → "amanaplan")
* compares the list with its reverse

Example: \`is_palindrome("Racecar")\` returns \`True\`, while \`is_palindrome("hello")\` returns \`False\`.

Edge cases to watch: empty strings (→ \`True\`), Unicode like "été" & emoji 🎉, and <b>HTML</b> you might get from a form — escape it first!

Let me know if you'd like a version for @here or @everyone announcements 😄`,

  `### Today's report — 3 issues

- [x] Fix the login redirect (#123)
- [ ] Update dependencies: \`npm outdated\` shows **12** packages
- [ ] Write the migration for \`users.email\` → \`users.contact_email\`

**Blockers:** the staging DB is down (see https://status.example.com). Contact <ops@example.com>.

---

*Generated automatically.* 日本語のテキストも大丈夫です。`,
];

/** An ordinary answer of `size` characters, as a model writes a long one: the answers above one after another. */
export function ordinaryAnswer(size: number): string {
  let text = '';
  for (let i = 0; text.length < size; i++) text += `${LLM_ANSWERS[i % LLM_ANSWERS.length]}\n\n`;
  return text.slice(0, size);
}

/** Deterministic filler text. */
function lorem(words: number, seed = 1): string {
  const vocab = ['alpha', 'beta', 'gamma', 'delta', 'render', 'chunk', 'message', 'limit', 'platform', 'token', 'émoji', 'naïve', 'Zürich', '東京', 'данные', 'x1', 'y22'];
  let s = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out.push(vocab[s % vocab.length]);
  }
  return out.join(' ');
}

/** Stress documents: long paragraphs and code, wide tables, emoji/CJK near limits, hostile HTML. */
export function stressDocs(): { name: string; markdown: string }[] {
  const longCode = Array.from({ length: 900 }, (_, i) => `    const v${i} = compute(${i}) < limit && flag; // line ${i}`).join('\n');
  const wideTable = [
    '| ' + Array.from({ length: 24 }, (_, i) => `Column ${i}`).join(' | ') + ' |',
    '|' + ' --- |'.repeat(24),
    ...Array.from({ length: 40 }, (_, r) => '| ' + Array.from({ length: 24 }, (_, c) => `r${r}c${c} ${lorem(2, r * 24 + c)}`).join(' | ') + ' |'),
  ].join('\n');
  const tallTable = ['| Key | Value |', '|---|---|', ...Array.from({ length: 600 }, (_, i) => `| key${i} | value ${lorem(3, i)} |`)].join('\n');
  return [
    { name: 'very long paragraph', markdown: lorem(6000) },
    { name: "long paragraph with styles", markdown: Array.from({ length: 250 }, (_, i) => `**bold ${i}** and _italic ${lorem(3, i)}_ with \`code${i}\` and [link ${i}](https://example.com/${i})`).join(' ') },
    { name: 'long code block', markdown: '```typescript\n' + longCode + '\n```' },
    { name: 'long code line', markdown: '```\n' + 'x'.repeat(9000) + ' ' + 'y = 1;'.repeat(800) + '\n```' },
    { name: 'wide table', markdown: wideTable },
    { name: 'tall table', markdown: tallTable },
    { name: 'emoji near limits', markdown: '👩‍👩‍👧‍👦🎉'.repeat(1500) + '\n\n' + 'emoji 🎉 '.repeat(700) },
    { name: 'CJK without spaces', markdown: '日本語のテキストです。'.repeat(900) + '\n\n' + '中文内容没有空格，'.repeat(700) },
    { name: 'CJK no punctuation', markdown: '漢'.repeat(9000) },
    { name: 'astral letters', markdown: '𝐀𝐁𝐂'.repeat(3000) },
    { name: 'zalgo', markdown: 'Z' + '\u0301'.repeat(5000) + ' end' },
    { name: 'hostile html', markdown: '<script>alert("x")</script>\n\n<img src=x onerror=alert(1)>\n\nText <b>bold? <i>unclosed <a href="javascript:alert(1)">click</a>\n\n<div>\n*not emphasis*\n</div>\n\n&lt;b&gt; &amp; &quot; &#60;' },
    { name: 'unclosed tags', markdown: 'a <b> b <pre> c <code> d </i> e <!-- comment\n\nstill comment? -->\n\n<blockquote><blockquote>x' },
    { name: 'mentions', markdown: '@everyone @here <@123456789> <@&987654321> <#1234> `@everyone` ```\n@here <@1>\n```\n' + '@everyone '.repeat(400) },
    { name: 'deep nesting', markdown: Array.from({ length: 40 }, (_, i) => ' '.repeat(i * 2) + '- level ' + i).join('\n') + '\n\n' + '> '.repeat(30) + 'deep quote ' + lorem(500) },
    { name: 'long link', markdown: `[${lorem(600)}](https://example.com/${'p'.repeat(3000)}) and <https://example.com/${'q'.repeat(5000)}>` },
    { name: 'many paragraphs', markdown: Array.from({ length: 400 }, (_, i) => `Paragraph ${i}: ${lorem(20, i)}`).join('\n\n') },
    { name: 'empty', markdown: '' },
    { name: 'only whitespace', markdown: '   \n\n\t\n' },
    { name: 'only definition', markdown: '[foo]: https://example.com "title"' },
    { name: 'lone surrogate', markdown: 'bad \ud800 surrogate and \udc00 here' },
  ];
}
