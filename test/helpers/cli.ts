/**
 * Runs the real `switchboard` command as a child process: in the test run, the bundle in dist/ that
 * `npm start` runs (test/setup/compiled.ts builds it first); elsewhere (the bench, a script) or with
 * SWITCHBOARD_TEST_COMPILED=0, the sources through tsx (bin/switchboard-dev.js), needing no build.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The production entry point: dist/ (built by `npm run build` / `prepare`). */
export const COMPILED_BIN = join(ROOT, 'bin', 'switchboard.js');
/** The sources through tsx, whatever SWITCHBOARD_TEST_COMPILED says (tests of the source modules' own graph). */
export const DEV_BIN = join(ROOT, 'bin', 'switchboard-dev.js');
/** The bundle when SWITCHBOARD_TEST_COMPILED=1 (set by the test run's setup after it built dist/), else the sources. */
export const BIN = process.env.SWITCHBOARD_TEST_COMPILED === '1' ? COMPILED_BIN : DEV_BIN;

let hermetic: { root: string; cwd: string; home: string } | undefined;

/**
 * Empty folders of this test file's own (removed after it, test/setup/hermetic.ts): the working folder and HOME of
 * every command a test runs unless the test names its own (issue 38). The command reads `./.env`
 * and the workspace's rule files from its working folder, and `~/.switchboard` when
 * SWITCHBOARD_HOME is unset: inherited from the test runner, those were the developer's clone
 * (where the README puts `.env`) and home folder.
 */
export function hermeticDirs(): { cwd: string; home: string } {
  if (!hermetic) {
    const root = mkdtempSync(join(tmpdir(), 'sb-hermetic-'));
    hermetic = { root, cwd: join(root, 'cwd'), home: join(root, 'home') };
    mkdirSync(hermetic.cwd);
    mkdirSync(hermetic.home);
  }
  return { cwd: hermetic.cwd, home: hermetic.home };
}

/** Removes hermeticDirs() (test/setup/hermetic.ts, after each test file); the next call makes new ones. */
export function removeHermeticDirs(): void {
  if (hermetic) rmSync(hermetic.root, { recursive: true, force: true });
  hermetic = undefined;
}

/**
 * Environment without any credential or setting from the developer's shell, plus `extra`: only
 * PATH, TMPDIR, LANG, TZ and NODE_OPTIONS come through (what Node needs to run the way the test
 * process does), and HOME is hermeticDirs().home. The web console is off unless `extra` turns it
 * on (SWITCHBOARD_CONSOLE_PORT), and so is the health server (SWITCHBOARD_HEALTH_PORT), so parallel
 * gateways never race for 8787 or 8788.
 */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'TMPDIR', 'LANG', 'TZ', 'NODE_OPTIONS']) if (process.env[k]) env[k] = process.env[k];
  return { ...env, HOME: hermeticDirs().home, LOG_LEVEL: 'info', SWITCHBOARD_CONSOLE_PORT: '0', SWITCHBOARD_HEALTH_PORT: '0', ...extra };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command to its end; `cwd` defaults to hermeticDirs().cwd (never the runner's, the clone). */
export function runCli(args: string[], options: { env: NodeJS.ProcessEnv; input?: string | Buffer; cwd?: string; timeoutMs?: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: options.env, cwd: options.cwd ?? hermeticDirs().cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`switchboard ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A long-running `switchboard start`; `waitFor` watches stderr (the log) for a pattern. */
export interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** The exit code once the process has exited by itself (null when a signal ended it). */
  exited: Promise<number | null>;
}

/**
 * `cgroup`: a control group directory the process joins before Node starts (a shell writes its own
 * pid into cgroup.procs, then execs node, so the pid and the limits are the gateway's own from its
 * first instruction: Node sizes V8's heap to a memory limit it finds there). `cwd` defaults to
 * hermeticDirs().cwd, as in runCli.
 */
export function startCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; bin?: string; cgroup?: string; uid?: number; gid?: number }): Running {
  const argv = [options.bin ?? BIN, ...args];
  const how = {
    env: options.env,
    cwd: options.cwd ?? hermeticDirs().cwd,
    stdio: ['pipe', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
  };
  const child = options.cgroup
    ? spawn('/bin/sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', options.cgroup, process.execPath, ...argv], how)
    : spawn(process.execPath, argv, how);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return {
    child,
    exited,
    stdout: () => out,
    stderr: () => err,
    async waitFor(pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(err)) {
        if (child.exitCode !== null) throw new Error(`switchboard exited (${child.exitCode}) before ${pattern}\n${err}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}\n${err}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` every 20 ms; throws naming `what` (and the gateway's log, when given) after `timeoutMs`. */
export async function until(cond: () => boolean, timeoutMs: number, what: string, running?: Running): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${running ? `\n${running.stderr()}` : ''}`);
    await sleep(20);
  }
}

/**
 * Runs every cleanup step in order, each even when an earlier one throws (a fake that fails to close
 * must not leave a temp folder or a child process behind), then rethrows the first failure.
 */
export async function cleanUp(...steps: Array<() => unknown>): Promise<void> {
  let first: unknown;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      first ??= error;
    }
  }
  if (first !== undefined) throw first;
}

/** Kills a `startCli` gateway that is still running (a test that failed before stopping it). */
export async function killIfRunning(running: Running | undefined): Promise<void> {
  if (running && running.child.exitCode === null && running.child.signalCode === null) await running.stop('SIGKILL');
}

/** Removes a temp folder (nothing when setup failed before creating it). */
export function removeDir(path: string | undefined): void {
  if (path) rmSync(path, { recursive: true, force: true });
}
