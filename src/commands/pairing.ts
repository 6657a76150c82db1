import type { CommandIO } from './io.js';
import { loadSettings } from '../core/settings.js';
import { UsageError } from '../core/errors.js';
import { openStore, storePath } from '../core/store/store.js';
import { Pairing } from '../core/pairing.js';

/** `switchboard pairing list` · `switchboard pairing approve CODE`. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const [action, code] = argv;
  if (action !== 'list' && action !== 'approve') throw new UsageError('usage: switchboard pairing list | switchboard pairing approve CODE');
  if (action === 'approve' && !code) throw new UsageError('pairing approve: give the 8-character code the user received');
  const settings = loadSettings(io.env);
  const store = openStore(storePath(settings.home));
  try {
    const pairing = new Pairing(store.db);
    const now = Date.now();
    if (action === 'list') {
      const pending = pairing.list(now);
      if (!pending.length) io.stdout.write('No pairing requests are waiting.\n');
      for (const p of pending) io.stdout.write(`${p.code}  ${p.platform} user ${p.userId}  (expires ${new Date(p.expiresAt).toISOString()})\n`);
      return 0;
    }
    const approved = pairing.approve(code, now);
    if (!approved) {
      io.stderr.write(`switchboard: no pending pairing code '${code}' (it may have expired after 1 hour; ask the user to write again)\n`);
      return 1;
    }
    io.stdout.write(`Approved ${approved.platform} user ${approved.userId}.\n`);
    return 0;
  } finally {
    store.close();
  }
}
