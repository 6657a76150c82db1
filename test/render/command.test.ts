/**
 * `switchboard render --platform P [--jsonl] [--html]`, driven through run() with in-memory streams,
 * the way a user or the held-out check pipes documents through it.
 */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run, usage } from '../../src/commands/render.js';
import { PLATFORM_IDS } from '../../src/platform/ids.js';

async function render(args: string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await run(args, { stdin: Readable.from([Buffer.from(input)]), stdout, stderr });
  return { code, stdout: out, stderr: err };
}

const lines = (s: string): unknown[] =>
  s
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);

describe('switchboard render', () => {
  it('renders stdin as one document: one JSON line with the chunks', async () => {
    const r = await render(['--platform', 'telegram'], '# Hi\n\n**there** & you');
    expect(r).toEqual({ code: 0, stdout: '{"chunks":["<b>Hi</b>\\n\\n<b>there</b> &amp; you"]}\n', stderr: '' });
  });

  it('--jsonl: one output line per input line; a bad line gives an error in its place and exit 1', async () => {
    const input = ['{"markdown":"@everyone hi"}', 'not json', '{"md":"x"}', '{"markdown":""}', '{"markdown":"*b*"}'].join('\n') + '\n';
    const r = await render(['--platform', 'discord', '--jsonl'], input);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out).toHaveLength(5);
    expect(out[0]).toEqual({ chunks: ['@\u200beveryone hi'] });
    expect(out[1]).toEqual({ error: expect.stringContaining('JSON') });
    expect(out[2]).toEqual({ error: expect.stringContaining('markdown') });
    expect(out[3]).toEqual({ chunks: [] });
    expect(out[4]).toEqual({ chunks: ['*b*'] });
  });

  it('--jsonl with only good lines exits 0 and splits long documents', async () => {
    const input = JSON.stringify({ markdown: 'word '.repeat(1000) }) + '\n' + JSON.stringify({ markdown: 'ok' }) + '\n';
    const r = await render(['--platform', 'discord', '--jsonl'], input);
    expect(r.code).toBe(0);
    const [first, second] = lines(r.stdout) as { chunks: string[] }[];
    expect(first.chunks.length).toBe(3);
    expect(second.chunks).toEqual(['ok']);
  });

  it('email: text body by default, the HTML alternative with --html', async () => {
    const text = await render(['--platform', 'email'], '# Report\n\n[site](https://x.io)');
    expect(lines(text.stdout)).toEqual([{ chunks: ['Report\n======\n\nsite (https://x.io)'] }]);
    const html = await render(['--platform', 'email', '--html'], '# Report');
    const [{ chunks }] = lines(html.stdout) as { chunks: string[] }[];
    expect(chunks[0]).toContain('<h1>Report</h1>');
  });

  it('cli renders terminal text without colours', async () => {
    const r = await render(['--platform', 'cli'], '**b**');
    expect(lines(r.stdout)).toEqual([{ chunks: ['b'] }]);
  });

  it('every platform the usage line offers is accepted, and every accepted one is offered', async () => {
    const offered = (stderr: string) => /\(one of ([^)]*)\)/.exec(stderr)?.[1].split(', ') ?? [];
    const unknown = offered((await render(['--platform', 'whatsapp'], 'x')).stderr);
    expect(offered((await render([], 'x')).stderr)).toEqual(unknown);
    expect(unknown.length).toBeGreaterThan(0);
    for (const platform of unknown) {
      const r = await render(['--platform', platform], '*hi*');
      expect({ platform, code: r.code, stderr: r.stderr }).toEqual({ platform, code: 0, stderr: '' });
    }
    const accepted = [];
    for (const platform of PLATFORM_IDS) if ((await render(['--platform', platform], 'x')).code === 0) accepted.push(platform);
    expect(unknown).toEqual(accepted);
  });

  it.each([
    [['--platform', 'myspace'], 'unknown platform'],
    [['--platform', 'cron'], 'not a render target'],
    [[], '--platform is required'],
    [['--platform', 'slack', '--html'], 'only for --platform email'],
  ])('bad usage %j: one line on stderr, exit 2', async (args, message) => {
    const r = await render(args, 'x');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('an unknown option: one line naming it, then the usage; exit 2', async () => {
    const r = await render(['--platform', 'slack', '--bogus'], 'x');
    expect(r).toEqual({ code: 2, stdout: '', stderr: `switchboard render: unknown option '--bogus'\n${usage}\n` });
  });
});
