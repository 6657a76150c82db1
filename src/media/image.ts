/**
 * Images (ARCHITECTURE.md §15): decoded by sharp (libvips) within a pixel limit, so a small file declaring
 * 20,000 × 20,000 pixels is refused before it is decoded; auto-rotated by its EXIF orientation (the
 * metadata itself is not kept), scaled to a long side of at most `maxSide`, and re-encoded once: JPEG,
 * or PNG where the image has transparency.
 */
import sharp from 'sharp';
import { AttachmentError } from '../core/media/errors.js';
import type { EncodedImage } from '../core/media/readers.js';

/** 40 megapixels: more than any phone camera, far less than a decompression bomb. */
export const MAX_INPUT_PIXELS = 40_000_000;

sharp.cache(false); // each image is read once: libvips' operation cache would only hold memory

/**
 * `mime`: the sniffed type; a JPEG has no transparency, so its header is not read a second time to ask.
 * Scaled with the Mitchell filter: a third fewer taps than sharp's default Lanczos-3 at the usual
 * 1.5× reduction of a phone photo, little ringing, and no difference a model would see.
 */
export async function reencodeImage(bytes: Uint8Array, maxSide: number, mime?: string): Promise<EncodedImage> {
  try {
    const input = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false });
    const alpha = mime === 'image/jpeg' ? false : (await input.metadata()).hasAlpha === true;
    const pipeline = input.rotate().resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true, kernel: 'mitchell' });
    const { data, info } = alpha
      ? await pipeline.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true })
      : await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: false }).toBuffer({ resolveWithObject: true });
    return { bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), mime: alpha ? 'image/png' : 'image/jpeg', width: info.width, height: info.height };
  } catch (error) {
    throw new AttachmentError('unreadable', imageProblem(error));
  }
}

function imageProblem(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(text)) return `the image is too large to decode (over ${MAX_INPUT_PIXELS / 1_000_000} megapixels)`;
  if (/premature end|truncated|unexpected end|corrupt|not a (jpeg|png)|bad|invalid/i.test(text)) return 'the image is damaged or cut short';
  if (/unsupported image format/i.test(text)) return 'the image format is not supported';
  return `the image could not be read (${text.split('\n')[0].slice(0, 120)})`;
}

/** Long side of the console's transcript thumbnails. */
export const THUMBNAIL_SIDE = 320;

/** A small copy of a stored image for the console (ARCHITECTURE.md §15): JPEG, or PNG where it has transparency. */
export async function thumbnailImage(bytes: Uint8Array, side = THUMBNAIL_SIDE): Promise<{ bytes: Uint8Array; mime: string }> {
  const input = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false });
  const alpha = (await input.metadata()).hasAlpha === true;
  const pipeline = input.resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
  const data = alpha ? await pipeline.png().toBuffer() : await pipeline.jpeg({ quality: 80 }).toBuffer();
  return { bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), mime: alpha ? 'image/png' : 'image/jpeg' };
}
