/**
 * The terminal channel as a newcomer meets it (issue #20): `start` with no platform credentials on
 * a terminal. Runs `serve` in-process with streams that say they are a TTY (a child process would
 * need a pseudo-terminal).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../src/commands/serve.js';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { cleanUp, removeDir, until } from '../helpers/cli.js';

let model: ModelFake;
let root: string;
beforeAll(async () => {
  model = await startModelFake({ script: (req) => ({ text: `Echo: ${lastUserText(req)}` }) });
  root = mkdtempSync(join(tmpdir(), 'sb-serve-'));
});
afterAll(() => cleanUp(() => model?.close(), () => removeDir(root)));

let n = 0;
function terminal(extraEnv: Record<string, string> = {}) {
  const home = join(root, `home-${++n}`);
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  let out = '';
  // What the terminal shows, without readline's cursor moves and the bracketed-paste switch (issue 38).
  stdout.on('data', (d: Buffer) => (out += d.toString().replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')));
  const stderr = vi.spyOn(process.stderr, 'write');
  const env = { SWITCHBOARD_HOME: home, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'k', MODEL: 'fake-model', NO_COLOR: '1', SWITCHBOARD_CONSOLE_PORT: '0', SWITCHBOARD_HEALTH_PORT: '0', ...extraEnv };
  const running = serve({ mode: 'start', io: { stdin, stdout, stderr: process.stderr, env, cwd: root }, cwd: root });
  return {
    home,
    stdin,
    running,
    out: () => out,
    log: () => readFileSync(join(home, 'logs', 'switchboard.log'), 'utf8'),
    stderrWrites: () => stderr.mock.calls.map((c) => String(c[0])).join(''),
    restore: () => stderr.mockRestore(),
  };
}

describe('start on a terminal, no platform configured', () => {
  it('welcomes (how to talk, /help, how to quit), keeps log lines off the prompt, and exits 0 at end of input (Ctrl-D)', async () => {
    const t = terminal();
    try {
      await until(() => t.out().includes('you> '), 10_000, 'the prompt');
      t.stdin.write('hello\n');
      await until(() => t.out().includes('Echo: hello'), 10_000, 'the answer');
      t.stdin.end();
      expect(await t.running).toBe(0);
      const lines = t.out().split('\n');
      expect(lines[0]).toBe('Switchboard: type a message and press Enter; /help lists the commands. Quit with Ctrl-D or Ctrl-C.');
      expect(lines[1]).toBe('Model: fake-model (openai)');
      expect(lines[2]).toBe(`Log: ${join(t.home, 'logs', 'switchboard.log')}`);
      // raw mode: readline echoes the line; a thinking… line shows until the answer replaces it (issue 38)
      expect(t.out()).toMatch(/you> hello\r\n\rthinking… \(Ctrl-C stops\)\rEcho: hello\nyou> \nBye\.\n$/);
      // no log line on the terminal, neither among the answers nor on stderr
      expect(t.out()).not.toMatch(/\[(switchboard|email|gateway)\]/);
      expect(t.stderrWrites()).not.toMatch(/\[(switchboard|email|gateway)\]/);
      expect(t.log()).toMatch(/ready \(email, cli, cron: 0 job\(s\); model fake-model \(openai\)/);
    } finally {
      t.restore();
    }
  });

  it('Ctrl-C (SIGINT): one shutdown line on the terminal and one in the log, exit 0', async () => {
    const t = terminal();
    try {
      await until(() => t.out().includes('you> '), 10_000, 'the prompt');
      await until(() => { try { return t.log().includes('ready ('); } catch { return false; } }, 10_000, 'ready');
      process.emit('SIGINT', 'SIGINT');
      expect(await t.running).toBe(0);
      expect(t.out()).toMatch(/you> \nStopped \(Ctrl-C\)\.\n$/);
      expect(t.log().match(/stop/g)).toEqual(['stop']);
      expect(t.log()).toMatch(/stopped \(SIGINT\)\n$/);
    } finally {
      t.restore();
    }
  });
});

describe('start on a terminal with the web console on', () => {
  it('shows the login link with the token on the terminal, before the prompt; the log only says where the token is', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const t = terminal({ SWITCHBOARD_CONSOLE_PORT: String(port) });
    try {
      await until(() => t.out().includes('you> '), 10_000, 'the prompt');
      const token = readFileSync(join(t.home, 'console.token'), 'utf8').trim();
      const lines = t.out().split('\n');
      expect(lines[0]).toBe(`Console: http://127.0.0.1:${port}/login?token=${token}`);
      expect(lines[1]).toMatch(/^Switchboard: type a message/);
      await until(() => { try { return t.log().includes('ready ('); } catch { return false; } }, 10_000, 'ready');
      expect(t.log()).toContain(`web console on http://127.0.0.1:${port} (the token is in ${join(t.home, 'console.token')}`);
      expect(t.log()).not.toContain(token);
      expect(t.stderrWrites()).not.toContain(token);
      const res = await fetch(`http://127.0.0.1:${port}/login?token=${token}`, { redirect: 'manual' });
      expect(res.status).toBe(303);
      t.stdin.end();
      expect(await t.running).toBe(0);
      // stopped with the gateway
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    } finally {
      t.restore();
    }
  });
});
