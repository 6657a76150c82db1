// The first PDF in a fresh process (issue 39, ARCHITECTURE.md §15), for bench/media.ts: plain Node on the bundle
// in dist/ (what `switchboard start` runs; tsx would add its own transform of pdf.js to the figure).
// argv: <the dist chunk exporting pdfText and warmPdf> <a PDF file> <cold | warmed>. Prints one JSON line:
// cold: loading pdf.js and reading the PDF, as a gateway's first PDF does;
// warmed: warmPdf() first (loading pdf.js and reading a small PDF beforehand), timed apart, then the PDF.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [chunk, file, mode] = process.argv.slice(2);
const bytes = new Uint8Array(readFileSync(file));
const t0 = performance.now();
const { pdfText, warmPdf } = await import(pathToFileURL(chunk).href);
let warmUpMs = null;
if (mode === 'warmed') {
  await warmPdf();
  warmUpMs = performance.now() - t0;
}
const t1 = performance.now();
const text = await pdfText(bytes, Number.MAX_SAFE_INTEGER);
const firstMs = performance.now() - t1;
process.stdout.write(`${JSON.stringify({ mode, warmUpMs, firstMs, chars: text.length })}\n`);
