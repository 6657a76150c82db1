/**
 * A mailbox connection that hangs without closing (imap-liveness.ts): a real Dovecot behind a proxy that
 * stops forwarding. The intake notices within the NOOP deadline, says so (`problem`, which `/readyz`
 * shows), connects again and reads new mail. A quiet connection that answers is never called hung, and
 * a NOOP waiting behind bytes that keep coming is not either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailboxIntake } from '../../src/adapters/email/intake.js';
import { watchLiveness } from '../../src/adapters/email/imap-liveness.js';
import { parseImapUrl } from '../../src/core/settings.js';
import type { Logger } from '../../src/core/logger.js';
import type { InboundMessage, InboundVerdict } from '../../src/core/types.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../fakes/dovecot.js';
import { cleanUp, sleep, until } from '../helpers/cli.js';
import { rawMail } from '../helpers/mail.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const unavailable = dovecotAvailability();
const title = (t: string) => (unavailable ? `${t} (skipped: ${unavailable})` : t);

let dovecot: Dovecot;
let proxy: TcpProxy;
let intake: MailboxIntake | undefined;
const lines: string[] = [];
const logger: Logger = { debug() {}, info: (s, m) => lines.push(`${s}: ${m}`), warn: (s, m) => lines.push(`${s}: ${m}`), error: (s, m) => lines.push(`${s}: ${m}`) };
const handed: InboundMessage[] = [];

beforeAll(async () => {
  if (unavailable) return;
  dovecot = await startDovecot();
  proxy = await startTcpProxy(dovecot.port);
});
afterAll(() => cleanUp(() => intake?.stop(), () => proxy?.close(), () => dovecot?.stop()));

describe.skipIf(Boolean(unavailable))('a mailbox connection that stops answering', () => {
  it(title('is noticed within the NOOP deadline, named as the problem, and read again over a new connection'), { timeout: 30_000 }, async () => {
    const imap = parseImapUrl(dovecot.url.replace(`:${dovecot.port}/`, `:${proxy.port}/`));
    intake = new MailboxIntake(
      { imap, from: 'bot@example.com', pollSeconds: 60, maxAgeDays: 7, logger, now: () => new Date(), backoffMs: () => 200, liveness: { everyMs: 300, deadlineMs: 700 } },
      async (m): Promise<InboundVerdict> => {
        handed.push(m);
        return 'accepted';
      },
    );
    await intake.start();
    await sleep(1_500); // several NOOPs answered: a quiet, live connection is not hung
    expect(intake.problem).toBeNull();

    proxy.freeze();
    const frozenAt = Date.now();
    await until(() => intake!.problem !== null, 5_000, 'the hung connection noticed');
    expect(Date.now() - frozenAt).toBeLessThan(2_500);
    expect(intake.problem).toMatch(/^IMAP server 127\.0\.0\.1:\d+ stopped answering \(a NOOP went unanswered for 0\.7 s\); reconnecting$/);
    expect(lines.some((l) => l.includes('stopped answering'))).toBe(true);

    await until(() => intake!.problem === null, 10_000, 'reading again over a new connection');
    await dovecot.append(rawMail({ from: 'Alice <alice@example.com>', subject: 'After the hang', messageId: '<after-hang@example.com>', text: 'Still there?' }));
    await until(() => handed.some((m) => m.text.includes('Still there?')), 10_000, 'the new mail read');
  });
});

describe('the liveness probe', () => {
  it('does not call a connection hung while bytes keep coming, though its NOOP waits', async () => {
    let received = 0;
    const feeding = setInterval(() => (received += 1000), 20);
    let hung = false;
    const stop = watchLiveness({ noop: () => new Promise<void>(() => undefined), stats: () => ({ sent: 0, received }) }, { everyMs: 20, deadlineMs: 60 }, () => (hung = true));
    await sleep(500);
    expect(hung).toBe(false);
    clearInterval(feeding);
    await sleep(300);
    expect(hung).toBe(true); // and once nothing comes, it is
    stop();
  });
});
