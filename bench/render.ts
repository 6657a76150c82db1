/**
 * Renderer benchmark: documents per second per format on a fixed corpus (every CommonMark spec
 * example, realistic LLM answers, one long answer), side by side with the widely used converters
 * telegramify-markdown (MarkdownV2) and slackify-markdown on the same inputs. `validPct` is the share
 * of documents whose every message passes the platform validator (src/render/validate*.ts; a
 * converter that writes one message is judged on that message, limits included); `intactPct` the
 * share where no word of the source is missing from what the reader sees.
 *
 * Standalone: `node --import tsx bench/render.ts` prints the table.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { renderChunks, type ChunkedFormat } from '../src/render/index.js';
import { validateTelegramMarkdownV2 } from '../src/render/validate-mdv2.js';
import { missingWords, sourceWords, validateChunk, validateSlackMrkdwn } from '../src/render/validate.js';
import { commonmarkExamples, LLM_ANSWERS } from '../test/render/corpus.js';

export interface RenderBenchRow {
  name: string;
  format: string;
  docsPerSec: number;
  validPct: number;
  intactPct: number;
}

const require = createRequire(import.meta.url);
const telegramify = require('telegramify-markdown') as (markdown: string, strategy?: 'escape' | 'remove' | 'keep') => string;
const slackify = require('slackify-markdown') as (markdown: string) => string;

/** The fixed corpus. */
export function benchCorpus(): string[] {
  const long = Array.from({ length: 4 }, () => LLM_ANSWERS.join('\n\n')).join('\n\n');
  return [...commonmarkExamples().map((e) => e.markdown), ...LLM_ANSWERS, long];
}

/** Runs `fn` over the corpus until at least `minMs` passed; documents per second. */
function throughput(docs: readonly string[], fn: (md: string) => unknown, minMs = 400): number {
  for (const d of docs.slice(0, 50)) fn(d); // warm up
  let n = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    for (const d of docs) fn(d);
    n += docs.length;
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return Math.round((n / elapsed) * 1000);
}

interface Contender {
  name: string;
  format: string;
  /** Renders one document to the messages it would send. */
  render(md: string): string[];
  validate(chunk: string): string[];
  /** The chat format whose visible-text rules apply for the word check. */
  visibleAs: ChunkedFormat;
}

/** MarkdownV2 escapes read as the characters they escape. */
function unescapeMdv2(chunk: string): string {
  return chunk.replace(/\\([\x01-\x7e])/g, '$1');
}

function contenders(): Contender[] {
  const ours = (['telegram-html', 'slack-mrkdwn', 'discord-markdown', 'email-text'] as const).map(
    (format): Contender => ({
      name: 'switchboard',
      format,
      render: (md) => renderChunks(md, format),
      validate: (chunk) => validateChunk(format, chunk),
      visibleAs: format,
    }),
  );
  const asMessage = (out: string): string[] => (out.trim() === '' ? [] : [out]);
  return [
    ...ours,
    {
      name: 'telegramify-markdown',
      format: 'telegram-markdownv2',
      render: (md) => asMessage(telegramify(md, 'escape')),
      validate: (chunk) => validateTelegramMarkdownV2(chunk),
      visibleAs: 'email-text',
    },
    {
      name: 'slackify-markdown',
      format: 'slack-mrkdwn',
      render: (md) => asMessage(slackify(md)),
      validate: (chunk) => validateSlackMrkdwn(chunk),
      visibleAs: 'slack-mrkdwn',
    },
  ];
}

/** Measures every contender on the corpus. */
export async function benchRender(): Promise<RenderBenchRow[]> {
  const docs = benchCorpus();
  const words = docs.map((d) => sourceWords(d));
  const rows: RenderBenchRow[] = [];
  for (const c of contenders()) {
    let valid = 0;
    let intact = 0;
    docs.forEach((md, k) => {
      let chunks: string[];
      try {
        chunks = c.render(md);
      } catch {
        return;
      }
      if (chunks.every((chunk) => c.validate(chunk).length === 0)) valid++;
      const seen = c.name === 'telegramify-markdown' ? chunks.map(unescapeMdv2) : chunks;
      if (missingWords(md, c.visibleAs, seen, words[k]).length === 0) intact++;
    });
    const docsPerSec = throughput(docs, (md) => {
      try {
        c.render(md);
      } catch {
        // A converter that throws still spent the time.
      }
    });
    const pct = (n: number): number => Math.round((n / docs.length) * 1000) / 10;
    rows.push({ name: c.name, format: c.format, docsPerSec, validPct: pct(valid), intactPct: pct(intact) });
  }
  return rows;
}

/** The rows as an aligned text table. */
export function formatRenderBench(rows: readonly RenderBenchRow[]): string {
  const head = ['renderer', 'format', 'docs/s', 'valid %', 'intact %'];
  const body = rows.map((r) => [r.name, r.format, String(r.docsPerSec), r.validPct.toFixed(1), r.intactPct.toFixed(1)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchRender();
  process.stdout.write(`Renderers on ${benchCorpus().length} documents\n${formatRenderBench(rows)}\n`);
}
