import { parseCommandLine, workspace, type CommandIO } from './io.js';
import { serve } from './serve.js';

export const usage = `usage: switchboard start [--cwd DIR]

Runs the gateway: every platform whose credentials are set, the cron scheduler and the web console;
the terminal channel too when stdin is a terminal, or alone when no platform is configured.
Stop it with Ctrl-C or SIGTERM.

options:
  --cwd DIR    the workspace folder (default: the current folder)
  -h, --help   show this help`;

/** `switchboard start [--cwd DIR]`: the gateway. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandLine('start', usage, { args: argv, options: { cwd: { type: 'string' } }, strict: true });
  return serve({ mode: 'start', io, cwd: workspace(values.cwd, io.cwd) });
}
