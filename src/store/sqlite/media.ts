import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { prepare, type Runner } from './db.js';
import { isMediaId, type MediaRef, type MediaStore } from '../../core/media/types.js';
import { mediaId } from '../../core/media/hash.js';

interface MediaRow {
  id: string;
  mime: string;
  bytes: number;
}

/**
 * Media on the embedded engine (ARCHITECTURE.md §15): the bytes as files in `<home>/media/<sha256>`
 * (written to a temporary name and renamed, so a reader never sees half a file), one row each in
 * `media` for type, size and age. The row is written after the file, so a row always has its file.
 */
export class SqliteMediaStore implements MediaStore {
  private readonly dir: string;

  constructor(
    private readonly run: Runner,
    home: string,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = join(home, 'media');
  }

  async put(bytes: Uint8Array, mime: string): Promise<MediaRef> {
    const id = mediaId(bytes);
    const file = join(this.dir, id);
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const known = prepare(this.run.db, 'SELECT id FROM media WHERE id = ?').get(id);
    if (!known) {
      mkdirSync(this.dir, { recursive: true });
      const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      writeFileSync(tmp, bytes);
      renameSync(tmp, file);
    }
    prepare(
      this.run.db,
      'INSERT INTO media (id, mime, bytes, stored_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET stored_at = excluded.stored_at',
    ).run(id, mime, bytes.byteLength, this.now());
    const row = prepare(this.run.db, 'SELECT id, mime, bytes FROM media WHERE id = ?').get(id) as MediaRow;
    return { id: row.id, mime: row.mime, bytes: row.bytes };
  }

  async get(id: string): Promise<Uint8Array | undefined> {
    if (!(await this.stat(id))) return undefined;
    try {
      return new Uint8Array(readFileSync(join(this.dir, id)));
    } catch {
      return undefined;
    }
  }

  async stat(id: string): Promise<MediaRef | undefined> {
    if (!isMediaId(id)) return undefined;
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const row = prepare(this.run.db, 'SELECT id, mime, bytes FROM media WHERE id = ?').get(id) as MediaRow | undefined;
    return row && { id: row.id, mime: row.mime, bytes: row.bytes };
  }

  async delete(id: string): Promise<boolean> {
    if (!isMediaId(id)) return false;
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const gone = prepare(this.run.db, 'DELETE FROM media WHERE id = ?').run(id).changes > 0;
    rmSync(join(this.dir, id), { force: true });
    return gone;
  }

  async sweep(olderThan: number): Promise<number> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const db = this.run.db;
    const ids = db.transaction(() => {
      const rows = prepare(db, 'SELECT id FROM media WHERE stored_at < ?').all(olderThan) as Array<{ id: string }>;
      for (const { id } of rows) prepare(db, 'DELETE FROM media WHERE id = ?').run(id);
      return rows.map((r) => r.id);
    })();
    for (const id of ids) rmSync(join(this.dir, id), { force: true });
    return ids.length;
  }
}
