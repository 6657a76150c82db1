/**
 * The command line itself (issue #38, point 7), through the real command: `switchboard --version`,
 * `switchboard --help`, and for every command `--help` and `-h` (its usage on stdout, exit 0, the
 * command not run) and an unknown option (one line naming the option and the command, then the same
 * usage on stderr, exit 2; never Node's parser text or a stack trace).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, COMPILED_BIN, removeDir, runCli, type RunResult } from '../helpers/cli.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Every command, with the arguments that make a valid start of its line (the unknown option comes after them). */
const COMMANDS: Array<[string, string[]]> = [
  ['start', []],
  ['chat', []],
  ['prompt', ['--platform', 'cli']],
  ['render', ['--platform', 'slack']],
  ['cron', ['list']],
  ['sessions', ['list']],
  ['pairing', ['list']],
  ['memory', ['show', 'alice']],
  ['migrate', []],
  ['console', []],
  ['doctor', []],
];

let root: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sb-usage-'));
  // A command that ran would read this config and stop on it (so a run shows, and `console` or
  // `start` never stays up); --help and a bad option never get that far.
  writeFileSync(join(root, 'config.yaml'), 'this: [is not: valid yaml\n');
  env = cleanEnv({ SWITCHBOARD_HOME: join(root, 'home'), SWITCHBOARD_CONFIG: join(root, 'config.yaml') });
});
afterAll(() => removeDir(root));

const cli = (args: string[]): Promise<RunResult> => runCli(args, { env, cwd: root });
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |ERR_PARSE_ARGS|To specify a positional/);

describe('switchboard <command> --help, -h and an unknown option', () => {
  it.each(COMMANDS)('%s', async (name, valid) => {
    const help = await cli([name, '--help']);
    expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(new RegExp(`^usage: switchboard ${name}\\b.*\\n`));
    expect(help.stdout).toContain('-h, --help');

    // -h, and --help after the command's own arguments, print the same text
    for (const args of [[name, '-h'], [name, ...valid, '--help']]) {
      const again = await cli(args);
      expect({ args, code: again.code, stdout: again.stdout, stderr: again.stderr }).toEqual({ args, code: 0, stdout: help.stdout, stderr: '' });
    }

    const bad = await cli([name, ...valid, '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(`switchboard ${name}: unknown option '--bogus'\n${help.stdout}`);
    noStack(bad.stderr);
  });
});

describe('other mistakes on a command line', () => {
  it.each([
    [['render', '--platform'], "switchboard render: option '--platform' needs a value"],
    [['render', '--platform', 'slack', '--jsonl=yes'], "switchboard render: option '--jsonl' takes no value"],
    [['sessions', 'list', '--person', '--limit', '3'], "switchboard sessions: option '--person' needs a value"],
    [['doctor', 'now'], "switchboard doctor: unexpected argument 'now'"],
    [['migrate', 'up'], "switchboard migrate: unexpected argument 'up'"],
    [['cron', 'frobnicate'], "switchboard cron: unknown action 'frobnicate'"],
    [['pairing', 'list', 'extra'], "switchboard pairing: unexpected argument 'extra'"],
  ])('%j', async (args, line) => {
    const res = await cli(args);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    const [first, ...usage] = res.stderr.split('\n');
    expect(first).toBe(line);
    expect(usage[0]).toMatch(new RegExp(`^usage: switchboard ${args[0]}\\b`));
    noStack(res.stderr);
  });
});

describe('switchboard --version and --help', () => {
  it('--version and -v print the package version', async () => {
    for (const flag of ['--version', '-v']) {
      const res = await cli([flag]);
      expect({ flag, code: res.code, stdout: res.stdout, stderr: res.stderr }).toEqual({ flag, code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });

  it('--version from the compiled bin (package.json read beside dist/)', () => {
    const res = spawnSync(process.execPath, [COMPILED_BIN, '--version'], { encoding: 'utf8', env, cwd: root });
    expect({ code: res.status, stdout: res.stdout, stderr: res.stderr }).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('--help lists every command, how to get its usage and the version', async () => {
    const res = await cli(['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^usage: switchboard <command>/);
    expect(res.stdout).toContain('switchboard <command> --help');
    expect(res.stdout).toContain('switchboard --version');
    for (const [name] of COMMANDS) expect(res.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect((await cli(['help'])).stdout).toBe(res.stdout);
  });

  it('help <command> is that command’s --help', async () => {
    const help = await cli(['help', 'render']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await cli(['render', '--help'])).stdout);
  });

  it('an unknown option before any command: one line, then the list; exit 2', async () => {
    const res = await cli(['--bogus']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`switchboard: unknown option '--bogus'\n${(await cli(['--help'])).stdout}`);
  });
});
