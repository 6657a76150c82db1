/**
 * IMAP at start (issue 38, point 3): a closed port, a server that accepts and never speaks, a
 * missing mailbox — each is one line naming IMAP_URL (password hidden) and a non-zero exit, within
 * the documented 10 s (imap-errors.ts IMAP_CONNECT_TIMEOUT_MS), never `ready (email…)` and retries
 * for ever. (A wrong password: email-inbound.test.ts; a drop after a good start is retried: the same.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, cleanUp, removeDir, runCli, type RunResult } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../fakes/dovecot.js';

const noDovecot = dovecotAvailability();

let root: string;
let silent: Server;
let silentPort: number;
const sockets: Socket[] = [];
/** When the door connected to the silent server (the command's own start-up, which a loaded machine stretches, comes before). */
const connectedAt: number[] = [];
let dovecot: Dovecot | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sb-imap-start-'));
  // Accepts connections and never sends the IMAP greeting.
  silent = createServer((s) => {
    sockets.push(s);
    connectedAt.push(Date.now());
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentPort = (silent.address() as { port: number }).port;
  if (!noDovecot) dovecot = await startDovecot();
});
afterAll(() =>
  cleanUp(
    () => sockets.forEach((s) => s.destroy()),
    () => new Promise<void>((r) => silent.close(() => r())),
    () => dovecot?.stop(),
    () => removeDir(root),
  ),
);

let n = 0;
/** `exited`: when the command ended (Date.now()). */
async function start(imapUrl: string): Promise<RunResult & { exited: number }> {
  const env = cleanEnv({
    SWITCHBOARD_HOME: join(root, `home-${++n}`),
    IMAP_URL: imapUrl,
    EMAIL_FROM: 'Switchboard <bot@example.com>',
    EMAIL_ALLOWED_SENDERS: '*',
  });
  const r = await runCli(['start'], { env, timeoutMs: 60_000 });
  return { ...r, exited: Date.now() };
}

/** What a user reads: the lines that are not info lines of the log. */
const problems = (r: RunResult) => r.stderr.trim().split('\n').filter((l) => l && !/ info /.test(l));

describe.concurrent('switchboard start with an IMAP_URL that cannot be used', () => {
  it('a closed port and a server that never greets: one line naming IMAP_URL, exit 1, the second after the 10 s connect timeout, both within the 30 s the README promises', { timeout: 90_000 }, async () => {
    const closed = await freePort();
    const [refused, mute] = await Promise.all([
      start(`imap://bot:secret-pass@127.0.0.1:${closed}/INBOX`),
      start(`imap://bot:secret-pass@127.0.0.1:${silentPort}/INBOX`),
    ]);
    expect(refused.code).toBe(1);
    expect(problems(refused)).toEqual([`switchboard: email connect: cannot reach the IMAP server 127.0.0.1:${closed} (ECONNREFUSED); check the host and port in IMAP_URL (imap://bot:***@127.0.0.1:${closed}/INBOX)`]);
    expect(refused.stderr).not.toMatch(/ready \(/);
    // no wait: it ends while the other still waits for its greeting
    expect(refused.exited).toBeLessThan(mute.exited - 5_000);

    expect(mute.code).toBe(1);
    expect(problems(mute)).toEqual([
      `switchboard: email connect: the IMAP server 127.0.0.1:${silentPort} accepted the connection but sent no greeting within 10 s (a TLS-only port such as 993 wants imaps://); check the host and port in IMAP_URL (imap://bot:***@127.0.0.1:${silentPort}/INBOX)`,
    ]);
    // the 10 s connect timeout, well within the 30 s the README promises (the door's time, from its first log line)
    expect(connectedAt).toHaveLength(1);
    expect(mute.exited - connectedAt[0]).toBeGreaterThanOrEqual(9_500);
    expect(mute.exited - connectedAt[0]).toBeLessThan(20_000);
    expect(mute.stdout + mute.stderr).not.toContain('secret-pass');
  });

  it.skipIf(Boolean(noDovecot))(`a mailbox that does not exist: one line naming IMAP_URL, exit 1${noDovecot ? ` (skipped: ${noDovecot})` : ''}`, { timeout: 90_000 }, async () => {
    const r = await start(`imap://${dovecot?.user}:${dovecot?.pass}@127.0.0.1:${dovecot?.port}/Nope`);
    expect(r.code).toBe(1);
    expect(problems(r)).toEqual([expect.stringMatching(/^switchboard: email mailboxOpen: the mailbox 'Nope' does not exist on 127\.0\.0\.1:\d+; check the path in IMAP_URL \(imap:\/\/bot:\*\*\*@127\.0\.0\.1:\d+\/Nope\)$/)]);
  });
});
