/**
 * First-run checks (issue #20): `doctor` and the commands a newcomer runs first answer bad
 * settings with one line that names the thing to fix, quickly, and never hang.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { startModelFake } from '../fakes/model.js';

let root: string;
let silent: Server;
let silentUrl: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sb-doctor-'));
  // A model endpoint that accepts connections and never answers.
  silent = createServer((s) => void sockets.push(s));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const port = (silent.address() as { port: number }).port;
  silentUrl = `http://127.0.0.1:${port}/v1`;
});
afterAll(() =>
  cleanUp(
    () => sockets.forEach((s) => s.destroy()),
    () => new Promise<void>((r) => silent.close(() => r())),
    () => removeDir(root),
  ),
);

let n = 0;
const home = () => join(root, `home-${++n}`);
const line = (stdout: string, name: string) => stdout.split('\n').find((l) => l.slice(2).startsWith(`${name}:`)) ?? '';

describe('doctor', () => {
  it('an unreachable model is reported within 5 s', async () => {
    const t0 = Date.now();
    const res = await runCli(['doctor'], { env: cleanEnv({ SWITCHBOARD_HOME: home(), OPENAI_BASE_URL: silentUrl, OPENAI_API_KEY: 'k' }) });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(res.code).toBe(1);
    expect(line(res.stdout, 'model')).toMatch(/^✗ model: the model at http:\/\/127\.0\.0\.1:\d+\/v1 did not answer in time — fix: /);
    expect(res.stdout).toMatch(/\n1 problem found\.\n$/);
  });

  it('an Anthropic model without TRANSCRIPTION_BASE_URL: the transcription line names the setting that turns voice notes on (issue 39)', async () => {
    const model = await startModelFake();
    try {
      const res = await runCli(['doctor'], { env: cleanEnv({ SWITCHBOARD_HOME: home(), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: model.anthropicUrl }) });
      expect(line(res.stdout, 'transcription')).toBe(
        '✓ transcription: voice notes are not transcribed: no transcription service is set — set TRANSCRIPTION_BASE_URL to an OpenAI-compatible /audio/transcriptions server (OpenAI, Groq, whisper.cpp), or transcription.backend: command',
      );
    } finally {
      await model.close();
    }
  });

  it('OPENAI_BASE_URL=not-a-url names the variable', async () => {
    const res = await runCli(['doctor'], { env: cleanEnv({ SWITCHBOARD_HOME: home(), OPENAI_BASE_URL: 'not-a-url' }) });
    expect(res.code).toBe(1);
    expect(res.stdout.split('\n')[0]).toBe("✗ config: OPENAI_BASE_URL: 'not-a-url' is not a URL");
    // the fix is in the environment, not in the config file
    expect(res.stdout.split('\n')[1]).toBe('  fix: correct OPENAI_BASE_URL in the environment or .env (see .env.example)');
  });

  it('a corrupt state.db: move the file aside (not "make it writable"); without a model the fix is said once', async () => {
    const h = home();
    mkdirSync(h, { recursive: true });
    writeFileSync(join(h, 'state.db'), 'this is not a database, just text that is long enough to be read as a header');
    const res = await runCli(['doctor'], { env: cleanEnv({ SWITCHBOARD_HOME: h }) });
    const db = line(res.stdout, 'database');
    expect(db).toMatch(/^✗ database: database .*state\.db is not usable \(SQLITE_NOTADB: file is not a database\): the file may be damaged; move it aside to start fresh$/);
    expect(db).not.toMatch(/writable/);
    const model = line(res.stdout, 'model');
    expect(model.match(/fix|set OPENAI_API_KEY/gi)).toHaveLength(1);
  });

  it('a bad YAML file: the line ends at the error and its position', async () => {
    const cfg = join(root, 'bad.yaml');
    writeFileSync(cfg, 'model:\n  name: [unclosed\n');
    const res = await runCli(['doctor'], { env: cleanEnv({ SWITCHBOARD_HOME: home(), SWITCHBOARD_CONFIG: cfg }) });
    const first = res.stdout.split('\n')[0];
    expect(first).toMatch(/^✗ config: .*bad\.yaml: not valid YAML: .+ at line \d+, column \d+$/);
  });

  it('LOG_LEVEL=loud is a config error', async () => {
    const res = await runCli(['doctor'], { env: cleanEnv({ SWITCHBOARD_HOME: home(), LOG_LEVEL: 'loud' }) });
    expect(res.stdout.split('\n')[0]).toBe("✗ config: LOG_LEVEL: 'loud' is not a log level (one of debug, info, warn, error, silent)");
    const chat = await runCli(['chat'], { env: cleanEnv({ SWITCHBOARD_HOME: home(), LOG_LEVEL: 'loud' }) });
    expect(chat.code).toBe(1);
    expect(chat.stderr).toBe("switchboard: LOG_LEVEL: 'loud' is not a log level (one of debug, info, warn, error, silent)\n");
  });

  it('no doubled error code in a storage error', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    let message = '';
    try {
      openSqliteStore({ path: join(file, 'sub', 'state.db'), home: file });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/ENOTDIR/);
    expect(message).not.toMatch(/ENOTDIR: ENOTDIR/);
  });
});

describe('bad places', () => {
  it('a --cwd that does not exist is an error', async () => {
    const env = cleanEnv({ SWITCHBOARD_HOME: home() });
    for (const cmd of [['prompt', '--platform', 'cli'], ['chat']]) {
      const res = await runCli([...cmd, '--cwd', join(root, 'no-such-folder')], { env });
      expect(res.code, cmd.join(' ')).toBe(2);
      expect(res.stderr).toBe(`switchboard: --cwd: there is no folder ${join(root, 'no-such-folder')}\n`);
    }
  });

  it.skipIf(!existsSync('/proc/self'))('SWITCHBOARD_HOME under /proc (mkdir cannot work there) is an error, not a hang', async () => {
    for (const cmd of [['chat'], ['doctor'], ['cron', 'run', 'x'], ['sessions', 'list'], ['pairing', 'list']]) {
      const t0 = Date.now();
      const res = await runCli(cmd, { env: cleanEnv({ SWITCHBOARD_HOME: '/proc/switchboard-test/home' }), timeoutMs: 10_000 });
      expect(Date.now() - t0, cmd.join(' ')).toBeLessThan(8000);
      expect(res.code, cmd.join(' ')).toBe(1);
      expect(res.stdout + res.stderr).toMatch(/SWITCHBOARD_HOME: cannot create \/proc\/switchboard-test\/home \(ENOENT\)|cannot open database \/proc\/switchboard-test\/home\/state\.db \(ENOENT/);
    }
  });
});
