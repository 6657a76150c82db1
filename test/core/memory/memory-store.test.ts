/**
 * The memory format and limits (src/core/memory/entries.ts) and the embedded engine's memory files
 * (FileMemoryRepo: $SWITCHBOARD_HOME/memories/<person key>/MEMORY.md, USER.md).
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageError, UsageError } from '../../../src/core/errors.js';
import { cutToLimit, MEMORY_FILES, memoryDir, parseEntries, serializeEntries } from '../../../src/core/memory/entries.js';
import { FileMemoryRepo } from '../../../src/store/sqlite/memory-files.js';
import { sandbox, type Sandbox } from '../prompt/fixtures.js';

// root ignores file permissions, so chmod cannot make a folder read-only for it.
const isRoot = process.getuid?.() === 0;

let sb: Sandbox;
let repo: FileMemoryRepo;
beforeEach(() => {
  sb = sandbox();
  repo = new FileMemoryRepo(sb.home);
});
afterEach(() => sb.cleanup());

/** What a read for the prompt gives: the stored entries cut to the limit. */
async function readMemory(personKey: string, target: 'memory' | 'user', limit: number) {
  return cutToLimit(await repo.read(personKey, target), limit);
}

describe('entry format', () => {
  it('splits on a line holding only §, trims entries and drops empty ones', () => {
    expect(parseEntries('\uFEFFone\r\n§\r\n two \n  §  \n\n§\nthree\nstill three\n')).toEqual(['one', 'two', 'three\nstill three']);
    expect(parseEntries('')).toEqual([]);
    expect(parseEntries('a § b')).toEqual(['a § b']);
    expect(serializeEntries(['a', 'b'])).toBe('a\n§\nb');
  });
});

describe('memoryDir', () => {
  it('maps a person key to memories/<key>', () => {
    expect(memoryDir(sb.home, 'telegram-1001')).toBe(join(sb.home, 'memories', 'telegram-1001'));
    expect(join(memoryDir(sb.home, 'email-bob@example.com'), MEMORY_FILES.user)).toBe(join(sb.home, 'memories', 'email-bob@example.com', 'USER.md'));
  });

  it('refuses keys that could reach another folder', async () => {
    for (const key of ['..', '.', '../alice', 'a/b', 'a\\b', '.hidden', 'x..y', '', 'a\0b']) {
      expect(() => memoryDir(sb.home, key), key).toThrow(UsageError);
      await expect(repo.read(key, 'memory'), key).rejects.toThrow(UsageError);
      await expect(repo.write(key, 'user', ['x']), key).rejects.toThrow(UsageError);
    }
    expect(readdirSync(sb.root).sort()).toEqual(['home', 'repo']);
  });
});

describe('cutToLimit', () => {
  it('keeps everything within the limit', () => {
    expect(cutToLimit([], 2200)).toEqual({ entries: [], text: '', chars: 0, truncated: false });
    expect(cutToLimit(['Likes tea.', 'Uses vim.'], 22)).toEqual({ entries: ['Likes tea.', 'Uses vim.'], text: 'Likes tea.\n§\nUses vim.', chars: 22, truncated: false });
  });
});

describe('FileMemoryRepo', () => {
  it('reads nothing for a person without files', async () => {
    expect(await repo.read('telegram-9', 'memory')).toEqual([]);
    expect(await readMemory('telegram-9', 'memory', 2200)).toEqual({ entries: [], text: '', chars: 0, truncated: false });
  });

  it('writes atomically (no temp file left) and reads back', async () => {
    await repo.write('telegram-1', 'memory', ['Likes tea.', 'Uses vim.']);
    const dir = memoryDir(sb.home, 'telegram-1');
    expect(readdirSync(dir)).toEqual(['MEMORY.md']);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('Likes tea.\n§\nUses vim.\n');
    expect(await readMemory('telegram-1', 'memory', 2200)).toMatchObject({ entries: ['Likes tea.', 'Uses vim.'], chars: 22, truncated: false });
  });

  it('cuts to the limit at an entry boundary, or hard-cuts a single long entry', async () => {
    await repo.write('telegram-1', 'memory', ['aaaa', 'bbbb', 'cccc']);
    expect(await readMemory('telegram-1', 'memory', 12)).toMatchObject({ entries: ['aaaa', 'bbbb'], text: 'aaaa\n§\nbbbb', truncated: true });
    await repo.write('telegram-1', 'user', ['😀'.repeat(10)]);
    const user = await readMemory('telegram-1', 'user', 4);
    expect(user.text).toBe('😀😀😀😀');
    expect(user.chars).toBe(4);
  });

  it('reads entries uncut and keeps each person and file apart', async () => {
    const long = Array.from({ length: 50 }, (_, i) => `Entry ${i} ${'x'.repeat(80)}`);
    await repo.write('telegram-1', 'memory', long);
    await repo.write('telegram-2', 'memory', ['Bob only.']);
    expect(await repo.read('telegram-1', 'memory')).toEqual(long);
    expect(await repo.read('telegram-1', 'user')).toEqual([]);
    expect(await repo.read('telegram-2', 'memory')).toEqual(['Bob only.']);
    await repo.write('telegram-1', 'memory', []);
    expect(readFileSync(join(memoryDir(sb.home, 'telegram-1'), 'MEMORY.md'), 'utf8')).toBe('');
    expect(await repo.read('telegram-1', 'memory')).toEqual([]);
  });

  it('a failed write throws StorageError and leaves no temp file behind', async () => {
    // MEMORY.md is a folder holding a file, so the final rename fails (also for root).
    const dir = memoryDir(sb.home, 'telegram-1');
    mkdirSync(join(dir, 'MEMORY.md'), { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md', 'x'), '');
    await expect(repo.write('telegram-1', 'memory', ['Lost.'])).rejects.toThrow(StorageError);
    expect(readdirSync(dir)).toEqual(['MEMORY.md']);
  });

  it.skipIf(isRoot)('a failed write leaves the old file whole (skipped as root: chmod does not stop root)', async () => {
    await repo.write('telegram-1', 'memory', ['Kept.']);
    const dir = memoryDir(sb.home, 'telegram-1');
    chmodSync(dir, 0o555);
    try {
      await expect(repo.write('telegram-1', 'memory', ['Lost.'])).rejects.toThrow(StorageError);
    } finally {
      chmodSync(dir, 0o755);
    }
    expect(readdirSync(dir)).toEqual(['MEMORY.md']);
    expect(await repo.read('telegram-1', 'memory')).toEqual(['Kept.']);
  });
});
