/**
 * The threat scan's parts, each timed alone on the bench's 1 MB text (best of N runs: the least
 * disturbed by other work on a shared machine). SCAN_ROOT= times another checkout.
 */
import { performance } from 'node:perf_hooks';
import type * as Scan from '../src/guard/scan.js';
import type * as Norm from '../src/guard/normalize.js';
import type * as Learned from '../src/guard/learned.js';
import type * as Intents from '../src/guard/intents.js';
import type * as Quoted from '../src/guard/quoted.js';
import type * as Lines from '../src/guard/lines.js';
import { scanInput } from '../bench/scan-input.js';

const root = process.env.SCAN_ROOT ?? '..';
const at = (f: string) => `${root}/src/core/prompt/${f}.js`;
const scan = (await import(at('threat-scan'))) as typeof Scan;
const norm = (await import(at('threat-normalize'))) as typeof Norm;
const learned = (await import(at('threat-learned'))) as typeof Learned;
const intents = (await import(at('threat-intents'))) as typeof Intents;
const quoted = (await import(at('threat-quoted'))) as typeof Quoted;
const lines = (await import(at('threat-lines'))) as typeof Lines;

const text = scanInput();
const starts = lines.lineStarts(text);
const other = `${text.slice(0, -1)}b`;
let flip = false;
const n = Number(process.argv[2] ?? 15);
const parts: [string, () => unknown][] = [
  ['scanText', () => scan.scanText(text, 'context')],
  ['scanPatterns', () => scan.scanPatterns(text, 'context')],
  ['foldForScan', () => scan.foldForScan(text)],
  ['keywordsIn', () => scan.keywordsIn?.([text])],
  ['normalizedViews', () => norm.normalizedViews(text)],
  // alternating between two texts, so that nothing remembered from the last call helps
  ['decodedViews', () => {
    flip = !flip;
    return norm.decodedViews(flip ? text : other, starts);
  }],
  ['learnedVerdict', () => learned.learnedVerdict(text)],
  ['languagesIn', () => intents.languagesIn(text)],
  ['quotedExampleLines', () => quoted.quotedExampleLines(text)],
  ['lineStarts', () => lines.lineStarts(text)],
];
const best = new Map<string, number>();
for (let i = 0; i < n; i++) {
  for (const [name, fn] of parts) {
    // a different string each time for the parts that remember their last text
    const t = performance.now();
    fn();
    best.set(name, Math.min(best.get(name) ?? Infinity, performance.now() - t));
  }
}
for (const [name, ms] of best) console.log(`${ms.toFixed(2).padStart(7)} ms  ${name}`);
