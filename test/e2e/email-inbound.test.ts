/**
 * The mailbox as a chat door (ARCHITECTURE.md §11), end to end: a real IMAP server (Dovecot), mail put in with
 * IMAP APPEND, `switchboard start` reading it, answers read from the SMTP fake, the model fake
 * recording what the model was given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake, type RecordedRequest } from '../fakes/model.js';
import { startSmtpFake, type SmtpFake, type ReceivedMail } from '../fakes/smtp.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../fakes/dovecot.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, runCli, startCli, sleep, until, type Running } from '../helpers/cli.js';
import { rawMail } from '../helpers/mail.js';
import { pdfFile, pngFile } from '../helpers/media-files.js';
import { freePort } from '../helpers/ports.js';

const unavailable = dovecotAvailability();
const title = (t: string) => (unavailable ? `${t} (skipped: ${unavailable})` : t);

let dovecot: Dovecot;
let model: ModelFake;
let smtp: SmtpFake;
let root: string;
let gateway: Running | undefined;
let env: NodeJS.ProcessEnv;
let healthPort: number;

const ALICE = 'Alice Example <ALICE@example.com>';

beforeAll(async () => {
  if (unavailable) return;
  dovecot = await startDovecot();
  model = await startModelFake();
  smtp = await startSmtpFake();
  root = mkdtempSync(join(tmpdir(), 'sb-email-in-'));
  healthPort = await freePort();
  const config = join(root, 'config.yaml');
  writeFileSync(config, 'email:\n  max_age_days: 2\nmedia:\n  max_bytes: 100000\n');
  env = cleanEnv({
    SWITCHBOARD_HOME: join(root, 'home'),
    SWITCHBOARD_CONFIG: config,
    OPENAI_BASE_URL: model.openaiUrl,
    OPENAI_API_KEY: 'sk-email-in',
    MODEL: 'fake-model',
    SMTP_URL: smtp.url,
    IMAP_URL: dovecot.url,
    EMAIL_FROM: 'Switchboard <bot@example.com>',
    EMAIL_ALLOWED_SENDERS: 'Alice@Example.com, carol@example.org',
    SWITCHBOARD_HEALTH_PORT: String(healthPort),
  });
});
afterAll(() => cleanUp(() => killIfRunning(gateway), () => dovecot?.stop(), () => model?.close(), () => smtp?.close(), () => removeDir(root)));

async function startGateway(): Promise<Running> {
  gateway = startCli(['start'], { env, cwd: root });
  await gateway.waitFor(/ready \(/, 20_000);
  return gateway;
}

async function answer(n: number, timeoutMs = 15_000): Promise<ReceivedMail> {
  const got = await smtp.waitForMessages(n, timeoutMs).catch((error: Error) => {
    throw new Error(`${error.message}\n${gateway?.stderr() ?? ''}`);
  });
  return got[n - 1];
}

async function seen(messageId: string): Promise<boolean> {
  return (await dovecot.messages()).find((m) => m.messageId === messageId)?.seen ?? false;
}

function historyOf(req: RecordedRequest): Array<{ role: string; content: string }> {
  return (req.body.messages as Array<{ role: string; content: unknown }>).map((m) => ({ role: m.role, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
}

describe.skipIf(Boolean(unavailable))('e-mail as a chat door', () => {
  it(title('answers mail that came while down, threads the answer, sets \\Seen after, and a reply continues the session'), { timeout: 60_000 }, async () => {
    const first = '<q1.alice@example.com>';
    // Arrived before the gateway ran; one more mail older than email.max_age_days stays unanswered.
    await dovecot.append(rawMail({ from: ALICE, subject: 'Question about invoices', messageId: first, text: 'How many invoices are open?' }));
    await dovecot.append(rawMail({ from: ALICE, subject: 'Ancient', messageId: '<old@example.com>', text: 'Very old' }), [], new Date(Date.now() - 5 * 86_400_000));
    await startGateway();

    const mail1 = await answer(1);
    expect(mail1.envelope.to).toEqual(['alice@example.com']);
    expect(mail1.parsed.subject).toBe('Re: Question about invoices');
    expect(mail1.parsed.inReplyTo).toBe(first);
    expect(mail1.parsed.references).toBe(first);
    expect(mail1.parsed.text).toContain('How many invoices are open?');
    expect(mail1.parsed.html).toContain('How many invoices are open?');
    expect(await seen(first)).toBe(true);
    expect(await seen('<old@example.com>')).toBe(false);
    expect(model.completions().length).toBe(1);
    expect(lastUserText(model.completions()[0])).toContain('Subject: Question about invoices');

    // Alice replies in the thread (Gmail style), quoting the answer and signing.
    const second = '<q2.alice@example.com>';
    await dovecot.append(
      rawMail({
        from: ALICE,
        replyTo: 'alice.work@example.com',
        subject: 'Re: Question about invoices',
        messageId: second,
        inReplyTo: mail1.parsed.messageId,
        references: [first, mail1.parsed.messageId!],
        text: `And how many are overdue?\n\nOn Tue, Dec 1, 2026 at 9:00 AM Switchboard <bot@example.com> wrote:\n> Echo: an earlier answer\n> QUOTED-SECRET\n\n-- \nAlice Example\nSIGNATURE-LINE`,
      }),
    );
    const mail2 = await answer(2);
    expect(mail2.envelope.to).toEqual(['alice.work@example.com']);
    expect(mail2.parsed.subject).toBe('Re: Question about invoices');
    expect(mail2.parsed.inReplyTo).toBe(second);
    expect(mail2.parsed.references).toEqual([first, mail1.parsed.messageId, second]);
    const req = model.completions()[1];
    const sent = lastUserText(req);
    expect(sent).toContain('And how many are overdue?');
    for (const hidden of ['QUOTED-SECRET', 'SIGNATURE-LINE', 'wrote:', 'Echo: an earlier answer']) expect(sent).not.toContain(hidden);
    // the same session: the first turn is in the history
    const history = historyOf(req);
    expect(history.some((m) => m.role === 'user' && m.content.includes('How many invoices are open?'))).toBe(true);
    expect(history.some((m) => m.role === 'assistant' && m.content.includes('Echo:'))).toBe(true);
    expect(JSON.stringify(req.body)).not.toContain('QUOTED-SECRET');
    expect(await seen(second)).toBe(true);
  });

  it(title('never answers machine mail, lists, bounces, its own mail, forged or unknown senders — no model call, no mail, each marked seen with its reason'), { timeout: 60_000 }, async () => {
    const g = gateway!;
    const calls = model.completions().length;
    const mails = smtp.messages.length;
    const skipped: Array<[string, Parameters<typeof rawMail>[0], RegExp]> = [
      ['<auto@example.com>', { from: ALICE, headers: ['Auto-Submitted: auto-replied'], text: 'I am out of office' }, /Auto-Submitted: auto-replied/],
      ['<bulk@example.com>', { from: ALICE, headers: ['Precedence: bulk'], text: 'Newsletter' }, /Precedence: bulk/],
      ['<list@example.com>', { from: ALICE, headers: ['List-Id: Team <team.lists.example.com>'], text: 'List traffic' }, /List-Id/],
      ['<bounce@example.com>', { from: 'Mail Delivery System <MAILER-DAEMON@example.com>', text: 'Delivery failed' }, /mailer-daemon/i],
      ['<postmaster@example.com>', { from: 'postmaster@example.com', text: 'Notice' }, /postmaster/],
      ['<loop@example.com>', { from: 'Switchboard <bot@example.com>', text: 'Echo: ourselves' }, /own address/],
      ['<dmarc@example.com>', { from: ALICE, headers: ['Authentication-Results: mx.example.net; spf=pass smtp.mailfrom=evil.test; dmarc=fail (p=reject) header.from=example.com'], text: 'Forged' }, /dmarc=fail/],
      ['<spf@example.com>', { from: ALICE, headers: ['Authentication-Results: mx.example.net; spf=fail smtp.mailfrom=alice@example.com'], text: 'Forged too' }, /spf=fail/],
      ['<stranger@example.com>', { from: 'Mallory <mallory@evil.test>', text: 'Let me in' }, /EMAIL_ALLOWED_SENDERS \(no reply/],
    ];
    for (const [id, spec] of skipped) await dovecot.append(rawMail({ ...spec, messageId: id }));
    // an allowed sender after them: once it is answered, every mail before it was handled
    await dovecot.append(rawMail({ from: 'carol@example.org', subject: 'Sentinel', messageId: '<sentinel@example.org>', text: 'Ping from Carol' }));
    const mail = await answer(mails + 1);
    expect(mail.envelope.to).toEqual(['carol@example.org']);
    await sleep(300);
    expect(model.completions().length).toBe(calls + 1);
    expect(lastUserText(model.completions()[calls])).toContain('Ping from Carol');
    expect(smtp.messages.length).toBe(mails + 1);
    for (const [id, , reason] of skipped) {
      expect(await seen(id), id).toBe(true);
      const line = g.stderr().split('\n').find((l) => l.includes(id));
      expect(line, `log line for ${id}\n${g.stderr()}`).toMatch(reason);
    }
  });

  it(title('a photo and a PDF attached to a mail reach the model as an image part and the PDF\'s text; a stranger\'s attachment is never stored'), { timeout: 60_000 }, async () => {
    const mails = smtp.messages.length;
    const calls = model.completions().length;
    const mediaDir = join(env.SWITCHBOARD_HOME!, 'media');
    const stored = () => (existsSync(mediaDir) ? readdirSync(mediaDir) : []);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const strangerPng = pngFile(48, 48);
    const before = stored();
    await dovecot.append(rawMail({ from: 'Mallory <mallory@evil.test>', subject: 'Look', messageId: '<stranger-files@evil.test>', text: 'See my file', attachments: [{ name: 'bait.png', type: 'image/png', data: strangerPng }, { name: 'bait.pdf', type: 'application/pdf', data: pdfFile('STRANGER-PDF') }] }));
    const png = pngFile(64, 64);
    const pdf = pdfFile('Invoice total ZEBRA-42');
    const zip = randomBytes(150_000);
    const files = [
      { name: 'photo.png', type: 'image/png', data: png },
      { name: 'invoice.pdf', type: 'application/pdf', data: pdf },
      { name: 'big.zip', type: 'application/zip', data: zip },
    ];
    await dovecot.append(rawMail({ from: ALICE, subject: 'Files', messageId: '<files@example.com>', text: 'What is in these?', attachments: files }));
    // the first image and PDF of the process load sharp and pdf.js: slow on a busy machine
    const mail = await answer(mails + 1, 40_000);
    expect(mail.envelope.to).toEqual(['alice@example.com']);
    // over media.max_bytes: one line first in the reply, as on every door
    expect(mail.parsed.text).toMatch(/^I could not use "big\.zip": it is 146 KB, over the limit of 98 KB \(media\.max_bytes\)\./);
    expect(smtp.messages.length).toBe(mails + 1);
    expect(model.completions().length).toBe(calls + 1);
    const req = model.completions()[calls];
    const messages = req.body.messages as Array<{ role: string; content: unknown }>;
    const last = messages[messages.length - 1];
    expect(last.role).toBe('user');
    const blocks = last.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(Array.isArray(blocks), JSON.stringify(last)).toBe(true);
    const text = blocks.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
    expect(text).toContain('What is in these?');
    expect(text).toMatch(/<document name="invoice\.pdf" type="application\/pdf" untrusted="true">\s*Invoice total ZEBRA-42\s*<\/document>/);
    const images = blocks.filter((b) => b.type === 'image_url');
    expect(images).toHaveLength(1);
    expect(images[0].image_url?.url).toMatch(/^data:image\/(png|jpeg|webp);base64,/);
    expect(JSON.stringify(req.body)).not.toContain('STRANGER-PDF');
    // Alice's files were kept (as sent, and the image as re-encoded); nothing of Mallory's.
    expect(await seen('<stranger-files@evil.test>')).toBe(true);
    const now = stored();
    expect(now).toContain(sha(png));
    expect(now).toContain(sha(pdf));
    expect(now).not.toContain(sha(strangerPng));
    expect(now).not.toContain(sha(zip));
    expect(now).not.toContain(sha(pdfFile('STRANGER-PDF')));
    expect(now.filter((f) => !before.includes(f)).length).toBeGreaterThanOrEqual(3);
  });

  it(title('resumes after the IMAP connection is killed and the server restarted; /readyz says 503 naming the door within 5 s while it is down'), { timeout: 60_000 }, async () => {
    const mails = smtp.messages.length;
    const readyz = async () => {
      const r = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
      return { status: r.status, body: (await r.json()) as { problems?: Record<string, string>; doors?: Record<string, string> } };
    };
    const ready = await readyz();
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body.doors?.email).toBe('connected');
    await dovecot.restart(async () => {
      // The server is gone: the door says so at once, and /readyz names it.
      const downAt = Date.now();
      let down = await readyz();
      while (down.status !== 503 && Date.now() - downAt < 5000) {
        await sleep(100);
        down = await readyz();
      }
      expect(down.status, JSON.stringify(down.body)).toBe(503);
      expect(down.body.problems?.['door:email']).toMatch(/IMAP .*127\.0\.0\.1:\d+/);
      expect(down.body.doors?.email).toBe('down');
      console.log(`/readyz said 503 for the e-mail door ${Date.now() - downAt} ms after the IMAP server stopped: ${down.body.problems?.['door:email']}`);
    });
    await dovecot.append(rawMail({ from: ALICE, subject: 'After the drop', messageId: '<after-drop@example.com>', text: 'Still there?' }));
    const mail = await answer(mails + 1);
    expect(mail.parsed.subject).toBe('Re: After the drop');
    expect(await seen('<after-drop@example.com>')).toBe(true);
    expect(gateway!.stderr()).toMatch(/IMAP connection to 127\.0\.0\.1:\d+ dropped; reconnecting/);
    // connected again: ready again
    expect((await readyz()).status).toBe(200);
  });

  it(title('a restart answers nothing twice, even a journaled mail whose \\Seen was lost'), { timeout: 60_000 }, async () => {
    expect(await gateway!.stop('SIGTERM')).toBe(0);
    const calls = model.completions().length;
    const mails = smtp.messages.length;
    // as if the gateway had died between journaling and flagging
    await dovecot.markUnseen('<q1.alice@example.com>');
    const g = await startGateway();
    await until(() => g.stderr().includes('this Message-ID was handled before'), 10_000, 'the duplicate to be noticed', g);
    await sleep(500);
    expect(model.completions().length).toBe(calls);
    expect(smtp.messages.length).toBe(mails);
    expect(await seen('<q1.alice@example.com>')).toBe(true);
    expect(await g.stop('SIGTERM')).toBe(0);
  });
});

describe.skipIf(Boolean(unavailable))('doctor with IMAP_URL', () => {
  it(title('accepts the mailbox, and names IMAP_URL in one line for a wrong password or host, the password hidden'), { timeout: 90_000 }, async () => {
    // each its own data folder: four processes migrating one new SQLite file wait on each other
    let n = 0;
    // four at once: on a busy machine each can take longer than runCli's default 20 s
    const doctor = (imapUrl: string) => runCli(['doctor'], { env: { ...env, SWITCHBOARD_HOME: join(root, `doctor-${++n}`), IMAP_URL: imapUrl }, cwd: root, timeoutMs: 60_000 });
    const [good, wrong, host, box] = await Promise.all([
      doctor(dovecot.url),
      doctor(`imap://bot:wrong-password@127.0.0.1:${dovecot.port}/INBOX`),
      doctor('imap://bot:secret-pass@127.0.0.1:1/INBOX'),
      doctor(`imap://bot:secret-pass@127.0.0.1:${dovecot.port}/Nope`),
    ]);
    expect(good.stdout).toMatch(/✓ email: .*mailbox INBOX on 127\.0\.0\.1:\d+ opened as bot/);
    expect(wrong.code).toBe(1);
    const line = wrong.stdout.split('\n').find((l) => l.startsWith('✗ email'));
    expect(line).toMatch(/refused the login for bot; check the user and password in IMAP_URL \(imap:\/\/bot:\*\*\*@127\.0\.0\.1:\d+\/INBOX\)/);
    expect(wrong.stdout + wrong.stderr).not.toContain('wrong-password');
    expect(host.stdout).toMatch(/✗ email: e-mail inbound: cannot reach the IMAP server 127\.0\.0\.1:1 .*IMAP_URL/);
    expect(host.stdout).not.toContain('secret-pass');
    expect(box.stdout).toMatch(/✗ email: e-mail inbound: the mailbox 'Nope' does not exist/);
    expect(good.stdout).not.toContain('email access');
    const nobody = await runCli(['doctor'], { env: { ...env, SWITCHBOARD_HOME: join(root, 'doctor-nobody'), EMAIL_ALLOWED_SENDERS: '' }, cwd: root });
    expect(nobody.stdout).toMatch(/✗ email access: EMAIL_ALLOWED_SENDERS is empty/);
  });

  it(title('start with a wrong IMAP password stops with one line naming IMAP_URL'), { timeout: 30_000 }, async () => {
    // a server of its own: Dovecot holds back a second failed login from one address for seconds
    const other = await startDovecot();
    const r = await runCli(['start'], { env: { ...env, SWITCHBOARD_HOME: join(root, 'home-wrong'), IMAP_URL: `imap://bot:wrong-password@127.0.0.1:${other.port}/INBOX` }, cwd: root }).finally(() => other.stop());
    expect(r.code).not.toBe(0);
    const lines = r.stderr.trim().split('\n').filter((l) => !/ info /.test(l));
    expect(lines).toEqual([expect.stringMatching(/^switchboard: .*refused the login for bot; check the user and password in IMAP_URL \(imap:\/\/bot:\*\*\*@/)]);
    expect(r.stderr).not.toContain('wrong-password');
  });
});
