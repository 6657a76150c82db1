/**
 * How a user message's images appear in a model request (ARCHITECTURE.md §15): the image itself when the
 * request carries its bytes, else one line naming it — the same line on every turn, so the prefix stays.
 */
import type { MessageMedia } from '../messages.js';

/** A media id → its stored bytes as base64, for the images a request shows (absent: not shown). */
export type MediaData = ReadonlyMap<string, string>;

/** `240 KB`, `1.5 MB`, `312 bytes`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What the user is told, once per session, when the model sees no images (ARCHITECTURE.md §15). */
export const NO_VISION_NOTICE = 'This model cannot see images (model.vision): it was told only the name, type and size of each.';

/** The line that stands for an image the model is not shown. */
export function imagePlaceholder(m: MessageMedia): string {
  return `[image "${m.name}", ${m.mime}, ${formatSize(m.bytes)}: not shown, this model takes no images]`;
}

/** The `data:` URL of a stored image. */
export function dataUrl(m: MessageMedia, base64: string): string {
  return `data:${m.mime};base64,${base64}`;
}
