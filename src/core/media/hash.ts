import { createHash } from 'node:crypto';

/** The media id of `bytes`: SHA-256, lowercase hex (ARCHITECTURE.md §15). */
export function mediaId(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
