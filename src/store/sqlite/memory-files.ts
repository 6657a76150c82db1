/**
 * Memory on the embedded engine (ARCHITECTURE.md §5): `$SWITCHBOARD_HOME/memories/<person key>/MEMORY.md`
 * and `USER.md`, entries separated by a line holding only `§`. Writes are atomic (temp file +
 * rename), so a crash never leaves half a file.
 */
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { StorageError } from '../../core/errors.js';
import { MEMORY_FILES, memoryDir, parseEntries, serializeEntries } from '../../core/memory/entries.js';
import type { MemoryRepo, MemoryTarget } from '../../core/store/types.js';

function readRaw(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw new StorageError(`cannot read ${basename(path)}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

export class FileMemoryRepo implements MemoryRepo {
  constructor(private readonly home: string) {}

  async read(personKey: string, target: MemoryTarget): Promise<string[]> {
    return parseEntries(readRaw(join(memoryDir(this.home, personKey), MEMORY_FILES[target])));
  }

  async write(personKey: string, target: MemoryTarget, entries: readonly string[]): Promise<void> {
    const dir = memoryDir(this.home, personKey);
    const path = join(dir, MEMORY_FILES[target]);
    const tmp = join(dir, `.${MEMORY_FILES[target]}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(tmp, entries.length ? serializeEntries(entries) + '\n' : '', { encoding: 'utf8', mode: 0o600 });
      renameSync(tmp, path);
    } catch (error) {
      try {
        unlinkSync(tmp);
      } catch {
        // the temp file was never created
      }
      throw new StorageError(`cannot write ${MEMORY_FILES[target]}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, { cause: error });
    }
  }
}
