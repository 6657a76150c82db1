import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, systemText, type ModelFake } from '../fakes/model.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, runCli, sleep, startCli, until } from '../helpers/cli.js';

let model: ModelFake;
let home: string;
beforeAll(async () => {
  model = await startModelFake({ script: (req) => ({ text: `**Echo**: ${lastUserText(req)}` }) });
  home = mkdtempSync(join(tmpdir(), 'sb-chat-'));
});
afterAll(() => cleanUp(() => model?.close(), () => removeDir(home)));

describe('switchboard chat', () => {
  it('answers each piped line in its own turn, in order, and exits 0 at end of input', async () => {
    const env = cleanEnv({ SWITCHBOARD_HOME: home, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'sk-test-secret-key', MODEL: 'fake-model' });
    const before = model.completions().length;
    const res = await runCli(['chat'], { env, input: 'hello\nsecond line\n' });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('Echo: hello\nEcho: second line\n');
    expect(existsSync(join(home, 'state.db'))).toBe(true);
    const reqs = model.completions().slice(before);
    expect(reqs).toHaveLength(2);
    expect(systemText(reqs[1])).toBe(systemText(reqs[0]));
    expect(systemText(reqs[0])).toContain('cli');
    expect(res.stderr).not.toContain('sk-test-secret-key');
  });

  it('uses Anthropic when only its key is set, with the cached prompt as system blocks', async () => {
    const env = cleanEnv({ SWITCHBOARD_HOME: home, ANTHROPIC_API_KEY: 'sk-ant-e2e', ANTHROPIC_BASE_URL: model.anthropicUrl });
    const before = model.completions().length;
    const res = await runCli(['chat'], { env, input: 'one\ntwo\n' });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('Echo: one\nEcho: two\n');
    const reqs = model.completions().slice(before);
    expect(reqs.map((r) => r.api)).toEqual(['anthropic', 'anthropic']);
    expect(systemText(reqs[1])).toBe(systemText(reqs[0]));
    const prompt = await runCli(['prompt', '--platform', 'cli', '--user', 'local', '--json'], { env });
    expect(systemText(reqs[0])).toBe(JSON.parse(prompt.stdout).system);
  });

  it('tells how to configure a model when none is set and no local Ollama answers', async () => {
    const env = cleanEnv({ SWITCHBOARD_HOME: home });
    const res = await runCli(['chat'], { env, input: 'hi\n' });
    // every turn failed (issue 38): a pipe into chat without a model is a failed run
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/OPENAI_API_KEY/);
  });

  it('without a model: the ready line and /status say so honestly, and the how-to line is printed once', async () => {
    const env = cleanEnv({ SWITCHBOARD_HOME: mkdtempSync(join(tmpdir(), 'sb-nomodel-')) });
    const res = await runCli(['chat'], { env, input: '/status\nhi\nhello again\n/status\n' });
    expect(res.code).toBe(1); // no turn was answered (issue 38)
    expect(res.stderr).toMatch(/ready \(email, cli; no model configured or reachable; data in /);
    expect(res.stderr).not.toMatch(/llama3\.2|via auto|\(auto\)/);
    expect(res.stdout).toContain('No conversation yet. No model is configured or reachable.');
    expect(res.stdout).toContain('Model no model configured or reachable');
    // once per answer that needs it, never again in the log beside it
    expect(res.stdout.match(/set OPENAI_API_KEY/g)).toHaveLength(2);
    expect(res.stderr).not.toMatch(/set OPENAI_API_KEY/);
  });

  it('/help lists only the commands that work in the terminal; an unknown /command gets one line and no model call; /usage after /new', async () => {
    const env = cleanEnv({ SWITCHBOARD_HOME: mkdtempSync(join(tmpdir(), 'sb-cmds-')), OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'k', MODEL: 'fake-model' });
    const before = model.completions().length;
    const res = await runCli(['chat'], { env, input: '/help\n/frobnicate now\nhello\n/new\n/usage\n' });
    expect(res.code, res.stderr).toBe(0);
    const [help, rest] = [res.stdout.slice(0, res.stdout.indexOf('There is no')), res.stdout.slice(res.stdout.indexOf('There is no'))];
    expect(help).toMatch(/\/help/);
    expect(help).toMatch(/\/new/);
    expect(help).not.toMatch(/\/start|\/stop/);
    expect(rest.split('\n')).toEqual([
      'There is no command /frobnicate; /help lists the commands.',
      'Echo: hello',
      'Started a new conversation.',
      'This conversation: nothing yet',
      expect.stringMatching(/^Today \(UTC\): [1-9]\d* tokens; \$0$/),
      expect.stringMatching(/^All your conversations \(1\): [1-9]\d* in \(\d+ cached, \d+%\), [1-9]\d* out; \$0$/),
      '',
    ]);
    expect(model.completions().length - before).toBe(1);
  });
});

describe('switchboard start without credentials', () => {
  it('comes up on the terminal channel, answers piped lines, keeps running headless after end of input, and exits 0 on SIGTERM', async () => {
    const startHome = mkdtempSync(join(tmpdir(), 'sb-start-'));
    const gw = startCli(['start'], { env: cleanEnv({ SWITCHBOARD_HOME: startHome, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'k' }) });
    try {
      gw.child.stdin.end('ping\n');
      await gw.waitFor(/ready \(email, cli/);
      await gw.waitFor(/terminal input ended/);
      await until(() => gw.stdout().includes('Echo: ping'), 10_000, 'the answer to ping', gw);
      expect(gw.stdout()).toBe('Echo: ping\n');
      expect(existsSync(join(startHome, 'state.db'))).toBe(true);
      await sleep(1000);
      expect(gw.child.exitCode).toBeNull();
      expect(await gw.stop('SIGTERM')).toBe(0);
    } finally {
      await cleanUp(() => killIfRunning(gw), () => removeDir(startHome));
    }
  });
});

describe('bad input', () => {
  it('gives one clear line and a non-zero exit for a bad config, never a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-badcfg-'));
    try {
      writeFileSync(join(dir, 'config.yaml'), 'model:\n  nmae: x\n');
      const res = await runCli(['chat'], { env: cleanEnv({ SWITCHBOARD_HOME: dir }), input: '' });
      expect(res.code).not.toBe(0);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(/unknown setting 'model.nmae'/);
      writeFileSync(join(dir, 'config.yaml'), 'model: [unclosed\n');
      const bad = await runCli(['prompt', '--platform', 'telegram', '--user', '1'], { env: cleanEnv({ SWITCHBOARD_HOME: dir }) });
      expect(bad.code).not.toBe(0);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect(bad.stderr).toMatch(/not valid YAML/);
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    } finally {
      removeDir(dir);
    }
  });

  it('rejects an unknown platform with one line', async () => {
    const res = await runCli(['prompt', '--platform', 'myspace', '--user', '1'], { env: cleanEnv({ SWITCHBOARD_HOME: home }) });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown platform 'myspace'/);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });
});
