import { fileTypeFromBuffer } from 'file-type';

/** The type the bytes are by their magic numbers (file-type), or undefined: never the name or the platform's word. */
export async function sniffMime(bytes: Uint8Array): Promise<string | undefined> {
  return (await fileTypeFromBuffer(bytes))?.mime;
}
