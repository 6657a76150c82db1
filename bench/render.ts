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
import { renderChunks, renderFor, RENDER_PLATFORMS, type ChunkedFormat } from '../src/render/index.js';
import { createRenderService, INLINE_MAX_CHARS, sharedRenderPool } from '../src/app-render.js';
import { validateTelegramMarkdownV2 } from '../src/render/validate-mdv2.js';
import { missingWords, sourceWords, validateChunk, validateSlackMrkdwn } from '../src/render/validate.js';
import { commonmarkExamples, LLM_ANSWERS, ordinaryAnswer } from '../test/render/corpus.js';
import { loopStallMs } from '../test/helpers/loop-stall.js';

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

/**
 * Event-loop stall while one answer renders: the gateway's renderer (the worker past INLINE_MAX_CHARS),
 * renderFor inline, and the loop doing nothing for as long as the worker took (the machine's floor:
 * on a loaded machine the loop's thread waits for a core now and then, whatever it runs).
 */
export interface RenderStallRow {
  platform: string;
  /** Answer size in characters (an ordinary model answer, test/render/corpus.ts ordinaryAnswer). */
  chars: number;
  mode: 'worker' | 'inline' | 'idle';
  renders: number;
  /** Over the renders: the median, the 95th percentile and the largest of each render's longest stall. */
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}


/**
 * Event-loop stall p95/max while rendering a 30 KB and a 100 KB ordinary answer per platform: through
 * the gateway's renderer (src/app-render.ts: on the render worker), inline for comparison, and idle.
 * The worker rows are measured first, so the inline renders' garbage is not collected during them.
 */
export async function benchRenderStall(renders = 20, inlineRenders = 5): Promise<RenderStallRow[]> {
  const service = createRenderService();
  await service('telegram', ordinaryAnswer(30_000)); // the thread's start is not what is measured
  const rows: RenderStallRow[] = [];
  const took = new Map<string, number>();
  const row = (platform: string, chars: number, mode: RenderStallRow['mode'], stalls: number[]): RenderStallRow => {
    stalls.sort((a, b) => a - b);
    const at = (q: number): number => Math.round(stalls[Math.min(stalls.length - 1, Math.ceil(q * stalls.length) - 1)] * 10) / 10;
    return { platform, chars, mode, renders: stalls.length, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: at(1) };
  };
  for (const mode of ['worker', 'idle', 'inline'] as const) {
    for (const chars of [30_000, 100_000]) {
      const md = ordinaryAnswer(chars);
      for (const platform of RENDER_PLATFORMS) {
        const stalls: number[] = [];
        for (let k = 0; k < (mode === 'inline' ? inlineRenders : renders); k++) {
          const start = performance.now();
          if (mode === 'worker') stalls.push(await loopStallMs(() => service(platform, md)));
          else if (mode === 'idle') stalls.push(await loopStallMs(() => new Promise((r) => setTimeout(r, took.get(`${platform}${chars}`) ?? 1))));
          else stalls.push(await loopStallMs(() => renderFor(platform, md)));
          if (mode === 'worker') took.set(`${platform}${chars}`, Math.max(took.get(`${platform}${chars}`) ?? 0, performance.now() - start));
        }
        rows.push(row(platform, chars, mode, stalls));
      }
    }
  }
  await sharedRenderPool().close();
  return rows;
}

/** The stall rows as an aligned text table. */
export function formatRenderStall(rows: readonly RenderStallRow[]): string {
  return [`answers longer than ${INLINE_MAX_CHARS} characters go to the worker`, ...rows.map((r) => `${r.platform.padEnd(9)} ${String(r.chars / 1000).padStart(4)} KB  ${r.mode.padEnd(7)} p50 ${r.p50Ms.toFixed(1).padStart(6)} ms  p95 ${r.p95Ms.toFixed(1).padStart(6)} ms  max ${r.maxMs.toFixed(1).padStart(6)} ms`)].join('\n');
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
  process.stdout.write(`Event-loop stall while rendering\n${formatRenderStall(await benchRenderStall())}\n`);
}
