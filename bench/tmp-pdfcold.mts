import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
const bytes = new Uint8Array(readFileSync('/tmp/50.pdf'));
const t0 = performance.now();
if (process.env.PRE) {
  (globalThis as any).pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  await import('pdfjs-dist/legacy/build/pdf.mjs');
}
const t1 = performance.now();
const { pdfText } = await import('/work/wt/mediarest/src/media/pdf.js');
const text = await pdfText(bytes, 1e9);
const t2 = performance.now();
await pdfText(bytes, 1e9);
const t3 = performance.now();
console.log('pre', Math.round(t1-t0), 'first', Math.round(t2-t1), 'second', Math.round(t3-t2), text.length);
