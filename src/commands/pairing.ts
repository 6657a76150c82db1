import { CommandLineError, parseCommandLine, type CommandIO } from './io.js';
import { loadSettings } from '../core/settings.js';
import { UsageError } from '../core/errors.js';
import { openData } from '../app-open.js';

export const usage = `usage: switchboard pairing list | switchboard pairing approve CODE | switchboard pairing deny CODE

  list           the pairing requests waiting (each expires after 1 hour)
  approve CODE   let the user who received that code talk to the bot
  deny CODE      refuse that request

options:
  -h, --help     show this help`;

/** `switchboard pairing list` · `switchboard pairing approve CODE` · `switchboard pairing deny CODE`. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { positionals } = parseCommandLine('pairing', usage, { args: argv, options: {}, allowPositionals: true, strict: true });
  const [action, code, ...extra] = positionals;
  if (action !== 'list' && action !== 'approve' && action !== 'deny') throw new CommandLineError('pairing', action ? `unknown action '${action}'` : 'say list, approve CODE or deny CODE', usage);
  if (extra.length || (action === 'list' && code !== undefined)) throw new CommandLineError('pairing', `unexpected argument '${(action === 'list' ? [code, ...extra] : extra)[0]}'`, usage);
  if (action !== 'list' && !code) throw new UsageError(`pairing ${action}: give the 8-character code the user received`);
  const settings = loadSettings(io.env);
  const store = await openData(settings);
  try {
    const now = Date.now();
    if (action === 'list') {
      const pending = await store.pairing.list(now);
      if (!pending.length) io.stdout.write('No pairing requests are waiting.\n');
      for (const p of pending) io.stdout.write(`${p.code}  ${p.platform} user ${p.userId}  (expires ${new Date(p.expiresAt).toISOString()})\n`);
      return 0;
    }
    if (action === 'deny') {
      if (!(await store.pairing.deny(code))) {
        io.stderr.write(`switchboard: no pending pairing code '${code}' (see switchboard pairing list)\n`);
        return 1;
      }
      io.stdout.write(`Denied pairing code ${code.trim().toUpperCase()}.\n`);
      return 0;
    }
    const approved = await store.pairing.approve(code, now);
    if (!approved) {
      io.stderr.write(`switchboard: no pending pairing code '${code}' (it may have expired after 1 hour; ask the user to write again)\n`);
      return 1;
    }
    io.stdout.write(`Approved ${approved.platform} user ${approved.userId}.\n`);
    return 0;
  } finally {
    await store.close();
  }
}
