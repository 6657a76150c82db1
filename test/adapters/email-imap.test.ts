/**
 * The e-mail adapter's intake against a real IMAP server (Dovecot) that does not offer IDLE: it polls
 * every `email.poll_seconds`, hands each mail to the handler, and flags `\Seen` only once the handler
 * resolved (journaled); stop() ends intake and nothing more is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmailAdapter } from '../../src/adapters/email/index.js';
import { parseConfig } from '../../src/core/config.js';
import { parseAllowList, parseImapUrl } from '../../src/core/settings.js';
import type { Logger } from '../../src/core/logger.js';
import type { Adapter, InboundMessage, InboundVerdict } from '../../src/core/types.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../fakes/dovecot.js';
import { cleanUp, removeDir, sleep, until } from '../helpers/cli.js';
import { rawMail } from '../helpers/mail.js';

const unavailable = dovecotAvailability();
const title = (t: string) => (unavailable ? `${t} (skipped: ${unavailable})` : t);
/** Dovecot's own list without IDLE. */
const NO_IDLE = 'IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ UIDPLUS';

let dovecot: Dovecot;
let home: string;
let adapter: Adapter;
const lines: string[] = [];
const logger: Logger = { debug() {}, info: (s, m) => lines.push(`${s}: ${m}`), warn: (s, m) => lines.push(`${s}: ${m}`), error: (s, m) => lines.push(`${s}: ${m}`) };
const handed: InboundMessage[] = [];
/** Mails the handler began to take (it then waits for `gate`). */
let entered = 0;
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  if (unavailable) return;
  dovecot = await startDovecot({ capabilities: NO_IDLE });
  home = mkdtempSync(join(tmpdir(), 'sb-email-imap-'));
  const config = parseConfig('email:\n  poll_seconds: 1\n', 'test.yaml');
  adapter = createEmailAdapter({ from: 'Switchboard <bot@example.com>', allowed: parseAllowList('*'), imap: parseImapUrl(dovecot.url) }, { config, logger, home });
});
afterAll(() => cleanUp(() => adapter?.close(), () => dovecot?.stop(), () => removeDir(home)));

async function seen(id: string): Promise<boolean | undefined> {
  return (await dovecot.messages()).find((m) => m.messageId === id)?.seen;
}

describe.skipIf(Boolean(unavailable))('e-mail intake without IDLE', () => {
  it(title('declares exclusive intake and polls every email.poll_seconds'), { timeout: 20_000 }, async () => {
    expect(adapter.exclusiveIntake).toBe(true);
    await adapter.start(async (m): Promise<InboundVerdict> => {
      entered += 1;
      await gate;
      handed.push(m);
      return 'accepted';
    });
    expect(lines.join('\n')).toContain('polling every 1 s');
    await dovecot.append(rawMail({ from: 'Alice <alice@example.com>', subject: 'Polled', messageId: '<p1@example.com>', text: 'Found by polling' }));
    await until(() => handed.length === 1, 5_000, 'the polled mail');
    expect(handed[0]).toMatchObject({ platform: 'email', userId: 'alice@example.com', chatId: '<p1@example.com>', text: 'Subject: Polled\n\nFound by polling' });
    await sleep(200);
    expect(await seen('<p1@example.com>')).toBe(true);
  });

  it(title('flags \\Seen only after the handler resolved'), { timeout: 20_000 }, async () => {
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    await dovecot.append(rawMail({ from: 'Alice <alice@example.com>', messageId: '<p2@example.com>', text: 'Wait for me' }));
    await sleep(2_500); // two polls: the mail is being handed over, the handler has not resolved
    expect(handed.length).toBe(1);
    expect(await seen('<p2@example.com>')).toBe(false);
    release();
    await until(() => handed.length === 2, 5_000, 'the second mail');
    await sleep(200);
    expect(await seen('<p2@example.com>')).toBe(true);
  });

  it(title('reads at most 10 MB of a huge mail: the text is there, the rest is said to be missing'), { timeout: 20_000 }, async () => {
    const b = 'big-1';
    const raw = [
      'From: Alice <alice@example.com>',
      'To: bot@example.com',
      'Subject: Huge',
      'Message-ID: <huge@example.com>',
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${b}"`,
      '',
      `--${b}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'The video is attached.',
      `--${b}`,
      'Content-Type: video/mp4; name="talk.mp4"',
      'Content-Disposition: attachment; filename="talk.mp4"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.alloc(9 * 1024 * 1024, 7).toString('base64').replace(/.{76}/g, '$&\r\n'),
      `--${b}--`,
      '',
    ].join('\r\n');
    await dovecot.append(raw);
    await until(() => handed.length === 3, 10_000, 'the huge mail');
    expect(handed[2].text).toMatch(/^Subject: Huge\n\nThe video is attached\.\n\n\[Only the first 10 MB of this mail were read: an attachment it cuts through, and any after it, were not read\.\]$/);
    // the video, cut through, is not handed on as a file
    expect(handed[2].attachments).toBeUndefined();
    await sleep(200);
    expect(await seen('<huge@example.com>')).toBe(true);
  });

  it(title('stop() lets the mail being handed over finish and be confirmed, then takes no more'), { timeout: 20_000 }, async () => {
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    await dovecot.append(rawMail({ from: 'Alice <alice@example.com>', messageId: '<p3@example.com>', text: 'Handed over during the stop' }));
    await until(() => entered === 4, 5_000, 'the fourth mail to reach the handler');
    const stopped = adapter.stop();
    await sleep(300);
    release();
    await stopped;
    expect(handed.length).toBe(4);
    expect(await seen('<p3@example.com>')).toBe(true);
    await dovecot.append(rawMail({ from: 'Alice <alice@example.com>', messageId: '<p4@example.com>', text: 'After stop' }));
    await sleep(2_000);
    expect(entered).toBe(4);
    expect(await seen('<p4@example.com>')).toBe(false);
  });
});
