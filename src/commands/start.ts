import { parseArgs } from 'node:util';
import { workspace, type CommandIO } from './io.js';
import { serve } from './serve.js';

/** `switchboard start [--cwd DIR]`: the gateway. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { cwd: { type: 'string' } }, strict: true });
  return serve({ mode: 'start', io, cwd: workspace(values.cwd, io.cwd) });
}
