import type { Runner } from './db.js';
import { isMediaId, type MediaRef, type MediaStore } from '../../core/media/types.js';
import { mediaId } from '../../core/media/hash.js';

interface MediaRow {
  id: string;
  mime: string;
  bytes: number;
}

/**
 * Media on the shared engine (ARCHITECTURE.md §15): the bytes in a `bytea` column, so every instance
 * sees what any of them stored. The same bytes twice are one row (ON CONFLICT refreshes the age).
 */
export class PgMediaStore implements MediaStore {
  constructor(
    private readonly run: Runner,
    private readonly now: () => number = Date.now,
  ) {}

  async put(bytes: Uint8Array, mime: string): Promise<MediaRef> {
    const id = mediaId(bytes);
    const [row] = await this.run.rows<MediaRow>(
      `INSERT INTO media (id, mime, bytes, data, stored_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET stored_at = EXCLUDED.stored_at
       RETURNING id, mime, bytes`,
      [id, mime, bytes.byteLength, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), this.now()],
    );
    return { id: row.id, mime: row.mime, bytes: Number(row.bytes) };
  }

  async get(id: string): Promise<Uint8Array | undefined> {
    if (!isMediaId(id)) return undefined;
    const [row] = await this.run.rows<{ data: Buffer }>('SELECT data FROM media WHERE id = $1', [id]);
    return row && new Uint8Array(row.data);
  }

  async stat(id: string): Promise<MediaRef | undefined> {
    if (!isMediaId(id)) return undefined;
    const [row] = await this.run.rows<MediaRow>('SELECT id, mime, bytes FROM media WHERE id = $1', [id]);
    return row && { id: row.id, mime: row.mime, bytes: Number(row.bytes) };
  }

  async delete(id: string): Promise<boolean> {
    if (!isMediaId(id)) return false;
    return (await this.run.exec('DELETE FROM media WHERE id = $1', [id])) > 0;
  }

  async sweep(olderThan: number): Promise<number> {
    return this.run.exec('DELETE FROM media WHERE stored_at < $1', [olderThan]);
  }
}
