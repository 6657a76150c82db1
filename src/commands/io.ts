import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
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

/**
 * What every command module exports: its `run`, and its `usage` — the one text that
 * `switchboard <command> --help` prints and that follows a command-line mistake.
 */
export interface CommandModule {
  run: Command;
  usage: string;
}

/**
 * A mistake on a command's line (an unknown option, a missing value, a stray argument): one line
 * naming the command and the mistake, then that command's usage; exit 2. (`command` is empty for
 * a mistake before any command: `switchboard --nope`.)
 */
export class CommandLineError extends UsageError {
  readonly command: string;
  readonly problem: string;
  readonly usage: string;
  constructor(command: string, problem: string, usage: string) {
    super(`${command}: ${problem}`);
    this.name = 'CommandLineError';
    this.command = command;
    this.problem = problem;
    this.usage = usage;
  }

  /** What the user reads on stderr. */
  text(): string {
    return `switchboard${this.command ? ` ${this.command}` : ''}: ${this.problem}\n${this.usage}\n`;
  }
}

/** Node's parseArgs error as one line in the command's words (never its hint about `--`). */
function parseProblem(error: unknown): string | null {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code !== 'string' || !e.code.startsWith('ERR_PARSE_ARGS') || typeof e.message !== 'string') return null;
  // The first quoted part names what was typed: '--nope', 'extra', '-p, --platform <value>'.
  const quoted = /'([^']*)'/.exec(e.message)?.[1] ?? '';
  const option = quoted.split(/[\s,]+/).filter((word) => word.startsWith('-')).pop() ?? quoted;
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${option}'`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take/.test(e.message) ? `option '${option}' takes no value` : `option '${option}' needs a value`;
    default:
      return e.message.split('\n')[0];
  }
}

/** `parseArgs` (strict unless `config` says otherwise) for `command`: a mistake becomes a CommandLineError carrying `usage`. */
export function parseCommandLine<T extends ParseArgsConfig>(command: string, usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const problem = parseProblem(error);
    if (problem === null) throw error;
    throw new CommandLineError(command, problem, usage);
  }
}

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
