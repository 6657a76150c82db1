/**
 * PDF text (ARCHITECTURE.md §15) with pdfjs-dist 4's legacy build (the one that runs on Node 20), no worker
 * thread, no fonts loaded, no eval. Pages are read in order until `maxChars` are had; an encrypted
 * PDF is one line, not an exception.
 */
import { AttachmentError } from '../core/media/errors.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let loaded: Promise<PdfJs> | undefined;
const pdfjs = () => (loaded ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

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
