/**
 * The bytes of stored images as a request carries them (base64), by media id (ARCHITECTURE.md §15). Every turn
 * resends the whole history, so the images of a session are read from the store once and kept, up to
 * a bound in bytes (least recently used go first); the same stored bytes give the same base64, so an
 * earlier image is byte-identical on every later turn.
 */
import { LRUCache } from 'lru-cache';
import type { ChatMessage } from '../messages.js';
import type { MediaStore } from './types.js';
import type { MediaData } from './parts.js';

export class MediaDataCache {
  private readonly lru: LRUCache<string, string>;

  constructor(maxBytes = 24 * 1024 * 1024) {
    this.lru = new LRUCache({ maxSize: maxBytes, sizeCalculation: (v) => v.length || 1 });
  }

  /** Keeps the base64 of `bytes`, just stored as `id` (the turn that stored them sends them next). */
  keep(id: string, bytes: Uint8Array): void {
    this.lru.set(id, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'));
  }

  /** The base64 of every image `messages` carry that the store still has (an image past retention is left out). */
  async load(store: MediaStore, messages: readonly ChatMessage[]): Promise<MediaData> {
    const out = new Map<string, string>();
    for (const m of messages) {
      if (m.role !== 'user' || !m.media) continue;
      for (const { id } of m.media) {
        if (out.has(id)) continue;
        let data = this.lru.get(id);
        if (data === undefined) {
          const bytes = await store.get(id);
          if (!bytes) continue;
          data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
          this.lru.set(id, data);
        }
        out.set(id, data);
      }
    }
    return out;
  }
}
