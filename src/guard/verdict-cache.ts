/**
 * Where the second opinion keeps its verdicts, by content hash (src/guard/second-opinion.ts): an
 * unchanged file, entry or tool result is never sent twice. The file cache keeps them in
 * `$SWITCHBOARD_HOME/guard-verdicts.jsonl`, one `{"h": hash, "s": score}` a line, appended as they
 * come, read once at the first look-up and kept to MAX_ENTRIES (oldest first out).
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface VerdictCache {
  get(hash: string): Promise<number | undefined>;
  set(hash: string, score: number): Promise<void>;
}

export const MAX_ENTRIES = 20_000;

export const VERDICTS_FILE = 'guard-verdicts.jsonl';

/** A cache in memory only (tests; a process that may not write its home). */
export function memoryVerdictCache(): VerdictCache {
  const map = new Map<string, number>();
  return { get: async (h) => map.get(h), set: async (h, s) => void map.set(h, s) };
}

/** The cache in `home`/guard-verdicts.jsonl. A line it cannot read is skipped; a write that fails is logged by nobody and costs one more request later. */
export function fileVerdictCache(home: string): VerdictCache {
  const path = join(home, VERDICTS_FILE);
  let map: Map<string, number> | null = null;
  const load = (): Map<string, number> => {
    if (map) return map;
    map = new Map();
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return map;
    }
    for (const line of text.split('\n')) {
      try {
        const row = JSON.parse(line) as { h?: unknown; s?: unknown };
        if (typeof row.h === 'string' && typeof row.s === 'number') map.set(row.h, row.s);
      } catch {
        // a torn last line from a crash: skipped
      }
    }
    return map;
  };
  return {
    async get(hash) {
      return load().get(hash);
    },
    async set(hash, score) {
      const m = load();
      m.set(hash, score);
      try {
        if (m.size > MAX_ENTRIES) {
          const kept = [...m].slice(-Math.floor(MAX_ENTRIES / 2));
          map = new Map(kept);
          writeFileSync(path, kept.map(([h, s]) => JSON.stringify({ h, s })).join('\n') + '\n', { mode: 0o600 });
        } else appendFileSync(path, JSON.stringify({ h: hash, s: score }) + '\n', { mode: 0o600 });
      } catch {
        // kept in memory; the next process asks once more
      }
    },
  };
}
