import { parseArgs } from 'node:util';
import { workspace, type CommandIO } from './io.js';
import { serve } from './serve.js';

/** `switchboard chat [--cwd DIR]`: the terminal channel; each line its own turn; exits 0 at end of input. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { cwd: { type: 'string' } }, strict: true });
  return serve({ mode: 'chat', io, cwd: workspace(values.cwd, io.cwd) });
}
