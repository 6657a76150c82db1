/** Approvals in the terminal (`switchboard chat`): the prompt, then a `y/N` line; piped answers work as typed ones. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';
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
});
