import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';

/** The streams a command writes to (process streams in the CLI, buffers in tests). */
export interface CommandIO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export type Command = (argv: string[], io: CommandIO) => Promise<number>;

/** The workspace folder: `--cwd DIR` (which must be a folder), else the current one. */
export function workspace(option: string | undefined, cwd: string): string {
  if (option === undefined) return cwd;
  const dir = resolve(cwd, option);
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`--cwd: there is no folder ${dir}`);
  }
  if (!isDir) throw new UsageError(`--cwd: ${dir} is not a folder`);
  return dir;
}
