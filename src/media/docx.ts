import mammoth from 'mammoth';
import { AttachmentError } from '../core/media/errors.js';

/** The text of a DOCX (mammoth): paragraphs as lines; no images, no styles. */
export async function docxText(bytes: Uint8Array): Promise<string> {
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return value;
  } catch {
    throw new AttachmentError('unreadable', 'the Word document could not be read (damaged, or not a .docx)');
  }
}
