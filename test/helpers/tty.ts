/**
 * Runs the real `switchboard` command on a pseudo-terminal (test/helpers/pty-relay.py), as a person at a
 * terminal would: raw-mode keys, bracketed pastes and Ctrl-C (0x03) are written to its input.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { BIN, hermeticDirs } from './cli.js';

const PTY = join(fileURLToPath(new URL('.', import.meta.url)), 'pty-relay.py');

export interface TtyRun {
  /** Everything the terminal showed so far. */
  output(): string;
  write(data: string): void;
  /** Waits until the output (from `from` on) matches. */
  waitFor(pattern: RegExp, timeoutMs?: number, from?: number): Promise<void>;
  exited: Promise<number | null>;
  kill(): void;
}

export function startTty(args: string[], env: NodeJS.ProcessEnv): TtyRun {
  const child = spawn('python3', [PTY, process.execPath, BIN, ...args], { env, cwd: hermeticDirs().cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return {
    output: () => out,
    write: (data) => void child.stdin.write(data),
    async waitFor(pattern, timeoutMs = 30_000, from = 0) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out.slice(from))) {
        if (child.exitCode !== null) throw new Error(`the command exited (${child.exitCode}) before ${pattern}\n${out.slice(-3000)}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}\n${out.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    exited,
    kill: () => void child.kill('SIGTERM'),
  };
}
