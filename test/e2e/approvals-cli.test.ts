/** Approvals in the terminal (`switchboard chat`): the prompt, then a `y/N` line; piped answers work as typed ones. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, runCli, startCli, until, type Running } from '../helpers/cli.js';
import { approvalScript } from '../helpers/approvals.js';

let model: ModelFake;
let home: string;
beforeAll(async () => {
  model = await startModelFake({ script: approvalScript });
  home = mkdtempSync(join(tmpdir(), 'sb-approvals-cli-'));
});
afterAll(() => cleanUp(() => model?.close(), () => removeDir(home)));

const memory = () => {
  const f = join(home, 'memories', 'cli-local', 'MEMORY.md');
  return existsSync(f) ? readFileSync(f, 'utf8') : '';
};
const env = () => cleanEnv({ SWITCHBOARD_HOME: home, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'sk-e2e', MODEL: 'fake-model' });

describe('approvals in the terminal', () => {
  it('asks "Approve? [y/N]"; a piped "y" runs the call; an empty line (N) denies it', async () => {
    const run = await runCli(['chat'], { env: env(), input: 'the code word is zebra\n/new\nSAVE zebra\ny\nSAVE yak\n\n', timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Approval needed');
    expect(run.stdout).toContain('Answer y or N');
    expect(run.stdout).toContain('Approve? [y/N] ');
    expect(run.stdout).toMatch(/Approved\.\nMemory tool said: Saved/);
    expect(run.stdout).toMatch(/Denied\.\nMemory tool said: denied by the user/);
    expect(memory()).toContain('zebra');
    expect(memory()).not.toContain('yak');
  });

  let chat: Running | undefined;
  afterAll(() => killIfRunning(chat));

  it('approvals.timeout_minutes denies in `chat` too: the y/N prompt ends with "no answer in time" and the model is told', async () => {
    const timed = mkdtempSync(join(tmpdir(), 'sb-approvals-cli-timeout-'));
    writeFileSync(join(timed, 'config.yaml'), 'approvals:\n  timeout_minutes: 0.04\ngateway:\n  lease_seconds: 1.5\n');
    try {
      chat = startCli(['chat'], { env: cleanEnv({ SWITCHBOARD_HOME: timed, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'sk-e2e', MODEL: 'fake-model' }) });
      chat.child.stdin.write('the code word is quokka\n/new\nSAVE quokka\n');
      await until(() => chat!.stdout().includes('Approve? [y/N] '), 30_000, 'the approval prompt', chat);
      // Nobody answers: after 2.4 s (and the next sweep) the call is denied and the model's answer follows.
      await until(() => /Memory tool said: /.test(chat!.stdout()), 30_000, 'the answer after the timeout', chat);
      expect(chat.stdout()).toMatch(/Approve\? \[y\/N\] No answer in time: the call was not made\.\nMemory tool said: no answer in time/);
      // The next line is a message again, not an answer to the expired prompt.
      chat.child.stdin.end('hello again\n');
      expect(await chat.exited).toBe(0);
      expect(chat.stdout()).toContain('Noted: hello again');
      expect(chat.stdout()).not.toContain('This approval has expired');
    } finally {
      removeDir(timed);
    }
  }, 60_000);
});
