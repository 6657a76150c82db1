/**
 * Per-person memory files (ARCHITECTURE.md §5): `$SWITCHBOARD_HOME/memories/<person key>/MEMORY.md` (the
 * agent's notes, `limits.memory_chars`) and `USER.md` (the person's profile, `limits.user_chars`).
 *
 * Entry format: a file is a list of entries separated by a line holding only `§`:
 *
 *     Prefers answers in German.
 *     §
 *     Works on the billing service; deploys on Fridays.
 *
 * The limit counts the code points of the whole file text (entries plus separators, without the
 * trailing newline). Reads cut an over-long file to its limit, keeping whole entries where possible.
 * Where the entries are kept is the store's business (files with SQLite, rows with PostgreSQL);
 * this module is the format and the limits, no I/O.
 */
import { resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { charLength, normalizeNewlines, stripBom, takeChars } from '../prompt/text.js';
import type { MemoryTarget } from '../store/types.js';

export type { MemoryTarget } from '../store/types.js';

export const MEMORY_FILES: Readonly<Record<MemoryTarget, string>> = { memory: 'MEMORY.md', user: 'USER.md' };

/** The separator between entries, as written. */
export const ENTRY_SEPARATOR = '\n§\n';
const SEPARATOR_LINE = /\n[ \t]*§[ \t]*\n/;

/**
 * Person keys are folder names: `telegram-1001`, `alice`, `email-bob@example.com`, with any other
 * character percent-escaped by `personKey` (`email-o%27brien@example.com`).
 */
const PERSON_KEY = /^[A-Za-z0-9@_+%-][A-Za-z0-9@._+%-]{0,199}$/;

/**
 * The memory folder of a person. Throws UsageError for a key that could leave `memories/`
 * (`..`, slashes, a leading dot), so no caller can reach another person's folder by its key.
 */
export function memoryDir(home: string, personKey: string): string {
  if (!PERSON_KEY.test(personKey) || personKey.includes('..')) throw new UsageError(`invalid person key '${personKey.slice(0, 60)}'`);
  const root = resolve(home, 'memories');
  const dir = resolve(root, personKey);
  if (!dir.startsWith(root + sep)) throw new UsageError(`invalid person key '${personKey.slice(0, 60)}'`);
  return dir;
}

/** Splits file text into trimmed, non-empty entries. */
export function parseEntries(text: string): string[] {
  return normalizeNewlines(stripBom(text))
    .split(SEPARATOR_LINE)
    .map((e) => e.trim())
    .filter((e) => e.length > 0 && e !== '§');
}

export function serializeEntries(entries: readonly string[]): string {
  return entries.join(ENTRY_SEPARATOR);
}

export interface MemoryFile {
  entries: string[];
  /** Serialized entries (what the prompt shows). */
  text: string;
  /** Code points of `text`. */
  chars: number;
  /** True when the file on disk was longer than the limit and was cut. */
  truncated: boolean;
}

/**
 * Entries cut to `limit`: whole entries while they fit; if even the first entry is too long, its
 * first `limit` characters.
 */
export function cutToLimit(all: readonly string[], limit: number): MemoryFile {
  const kept: string[] = [];
  let chars = 0;
  for (const entry of all) {
    const cost = charLength(entry) + (kept.length ? ENTRY_SEPARATOR.length : 0);
    if (chars + cost > limit) break;
    kept.push(entry);
    chars += cost;
  }
  if (kept.length === 0 && all.length > 0) kept.push(takeChars(all[0], limit).trimEnd());
  const text = serializeEntries(kept);
  return { entries: kept, text, chars: charLength(text), truncated: kept.length < all.length || text !== serializeEntries(all) };
}
