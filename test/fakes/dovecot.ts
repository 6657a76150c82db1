/**
 * A real IMAP server for tests: Debian's Dovecot (`dovecot-imapd`) run from its own config file on
 * a free loopback port, one user with a fresh maildir per server (FACTS.md "IMAP"): plaintext login
 * (`ssl = no`), the packaged `dovecot`/`dovenull` users for its own processes, mail owned by
 * `nobody:nogroup`, and `mailbox_idle_check_interval = 1 secs` so IDLE reports new mail at once.
 *
 * `dovecotAvailability()` says why it cannot run here (no binary, not root, users missing), so a
 * test can skip with that reason in its title.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from '../helpers/ports.js';

export const DOVECOT_BIN = '/usr/sbin/dovecot';

/** null when Dovecot can run here, else the reason it cannot. */
export function dovecotAvailability(): string | null {
  if (!existsSync(DOVECOT_BIN)) return `dovecot not installed (${DOVECOT_BIN})`;
  if (process.getuid?.() !== 0) return 'dovecot harness needs root (it runs mail as nobody)';
  for (const user of ['dovecot', 'dovenull', 'nobody']) {
    if (spawnSync('id', [user]).status !== 0) return `dovecot harness: system user ${user} missing`;
  }
  return null;
}

export interface Dovecot {
  host: string;
  port: number;
  user: string;
  pass: string;
  mailbox: string;
  /** `imap://user:pass@127.0.0.1:port/INBOX` */
  url: string;
  /** Puts a raw message into the mailbox with IMAP APPEND (flags: none, so it is unseen; `date`: its arrival time). */
  append(raw: string | Buffer, flags?: string[], date?: Date): Promise<void>;
  /** Every message: its Message-ID header and whether it is `\Seen`. */
  messages(): Promise<Array<{ uid: number; messageId: string | undefined; seen: boolean }>>;
  /** Removes `\Seen` from the message with this Message-ID (as if a crash came before the flag). */
  markUnseen(messageId: string): Promise<void>;
  /** Kills this server's `imap` processes: every client connection drops at once, as in a server crash. */
  dropConnections(): Promise<number>;
  /** Drops every connection, stops the server and starts it again on the same port and maildir; `whileDown` runs in between. */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  /** Dovecot's own log (for a failing test's message). */
  log(): string;
  stop(): Promise<void>;
}

function uidOf(name: string): number {
  return Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout.trim());
}
function gidOf(name: string): number {
  return Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim());
}

async function waitForPort(port: number, child: ChildProcess, logPath: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}): ${existsSync(logPath) ? readFileSync(logPath, 'utf8') : ''}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('data', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`dovecot did not listen on ${port}: ${existsSync(logPath) ? readFileSync(logPath, 'utf8') : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function config(dir: string, port: number, capabilities?: string): string {
  return `${capabilities ? `imap_capability = ${capabilities}\n` : ''}
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${dir}/mail/%u
mailbox_idle_check_interval = 1 secs
# (a second failed login from one address is still held back ~4 s by Dovecot's auth penalty)
auth_failure_delay = 0
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
}
protocol imap {
  mail_max_userip_connections = 50
}
`;
}

/**
 * Starts one Dovecot with one user (`bot` / `secret-pass`) and an empty INBOX. `capabilities`
 * replaces the advertised CAPABILITY list (e.g. without IDLE, to test polling).
 */
export async function startDovecot(options: { user?: string; pass?: string; capabilities?: string } = {}): Promise<Dovecot> {
  const why = dovecotAvailability();
  if (why) throw new Error(why);
  const user = options.user ?? 'bot';
  const pass = options.pass ?? 'secret-pass';
  const dir = mkdtempSync(join(tmpdir(), 'sb-dovecot-'));
  chmodSync(dir, 0o711);
  const mail = join(dir, 'mail');
  mkdirSync(join(mail, user), { recursive: true });
  for (const p of [mail, join(mail, user)]) chownSync(p, uidOf('nobody'), gidOf('nobody'));
  const passwd = join(dir, 'passwd');
  writeFileSync(passwd, `${user}:{PLAIN}${pass}::::::\n`);
  chownSync(passwd, 0, gidOf('dovecot'));
  chmodSync(passwd, 0o640);
  const port = await freePort();
  const confPath = join(dir, 'dovecot.conf');
  writeFileSync(confPath, config(dir, port, options.capabilities));
  const logPath = join(dir, 'dovecot.log');

  let child: ChildProcess;
  // A test process that ends without stop() (a crash, a timeout) takes its server with it.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const launch = async () => {
    child = spawn(DOVECOT_BIN, ['-F', '-c', confPath], { stdio: 'ignore' });
    await waitForPort(port, child, logPath);
  };
  /** The PIDs of this master's `imap` children (one per logged-in client). */
  const imapPids = (): number[] => {
    const out = spawnSync('ps', ['-o', 'pid=,comm=', '--ppid', String(child.pid)], { encoding: 'utf8' }).stdout;
    return out
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter(([pid, comm]) => pid && comm === 'imap')
      .map(([pid]) => Number(pid));
  };
  const dropConnections = async (): Promise<number> => {
    const pids = imapPids();
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    return pids.length;
  };
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await exited;
  };
  await launch();

  const connect = async (): Promise<ImapFlow> => {
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass }, logger: false });
    await client.connect();
    return client;
  };
  const withClient = async <T>(fn: (c: ImapFlow) => Promise<T>): Promise<T> => {
    const client = await connect();
    try {
      return await fn(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  };

  return {
    host: '127.0.0.1',
    port,
    user,
    pass,
    mailbox: 'INBOX',
    url: `imap://${user}:${pass}@127.0.0.1:${port}/INBOX`,
    async append(raw, flags = [], date) {
      await withClient((c) => c.append('INBOX', raw, flags, date));
    },
    async messages() {
      return withClient(async (c) => {
        const lock = await c.getMailboxLock('INBOX');
        try {
          const out: Array<{ uid: number; messageId: string | undefined; seen: boolean }> = [];
          const box = c.mailbox;
          if (box && box.exists === 0) return out;
          for await (const m of c.fetch('1:*', { uid: true, flags: true, envelope: true })) {
            out.push({ uid: m.uid, messageId: m.envelope?.messageId, seen: m.flags?.has('\\Seen') ?? false });
          }
          return out;
        } finally {
          lock.release();
        }
      });
    },
    async markUnseen(messageId) {
      await withClient(async (c) => {
        const lock = await c.getMailboxLock('INBOX');
        try {
          const uids = (await c.search({ header: { 'message-id': messageId } }, { uid: true })) || [];
          if (!uids.length) throw new Error(`no message ${messageId}`);
          await c.messageFlagsRemove(uids.join(','), ['\\Seen'], { uid: true });
        } finally {
          lock.release();
        }
      });
    },
    dropConnections,
    async restart(whileDown) {
      await dropConnections();
      await halt();
      try {
        await whileDown?.();
      } finally {
        await launch();
      }
    },
    log: () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : ''),
    async stop() {
      process.off('exit', orphanGuard);
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
