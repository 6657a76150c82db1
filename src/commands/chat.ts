import { parseCommandLine, workspace, type CommandIO } from './io.js';
import { serve } from './serve.js';

export const usage = `usage: switchboard chat [--cwd DIR]

Chat in the terminal (platform cli, user local). Reads lines from a terminal or a pipe and answers
each line in its own turn; at end of input it finishes what is pending and exits 0.

options:
  --cwd DIR    the workspace folder (default: the current folder)
  -h, --help   show this help`;

/** `switchboard chat [--cwd DIR]`: the terminal channel; each line its own turn; exits 0 at end of input. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandLine('chat', usage, { args: argv, options: { cwd: { type: 'string' } }, strict: true });
  return serve({ mode: 'chat', io, cwd: workspace(values.cwd, io.cwd) });
}
