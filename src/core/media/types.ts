/**
 * The media store (ARCHITECTURE.md §15): bytes people sent (and files the agent sends), kept
 * content-addressed by their SHA-256 so the same photo is stored once and an earlier image is
 * byte-identical on every later turn (the prefix cache holds). The engines implement it: files in
 * `$SWITCHBOARD_HOME/media/<sha256>` with a row each (SQLite), `bytea` rows (PostgreSQL, so every
 * instance sees them). Used outside store transactions.
 */

/** What a stored file is known by: enough to name it and to fetch its bytes again. */
export interface MediaRef {
  /** SHA-256 of the bytes, lowercase hex: the key. */
  readonly id: string;
  /** The type sniffed from the bytes (or `application/octet-stream`). */
  readonly mime: string;
  /** Size in bytes. */
  readonly bytes: number;
}

export interface MediaStore {
  /** Stores `bytes` (once: the same bytes again only refresh their age) and returns their reference. */
  put(bytes: Uint8Array, mime: string): Promise<MediaRef>;
  /** The bytes of `id`, or undefined when they are not (or no longer) stored. */
  get(id: string): Promise<Uint8Array | undefined>;
  /** What is stored under `id`, without its bytes. */
  stat(id: string): Promise<MediaRef | undefined>;
  /** Removes `id`; true when it was stored. */
  delete(id: string): Promise<boolean>;
  /** Removes everything last stored before `olderThan` (epoch ms); how many files went. */
  sweep(olderThan: number): Promise<number>;
}

/** A media id as the store writes it: 64 lowercase hex digits (anything else names no file). */
export function isMediaId(id: string): boolean {
  return /^[0-9a-f]{64}$/.test(id);
}
