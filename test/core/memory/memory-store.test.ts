import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import {
  memoryDir,
  memoryPath,
  parseEntries,
  readMemory,
  serializeEntries,
  writeEntries,
} from '../../../src/core/memory/memory-store.js';
import { sandbox, type Sandbox } from '../prompt/fixtures.js';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

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
    expect(memoryPath(sb.home, 'email-bob@example.com', 'user')).toBe(join(sb.home, 'memories', 'email-bob@example.com', 'USER.md'));
  });

  it('refuses keys that could reach another folder', () => {
    for (const key of ['..', '.', '../alice', 'a/b', 'a\\b', '.hidden', 'x..y', '', 'a\0b']) {
      expect(() => memoryDir(sb.home, key), key).toThrow(UsageError);
    }
  });
});

describe('readMemory / writeEntries', () => {
  it('reads nothing for a person without files', () => {
    expect(readMemory(sb.home, 'telegram-9', 'memory', 2200)).toEqual({ entries: [], text: '', chars: 0, truncated: false });
  });

  it('writes atomically (no temp file left) and reads back', () => {
    writeEntries(sb.home, 'telegram-1', 'memory', ['Likes tea.', 'Uses vim.']);
    const dir = memoryDir(sb.home, 'telegram-1');
    expect(readdirSync(dir)).toEqual(['MEMORY.md']);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('Likes tea.\n§\nUses vim.\n');
    expect(readMemory(sb.home, 'telegram-1', 'memory', 2200)).toMatchObject({ entries: ['Likes tea.', 'Uses vim.'], chars: 22, truncated: false });
  });

  it('cuts to the limit at an entry boundary, or hard-cuts a single long entry', () => {
    writeEntries(sb.home, 'telegram-1', 'memory', ['aaaa', 'bbbb', 'cccc']);
    expect(readMemory(sb.home, 'telegram-1', 'memory', 12)).toMatchObject({ entries: ['aaaa', 'bbbb'], text: 'aaaa\n§\nbbbb', truncated: true });
    writeEntries(sb.home, 'telegram-1', 'user', ['😀'.repeat(10)]);
    const user = readMemory(sb.home, 'telegram-1', 'user', 4);
    expect(user.text).toBe('😀😀😀😀');
    expect(user.chars).toBe(4);
  });
});
