/**
 * The send_file tool (ARCHITECTURE.md §7b, §15) with the real media store: a workspace file or base64 data
 * becomes a file of the turn's reply, its type sniffed from the bytes; a path outside the workspace,
 * a symlink out of it, a missing, empty or oversized file is refused in one line and nothing is attached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { createSendFileTool } from '../../src/core/tools/send-file.js';
import { TurnFiles } from '../../src/core/outbound-files.js';
import type { Store } from '../../src/core/store/types.js';
import type { ToolContext } from '../../src/core/tools/types.js';
import { opusFile, pngFile } from '../helpers/media-files.js';

let root: string;
let workspace: string;
let store: Store;
const png = pngFile(20, 20);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sb-send-file-'));
  workspace = join(root, 'work');
  mkdirSync(join(workspace, 'charts'), { recursive: true });
  writeFileSync(join(workspace, 'charts', 'sales.png'), png);
  writeFileSync(join(workspace, 'empty.txt'), '');
  writeFileSync(join(workspace, 'big.bin'), Buffer.alloc(4096, 1));
  writeFileSync(join(workspace, 'notes.md'), '# Notes\n');
  writeFileSync(join(root, 'secret.txt'), 'outside');
  symlinkSync(join(root, 'secret.txt'), join(workspace, 'link-out.txt'));
  symlinkSync(join(workspace, 'charts', 'sales.png'), join(workspace, 'link-in.png'));
  store = openSqliteStore({ path: join(root, 'state.db'), home: root });
});
afterAll(async () => {
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

const tool = () => createSendFileTool({ workspace, maxBytes: 2000 });

function ctx(files: TurnFiles | null): ToolContext {
  return { ...(files ? { attach: files.attach } : {}) } as ToolContext;
}

describe('send_file', () => {
  it('attaches a workspace file (also through a symlink inside it) with its sniffed type, and base64 data', async () => {
    const files = new TurnFiles(store.media);
    expect(await tool().run({ path: 'charts/sales.png', caption: 'Sales' }, ctx(files))).toMatch(/^Sent sales\.png \(/);
    expect(await tool().run({ path: join(workspace, 'link-in.png') }, ctx(files))).toMatch(/^Sent sales\.png/);
    expect(await tool().run({ data: opusFile(100).toString('base64'), name: 'voice.ogg' }, ctx(files))).toMatch(/^Sent voice\.ogg/);
    expect(await tool().run({ path: 'notes.md' }, ctx(files))).toMatch(/^Sent notes\.md/);
    expect(files.refs.map((r) => [r.name, r.mime, r.caption])).toEqual([
      ['sales.png', 'image/png', 'Sales'],
      ['sales.png', 'image/png', undefined],
      ['voice.ogg', 'audio/ogg; codecs=opus', undefined],
      ['notes.md', 'text/markdown', undefined],
    ]);
    expect(Buffer.from((await store.media.get(files.refs[0].media))!).equals(png)).toBe(true);
  });

  it('refuses, in one line, paths outside the workspace, symlinks out, missing, empty and oversized files, and bad arguments', async () => {
    const files = new TurnFiles(store.media);
    const run = (args: unknown) => tool().run(args, ctx(files));
    expect(await run({ path: '../secret.txt' })).toBe(`Error: ../secret.txt is outside the workspace (${workspace}); only files in it can be sent.`);
    expect(await run({ path: join(root, 'secret.txt') })).toMatch(/is outside the workspace/);
    expect(await run({ path: 'link-out.txt' })).toBe('Error: link-out.txt links to a place outside the workspace; only files in it can be sent.');
    expect(await run({ path: 'nope.png' })).toBe('Error: there is no file nope.png in the workspace.');
    expect(await run({ path: 'charts' })).toBe('Error: charts is not a file.');
    expect(await run({ path: 'empty.txt' })).toBe('Error: empty.txt is empty (0 bytes); nothing was sent.');
    expect(await run({ path: 'big.bin' })).toBe('Error: big.bin is 4 kB; files over 2 kB are not sent.');
    expect(await run({ path: 'a', data: 'AAAA', name: 'x' })).toMatch(/^Error: arguments: give either `path`/);
    expect(await run({ data: 'AAAA' })).toMatch(/^Error: name: `name` is needed with `data`/);
    expect(await run({ data: '***', name: 'x' })).toBe('Error: data: not base64.');
    for (const r of [await run({ path: 'charts/sales.png' })]) expect(r.split('\n')).toHaveLength(1);
    expect(files.refs).toHaveLength(1); // only the last, valid one
    expect(await tool().run({ path: 'charts/sales.png' }, ctx(null))).toBe('Error: files cannot be sent from here.');
  });

  it('does not act outside the conversation (no approval needed in a tainted turn)', () => {
    expect(tool().actsOutside).toBe(false);
  });
});
