/**
 * Issue 38, points 8 and 10, through the real `switchboard chat` with piped input: binary input is
 * refused line by line without a model call, a run whose every turn failed exits 1, an HTTP 500 is
 * told as the model's error (not "cannot be reached"), and a YAML mistake names the right line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';

let model: ModelFake;
let home: string;
beforeAll(async () => {
  model = await startModelFake({
    script: (req) => (lastUserText(req).includes('fail please') ? { status: 500, headers: { 'x-should-retry': 'false' } } : { text: `Echo: ${lastUserText(req)}` }),
  });
  home = mkdtempSync(join(tmpdir(), 'sb-chat-input-'));
});
afterAll(() => cleanUp(() => model?.close(), () => removeDir(home)));

const env = () => cleanEnv({ SWITCHBOARD_HOME: home, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'k', MODEL: 'fake-model' });

/** Bytes from a fixed seed (mulberry32): the same "random" input on every run. */
function randomBytes(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  let a = seed;
  for (let i = 0; i < size; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

// Each test starts the command once or twice; on a loaded machine that alone can take 10 s.
describe('switchboard chat, piped input (issue 38)', { timeout: 120_000 }, () => {
  it('200 KB of random bytes: every line refused with one line each, no model call, exit 1', async () => {
    const input = randomBytes(200 * 1024, 38);
    const lines = input.toString('latin1').split('\n').length;
    const before = model.completions().length;
    const res = await runCli(['chat'], { env: env(), input, timeoutMs: 60_000 });
    expect(model.completions().length - before).toBe(0);
    const out = res.stdout.trim().split('\n');
    expect(out.length).toBeGreaterThan(600);
    expect(out.length).toBeLessThanOrEqual(lines);
    for (const line of out) expect(line).toMatch(/^Line \d+ is not text \(binary data or not UTF-8\); it was not sent to the model\.$/);
    expect(res.code).toBe(1);
  });

  it('text lines around a binary one are answered; the binary line is refused; exit 0', async () => {
    const input = Buffer.concat([Buffer.from('hello\n'), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a]), Buffer.from('caf\u00e9 ok\n')]);
    const before = model.completions().length;
    const res = await runCli(['chat'], { env: env(), input, timeoutMs: 60_000 });
    expect(res.stdout).toBe('Echo: hello\nLine 2 is not text (binary data or not UTF-8); it was not sent to the model.\nEcho: café ok\n');
    expect(model.completions().length - before).toBe(2);
    expect(res.code).toBe(0);
  });

  it('an HTTP 500 is told as an error of the model service, not as "cannot be reached"; every turn failed: exit 1', async () => {
    const res = await runCli(['chat'], { env: env(), input: 'fail please\n', timeoutMs: 60_000 });
    expect(res.stdout).toMatch(/^Sorry, I could not answer that: the model service answered with an error \(HTTP 500\)\. Your message is kept/);
    expect(res.stdout).not.toMatch(/cannot be reached/);
    expect(res.code).toBe(1);
    // one answered turn among failed ones: exit 0
    const mixed = await runCli(['chat'], { env: env(), input: 'fail please\nhello\n', timeoutMs: 60_000 });
    expect(mixed.code).toBe(0);
  });

  it('render --help documents the --jsonl input, and its example is what render does', async () => {
    const help = await runCli(['render', '--help'], { env: env(), timeoutMs: 60_000 });
    expect(help.code).toBe(0);
    const examples = [...help.stdout.matchAll(/^ {2}(\{"markdown".*\}) {2,}→ {2}(\{.*?\})(?: {2,}|$)/gm)].map((m) => [m[1], m[2]]);
    expect(examples).toHaveLength(2);
    const res = await runCli(['render', '--platform', 'telegram', '--jsonl'], { env: env(), input: `${examples.map((e) => e[0]).join('\n')}\n\nnot json\n`, timeoutMs: 60_000 });
    const lines = res.stdout.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(examples.map((e) => e[1]));
    expect(lines[2]).toMatch(/^\{"error":/);
    expect(res.code).toBe(1);
  });

  it('a YAML key indented too deep is named at its own line, not the one above', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-yaml-'));
    try {
      writeFileSync(join(dir, 'config.yaml'), '# settings\nmodel:\n  name: gpt-4o-mini\n    context_window: 5000\n');
      const res = await runCli(['chat'], { env: cleanEnv({ SWITCHBOARD_HOME: dir }), timeoutMs: 60_000 });
      expect(res.code).not.toBe(0);
      expect(res.stderr.trim()).toMatch(/config\.yaml: not valid YAML: .* at line 4, column 5$/);
    } finally {
      removeDir(dir);
    }
  });
});
