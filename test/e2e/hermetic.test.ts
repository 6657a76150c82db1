/**
 * Hermetic tests (issue 38): a command a test runs sees only what the test gave it. A developer's
 * `.env` in the clone (where the README says to put it), their HOME and the variables of their shell
 * made `npm test` fail: the command reads `./.env` from its working folder and `~/.switchboard` when
 * SWITCHBOARD_HOME is unset, and the test helpers let it inherit the runner's working folder (the
 * clone). Here this test process plays the developer's clone and shell: it moves into a folder with
 * a hostile `.env`, puts hostile variables and a hostile HOME in its own environment, and
 * `doctor` answers exactly as it did before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { cleanEnv, cleanUp, hermeticDirs, removeDir, runCli, startCli, killIfRunning, type Running } from '../helpers/cli.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Settings a developer may well have in their `.env` or shell, each of which changes doctor's answer. */
const HOSTILE: Record<string, string> = {
  SWITCHBOARD_CONFIG: '/nonexistent/hostile-switchboard.yaml',
  DATABASE_URL: 'mysql://hostile@127.0.0.1:1/none',
  TELEGRAM_BOT_TOKEN: '123:hostile-token',
  SWITCHBOARD_HOME: '/nonexistent/hostile-home',
};

let root: string;
let clone: string;
let model: ModelFake;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sb-hermetic-test-'));
  clone = join(root, 'clone');
  mkdirSync(clone);
  writeFileSync(join(clone, '.env'), `${Object.entries(HOSTILE).map(([k, v]) => `${k}=${v}`).join('\n')}\nLOG_LEVEL=loud\n`);
  model = await startModelFake({ script: () => ({ text: 'ok' }) });
});
afterAll(() => cleanUp(() => model?.close(), () => removeDir(root)));

/** Runs `body` as if this process were a developer's shell in their clone: cwd, HOME and variables hostile. */
async function asHostileDeveloper<T>(body: () => Promise<T>): Promise<T> {
  const cwd = process.cwd();
  const saved = new Map<string, string | undefined>();
  const set = (k: string, v: string) => {
    if (!saved.has(k)) saved.set(k, process.env[k]);
    process.env[k] = v;
  };
  const home = join(root, 'developer-home');
  mkdirSync(join(home, '.switchboard'), { recursive: true });
  writeFileSync(join(home, '.switchboard', 'config.yaml'), 'model: [this is not valid YAML\n');
  try {
    process.chdir(clone);
    set('HOME', home);
    for (const [k, v] of Object.entries(HOSTILE)) set(k, v);
    set('OPENAI_BASE_URL', 'not-a-url');
    set('LOG_LEVEL', 'loud');
    return await body();
  } finally {
    process.chdir(cwd);
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('hermetic: the command a test runs sees only what the test set', () => {
  // No SWITCHBOARD_HOME: the data folder is HOME's, which must be the test's too.
  const env = () => cleanEnv({ OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'sk-hermetic', MODEL: 'fake-model' });

  it('the hostile .env does change doctor when the command runs in its folder (so the next test can fail)', async () => {
    const res = await runCli(['doctor'], { env: env(), cwd: clone });
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/SWITCHBOARD_CONFIG: no file at \/nonexistent\/hostile-switchboard\.yaml/);
  });

  it('a hostile .env in the runner\'s folder, hostile variables and a hostile HOME in its environment: doctor answers as before', async () => {
    await runCli(['doctor'], { env: env() }); // the first run makes the data folder; compare the next ones
    const before = await runCli(['doctor'], { env: env() });
    expect(before.code, before.stdout + before.stderr).toBe(0);
    expect(before.stdout).toMatch(/All checks passed/);
    const after = await asHostileDeveloper(() => runCli(['doctor'], { env: env() }));
    expect(after).toEqual(before);
  });

  it('a gateway started by a test ignores them too', async () => {
    let gw: Running | undefined;
    try {
      gw = await asHostileDeveloper(async () => startCli(['start'], { env: env() }));
      await gw.waitFor(/ready/, 20_000);
      expect(gw.stderr()).not.toMatch(/hostile|123:|mysql|nonexistent/);
      expect(await gw.stop('SIGTERM')).toBe(0);
    } finally {
      await killIfRunning(gw);
    }
  });

  it('commands run in an empty folder of the test process\'s own and with a HOME of its own, outside the clone', () => {
    const { cwd, home } = hermeticDirs();
    for (const dir of [cwd, home]) expect(relative(REPO, dir).startsWith('..')).toBe(true);
    expect(cleanEnv({}).HOME).toBe(home);
    expect(Object.keys(cleanEnv({}))).toEqual(expect.arrayContaining(['HOME', 'LOG_LEVEL', 'SWITCHBOARD_CONSOLE_PORT']));
    for (const k of Object.keys(cleanEnv({}))) expect(['PATH', 'TMPDIR', 'LANG', 'TZ', 'NODE_OPTIONS', 'HOME', 'LOG_LEVEL', 'SWITCHBOARD_CONSOLE_PORT', 'SWITCHBOARD_HEALTH_PORT']).toContain(k);
  });
});
