/**
 * PDF text (ARCHITECTURE.md §15) with pdfjs-dist 4's legacy build (the one that runs on Node 20), no worker
 * thread, no fonts loaded, no eval. Pages are read in order until `maxChars` are had; an encrypted
 * PDF is one line, not an exception.
 */
import { AttachmentError } from '../core/media/errors.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let loaded: Promise<PdfJs> | undefined;

/**
 * pdf.js and its worker code, loaded together. In Node pdf.js runs its worker in this thread (a "fake
 * worker"): given the worker's handler up front (`globalThis.pdfjsWorker`) it uses it, rather than
 * importing `./pdf.worker.mjs` beside itself on the first document — a file the bundle in dist/ does
 * not have there, and an import that made the first PDF of a process slow.
 */
const pdfjs = () =>
  (loaded ??= Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]).then(([lib, worker]) => {
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
    return lib;
  }));

/** Pages of the warm-up PDF: enough for V8 to compile pdf.js's text paths optimised, as a real document makes it. */
const WARM_UP_PAGES = 10;

/** A small PDF (WARM_UP_PAGES pages of text) the warm-up reads, written here rather than shipped as a file. */
function warmUpPdf(): Uint8Array {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  for (let p = 0; p < WARM_UP_PAGES; p++) {
    const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${Array.from({ length: 45 }, (_, l) => `(Warm-up page ${p + 1} line ${l + 1}) Tj T*`).join(' ')} ET`;
    kids.push(`${objects.length + 1} 0 R`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length + 2} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${WARM_UP_PAGES} >>`;
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/**
 * Loads pdf.js and reads a small PDF once (ARCHITECTURE.md §15), so a gateway's first PDF costs what a later
 * one does: the gateway calls it in the background after its ready line. The text it read, to check.
 */
/** Loads pdf.js (and its worker code) without reading anything: begun when a document is on its way. */
export async function preloadPdf(): Promise<void> {
  await pdfjs();
}

export async function warmPdf(): Promise<string> {
  return pdfText(warmUpPdf(), Number.MAX_SAFE_INTEGER);
}

export async function pdfText(bytes: Uint8Array, maxChars: number): Promise<string> {
  const lib = await pdfjs();
  // pdf.js takes the buffer over (transfers it): give it a copy.
  const task = lib.getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  let doc;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') throw new AttachmentError('encrypted', 'the PDF is password-protected');
    throw new AttachmentError('unreadable', 'the PDF is damaged or not a PDF');
  }
  try {
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages && chars < maxChars; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      page.cleanup();
      pages.push(text.trim());
      chars += text.length;
    }
    return pages.join('\n\n');
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
