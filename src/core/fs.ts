import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p`, one folder at a time. Node's `mkdirSync(path, { recursive: true })` never returns for
 * a path under /proc (it keeps retrying ENOENT), so a data folder where mkdir cannot work would hang
 * the command instead of failing; this throws the first folder's error (ENOENT, ENOTDIR, EACCES).
 */
export function makeDirs(path: string): void {
  const missing: string[] = [];
  for (let p = resolve(path); !existsSync(p); p = dirname(p)) {
    missing.unshift(p);
    if (dirname(p) === p) break;
  }
  for (const dir of missing) mkdirSync(dir);
}
