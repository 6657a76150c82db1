/**
 * ffmpeg and friends as child processes (ARCHITECTURE.md §15): audio of any container to a 16 kHz mono
 * WAV for a local recogniser. Arguments are an argv (no shell), output bounded, a time limit kills.
 */
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `argv` (no shell) with a time limit; stdout and stderr kept up to 1 MB each. */
export function run(argv: readonly string[], options: { timeoutMs: number; signal?: AbortSignal }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal, timeout: options.timeoutMs, killSignal: 'SIGKILL' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    child.stdout.on('data', (c: Buffer) => {
      if ((outBytes += c.length) <= 1 << 20) out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      if ((errBytes += c.length) <= 1 << 20) err.push(c);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL' && !options.signal?.aborted) reject(new Error(`${argv[0]} took longer than ${Math.round(options.timeoutMs / 1000)} s`));
      else resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** The program's path when it can be run (an absolute path, or found on PATH), else null. */
export async function which(program: string): Promise<string | null> {
  const candidates = isAbsolute(program) || program.includes('/') ? [program] : (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, program));
  for (const c of candidates) {
    try {
      await access(c, constants.X_OK);
      return c;
    } catch {
      // next
    }
  }
  return null;
}

/** Converts `input` (a file) to a 16 kHz mono 16-bit WAV at `output`; rejects with ffmpeg's last line. */
export async function toWav16k(input: string, output: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
  const r = await run(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', output], options);
  if (r.code !== 0) {
    const last = r.stderr.trim().split('\n').pop() ?? '';
    throw new Error(`ffmpeg could not read the audio${last ? ` (${last.slice(0, 160)})` : ''}`);
  }
}
