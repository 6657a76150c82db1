/**
 * Issue 38, points 2, 6 and 8: `switchboard chat` at a real (pseudo-)terminal. A 1 MB bracketed
 * paste reaches the model whole (the terminal's line mode cut it at 4,095 characters); while a turn
 * runs a `thinking…` line shows; Ctrl-C stops the turn at once and a second one quits; the welcome
 * names the model, or says none is configured; a taken console port is said on the `Console:` line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { cleanEnv, cleanUp, removeDir } from '../helpers/cli.js';
import { startTty, type TtyRun } from '../helpers/tty.js';

/** The pseudo-terminal comes from Python's pty module (Node has none of its own). */
const havePty = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0;
const skipped = havePty ? '' : ' (skipped: python3 with its pty module is needed for a pseudo-terminal)';

let model: ModelFake;
const dirs: string[] = [];
beforeAll(async () => {
  model = await startModelFake({
    script: (req) => (lastUserText(req) === 'slow' ? { text: 'too late', delayMs: 60_000 } : { text: `Echo (${lastUserText(req).length})` }),
  });
});
afterAll(() => cleanUp(() => model?.close(), ...dirs.map((d) => () => removeDir(d))));

function home(config = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-tty-'));
  dirs.push(dir);
  if (config) writeFileSync(join(dir, 'config.yaml'), config);
  return dir;
}

describe.skipIf(!havePty)(`switchboard chat at a terminal (issue 38)${skipped}`, { timeout: 150_000 }, () => {
  it('a 1 MB paste arrives whole; thinking… shows; Ctrl-C stops the turn at once, a second Ctrl-C quits', async () => {
    const env = cleanEnv({ SWITCHBOARD_HOME: home('gateway: { max_message_chars: 2000000 }\n'), OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'k', MODEL: 'fake-model' });
    const tty: TtyRun = startTty(['chat'], env);
    try {
      await tty.waitFor(/you> /, 60_000);
      expect(tty.output()).toContain('Model: fake-model (openai)');
      const paste = Array.from({ length: 20_000 }, (_, i) => `line ${String(i).padStart(5, '0')} ${'p'.repeat(40)}`).join('\n').padEnd(1_048_576, 'q');
      const before = model.completions().length;
      tty.write(`\x1b[200~${paste}\x1b[201~`);
      await tty.waitFor(/\[pasted 1,048,576 characters, 20,000 lines/, 60_000);
      tty.write('\r');
      await tty.waitFor(/Echo \(1048576\)/, 60_000);
      expect(model.completions().slice(before).map((r) => lastUserText(r))).toEqual([paste]);

      let mark = tty.output().length;
      tty.write('slow\r');
      await tty.waitFor(/thinking…/, 30_000, mark);
      const pressed = Date.now();
      tty.write('\x03');
      await tty.waitFor(/Stopped\./, 10_000, mark);
      expect(Date.now() - pressed).toBeLessThan(3_000);
      expect(tty.output().slice(mark)).not.toContain('too late');
      await tty.waitFor(/you> (\x1b\[\d+G)?$/, 10_000, mark);

      mark = tty.output().length;
      const quit = Date.now();
      tty.write('\x03');
      expect(await tty.exited).toBe(0);
      expect(Date.now() - quit).toBeLessThan(4_000);
      expect(tty.output().slice(mark)).toContain('Stopped (Ctrl-C).');
    } finally {
      tty.kill();
    }
  });

  it('without a model the welcome says so; a console port in use is one Console: line', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    const tty = startTty(['start'], cleanEnv({ SWITCHBOARD_HOME: home(), SWITCHBOARD_CONSOLE_PORT: String(port) }));
    try {
      await tty.waitFor(/you> /, 60_000);
      expect(tty.output()).toContain(`Console: not started — port ${port} is in use (SWITCHBOARD_CONSOLE_PORT)`);
      expect(tty.output()).toMatch(/Model: no model configured or reachable — No model is configured: set OPENAI_API_KEY/);
      tty.write('\x03');
      expect(await tty.exited).toBe(0);
    } finally {
      tty.kill();
      busy.close();
    }
  });
});
