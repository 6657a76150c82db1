/**
 * Inbound mail translation (ARCHITECTURE.md §11) on fixtures: only what the person wrote (the common client
 * reply styles and signatures cut), HTML-only mail as text, attachments handed on as file parts, long mail cut; the
 * never-answered screen; the thread and reply headers; IMAP_URL validation.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staticSpecifiers } from '../helpers/source-imports.js';
import { parseMail, replySubject, MAX_TEXT_CHARS } from '../../src/adapters/email/parse.js';
import { screenMail } from '../../src/adapters/email/screen.js';
import { toInboundMessage } from '../../src/adapters/email/inbound.js';
import { composeMail } from '../../src/adapters/email/compose.js';
import { parseImapUrl, loadSettings } from '../../src/core/settings.js';
import { formatAddress, formatSessionKey, parseDeliverableAddress } from '../../src/platform/address.js';
import { rawMail } from '../helpers/mail.js';

const FROM = 'Alice <alice@example.com>';

/** The written text of a plain mail with this body. */
async function written(text: string): Promise<string> {
  return (await parseMail(rawMail({ from: FROM, inReplyTo: '<x@y>', text }))).text;
}

describe('what the person wrote', () => {
  const styles: Array<[string, string]> = [
    ['Gmail', 'On Mon, Jan 5, 2026 at 9:00 AM Bob Builder <bob@example.com> wrote:\n> QUOTED old text\n> more QUOTED'],
    ['Gmail, long attribution wrapped', 'On Mon, Jan 5, 2026 at 9:00 AM Bob Builder <\nbob@example.com> wrote:\n\n> QUOTED'],
    ['Apple Mail', '> On 5 Jan 2026, at 09:00, Bob Builder <bob@example.com> wrote:\n> \n> QUOTED old text'],
    ['Thunderbird', 'On 1/5/26 9:00 AM, Bob Builder wrote:\n> QUOTED old text'],
    ['Outlook, original message', '-----Original Message-----\nFrom: Bob Builder\nSent: Monday, January 5, 2026 9:00 AM\nTo: Alice\nSubject: Plans\n\nQUOTED old text'],
    ['Outlook, header block with address', 'From: Bob Builder <bob@example.com>\nSent: Monday, January 5, 2026 9:00 AM\nTo: Alice <alice@example.com>\nSubject: RE: Plans\n\nQUOTED old text'],
    ['Outlook, header block without address', '________________________________\nFrom: Bob Builder\nSent: Monday, January 5, 2026 9:00 AM\nTo: Alice\nSubject: RE: Plans\n\nQUOTED old text'],
    ['Outlook, bare header block', 'From: Bob Builder\nSent: Monday, January 5, 2026 9:00 AM\nTo: Alice\nSubject: RE: Plans\n\nQUOTED old text'],
    ['plain > quoting', '> QUOTED old text\n> more QUOTED'],
  ];
  for (const [style, quote] of styles) {
    it(`cuts a ${style} quote and a "-- " signature`, async () => {
      const text = await written(`Sounds good, let us ship on Friday.\nThanks!\n\n${quote}\n`);
      expect(text).toBe('Sounds good, let us ship on Friday.\nThanks!');
    });
  }

  it('cuts the signature after "-- " and keeps everything above it', async () => {
    expect(await written('First line\n\nSecond paragraph\n\n-- \nAlice Example\nACME Corp | +1 555 0100\n')).toBe('First line\n\nSecond paragraph');
  });

  it('keeps text after a line the person drew (----, ____, ===), unlike a "-- " signature', async () => {
    expect(await written('Agenda\n\n----\n\nItem one\nItem two\n\n-- \nAlice')).toBe('Agenda\n\n----\n\nItem one\nItem two');
    expect(await written('Totals\n=====\n42 open')).toBe('Totals\n=====\n42 open');
    expect(await written('Short answer\n--\nAlice (mobile)')).toBe('Short answer');
  });

  it('drops interleaved > lines but keeps the answers between them', async () => {
    expect(await written('> Can you come?\nYes, at 10.\n> And bring the slides?\nSure.\n')).toBe('Yes, at 10.\nSure.');
  });

  it('drops the "On … wrote:" line that introduces an inline (interleaved) quote', async () => {
    const body = 'On Mon, 30 Nov 2026 at 10:00, Switchboard <bot@example.com> wrote:\n> Do you want A or B?\nI want A.\n\n> And which colour?\nBlue.\n';
    expect(await written(body)).toBe('I want A.\n\nBlue.');
    expect(await written('Am 30.11.2026 um 10:00 schrieb Bob <bob@example.com>:\n> Frage?\nAntwort.')).toBe('Antwort.');
  });

  it('keeps a line ending in ":" that introduces the person\'s own list, not a quote', async () => {
    expect(await written('Here are my 3 points:\n- one\n- two')).toBe('Here are my 3 points:\n- one\n- two');
  });

  it('cuts the thread Outlook on the web appends after its reply header in an HTML-only mail', async () => {
    const minimal = '<div>MY ANSWER</div><div id="divRplyFwdMsg"><b>From:</b> Bob<br><b>Sent:</b> Monday<br><b>To:</b> Alice<br><b>Subject:</b> x</div><div>QUOTED earlier mail</div>';
    const full = '<div>MY ANSWER thanks</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Bob</div><div>QUOTED previous answer</div>';
    for (const html of [minimal, full]) {
      const mail = await parseMail(rawMail({ from: FROM, html }));
      expect(mail.text).toContain('MY ANSWER');
      expect(mail.text).not.toContain('QUOTED');
      expect(mail.text).not.toContain('Bob');
    }
  });

  it('keeps a message that has no quote at all, words like "from:" in the middle included', async () => {
    const body = 'Please check the numbers from: the Q3 report.\nThey look off.';
    expect(await written(body)).toBe(body);
  });

  it('turns an HTML-only mail into text, without the quoted thread', async () => {
    const html =
      '<div dir="ltr"><p>Hello <b>there</b>, see <a href="https://example.com/doc">the doc</a>.</p><ul><li>one</li><li>two</li></ul></div>' +
      '<div class="gmail_quote"><div class="gmail_attr">On Mon, Bob wrote:</div><blockquote>QUOTED html</blockquote></div>';
    const mail = await parseMail(rawMail({ from: FROM, html }));
    expect(mail.text).toContain('Hello there, see the doc [https://example.com/doc].');
    expect(mail.text).toMatch(/\* one\n \* two/);
    expect(mail.text).not.toContain('QUOTED');
    expect(mail.text).not.toContain('<');
  });

  it('prefers the text/plain part of a multipart/alternative mail', async () => {
    const mail = await parseMail(rawMail({ from: FROM, text: 'Plain words', html: '<p>HTML words</p>' }));
    expect(mail.text).toBe('Plain words');
  });

  it('hands attachments on as file parts (bytes and SHA-256), never inside the text', async () => {
    const b = 'mixed-1';
    const raw = [
      `From: ${FROM}`,
      'To: bot@example.com',
      'Subject: Report',
      'Message-ID: <att@example.com>',
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${b}"`,
      '',
      `--${b}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'See the attached report.',
      `--${b}`,
      'Content-Type: application/pdf; name="q3.pdf"',
      'Content-Disposition: attachment; filename="q3.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('SECRET-PDF-CONTENT'.repeat(100)).toString('base64'),
      `--${b}--`,
      '',
    ].join('\r\n');
    const mail = await parseMail(raw);
    expect(mail.text).toBe('See the attached report.');
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf).toMatchObject({ name: 'q3.pdf', type: 'application/pdf', bytes: 1800 });
    expect(Buffer.from(pdf.data!).toString()).toBe('SECRET-PDF-CONTENT'.repeat(100));
    expect(pdf.sha256).toBe(createHash('sha256').update('SECRET-PDF-CONTENT'.repeat(100)).digest('hex'));
    // over the byte limit: described, its bytes not kept
    const big = await parseMail(raw, { maxPartBytes: 1000 });
    expect(big.attachments).toEqual([{ name: 'q3.pdf', type: 'application/pdf', bytes: 1800 }]);
  });

  it(`cuts a mail over ${MAX_TEXT_CHARS.toLocaleString('en-US')} characters and says so`, async () => {
    const mail = await parseMail(rawMail({ from: FROM, text: 'a'.repeat(150_000) }));
    expect(mail.text.startsWith('a'.repeat(MAX_TEXT_CHARS) + '\n\n[The mail was cut here: it has 150,000 characters')).toBe(true);
    expect(mail.text.length).toBeLessThan(MAX_TEXT_CHARS + 200);
  });
});

describe('never answered', () => {
  const own = 'Switchboard <bot@example.com>';
  const screen = async (spec: Parameters<typeof rawMail>[0]) => screenMail(await parseMail(rawMail(spec)), own);

  it('lets a person through, Auto-Submitted: no included', async () => {
    expect(await screen({ from: FROM })).toBeNull();
    expect(await screen({ from: FROM, headers: ['Auto-Submitted: no'] })).toBeNull();
    expect(await screen({ from: FROM, headers: ['Authentication-Results: mx.example.net; spf=pass smtp.mailfrom=example.com; dkim=pass; dmarc=pass header.from=example.com'] })).toBeNull();
    // a failure about another domain (a forwarder's) is not this sender's
    expect(await screen({ from: FROM, headers: ['Authentication-Results: mx.example.net; spf=fail smtp.mailfrom=lists.other.test'] })).toBeNull();
  });

  const cases: Array<[string, Parameters<typeof rawMail>[0], RegExp]> = [
    ['auto-replied', { from: FROM, headers: ['Auto-Submitted: auto-replied'] }, /Auto-Submitted: auto-replied/],
    ['auto-generated with a comment', { from: FROM, headers: ['Auto-Submitted: auto-generated; type=vacation'] }, /Auto-Submitted: auto-generated/],
    ['X-Autoreply', { from: FROM, headers: ['X-Autoreply: yes'] }, /auto-reply/],
    ['Precedence: junk', { from: FROM, headers: ['Precedence: junk'] }, /Precedence: junk/],
    ['Precedence: list', { from: FROM, headers: ['Precedence: list'] }, /Precedence: list/],
    ['List-Id', { from: FROM, headers: ['List-Id: <dev.lists.example.com>'] }, /List-Id/],
    ['MAILER-DAEMON', { from: 'MAILER-DAEMON@mx.example.com' }, /mailer-daemon/i],
    ['postmaster', { from: 'Postmaster <postmaster@example.com>' }, /postmaster/i],
    ['our own From (a loop)', { from: 'BOT@example.com' }, /own address/],
    ['our own Reply-To', { from: FROM, replyTo: 'bot@example.com' }, /own address/],
    ['dmarc=fail', { from: FROM, headers: ['Authentication-Results: mx.example.net; dmarc=fail (p=reject dis=none) header.from=example.com'] }, /dmarc=fail for example\.com/],
    ['spf=fail', { from: FROM, headers: ['Authentication-Results: mx.example.net;\r\n\tspf=fail (sender not permitted) smtp.mailfrom=alice@example.com'] }, /spf=fail for example\.com/],
    ['no From', { from: '' }, /no sender/],
  ];
  for (const [name, spec, reason] of cases) {
    it(`skips ${name}`, async () => {
      expect(await screen(spec)).toMatch(reason);
    });
  }
});

describe('thread and reply', () => {
  it('a new mail is its own thread; the reply goes to Reply-To with Re:, In-Reply-To and References', async () => {
    const mail = await parseMail(rawMail({ from: 'Alice <Alice@Example.com>', replyTo: 'alice+bot@example.com', subject: 'Plans', messageId: '<m1@example.com>', text: 'Hi' }));
    const inbound = toInboundMessage(mail, '<fallback@imap>', new Date(0));
    expect(inbound).toMatchObject({ platform: 'email', chatId: '<m1@example.com>', userId: 'alice@example.com', updateId: '<m1@example.com>', isDirect: true, text: 'Subject: Plans\n\nHi' });
    expect(inbound.replyTarget).toEqual({ platform: 'email', chatId: 'alice+bot@example.com', userId: 'alice@example.com', extra: { subject: 'Re: Plans', inReplyTo: '<m1@example.com>', references: '<m1@example.com>' } });
  });

  it('a reply belongs to the thread root (first References id) and its answer extends References', async () => {
    const mail = await parseMail(rawMail({ from: FROM, subject: 'RE: Re: Plans', messageId: '<m3@example.com>', inReplyTo: '<m2@bot>', references: ['<m1@example.com>', '<m2@bot>'], text: 'More' }));
    const inbound = toInboundMessage(mail, '<fallback@imap>', new Date(0));
    expect(inbound.chatId).toBe('<m1@example.com>');
    expect(inbound.text).toBe('More');
    expect(inbound.replyTarget.extra).toEqual({ subject: 'Re: Plans', inReplyTo: '<m3@example.com>', references: '<m1@example.com> <m2@bot> <m3@example.com>' });
    const options = composeMail(
      { id: 7, target: inbound.replyTarget, message: { chunks: ['Answer'], html: '<p>Answer</p>' }, firstChunk: 0, onChunkSent: () => undefined },
      'Switchboard <bot@example.com>',
      new Date(0),
    );
    expect(options).toMatchObject({ to: 'alice@example.com', subject: 'Re: Plans', inReplyTo: '<m3@example.com>', references: '<m1@example.com> <m2@bot> <m3@example.com>', text: 'Answer', html: '<p>Answer</p>' });
  });

  it('a new mail with only a subject is still a question; a reply with nothing written is empty', async () => {
    const only = toInboundMessage(await parseMail(rawMail({ from: FROM, subject: 'What is on today?', text: '' })), '<f@imap>', new Date(0));
    expect(only.text).toBe('Subject: What is on today?');
    const quoteOnly = toInboundMessage(await parseMail(rawMail({ from: FROM, subject: 'Re: x', references: ['<r@x>'], text: '> all quoted' })), '<f@imap>', new Date(0));
    expect(quoteOnly.text).toBe('');
  });

  it('a mail without Message-ID is keyed by its mailbox UID', async () => {
    const mail = await parseMail(rawMail({ from: FROM, messageId: null, text: 'x' }));
    const inbound = toInboundMessage(mail, '<17.3@imap.mail.example.com>', new Date(0));
    expect(inbound.updateId).toBe('<17.3@imap.mail.example.com>');
    expect(inbound.replyTarget.extra?.inReplyTo).toBeUndefined();
  });

  it('never writes Re: Re:', () => {
    expect(replySubject('Plans')).toBe('Re: Plans');
    expect(replySubject('Re: Plans')).toBe('Re: Plans');
    expect(replySubject('RE: re:Plans')).toBe('Re: Plans');
    expect(replySubject('Aw: Re[2]: Plans')).toBe('Re: Plans');
    expect(replySubject('')).toBe('Re: (no subject)');
  });

  it('a thread chat id round-trips through the address forms, and email: delivery still means a mail address', () => {
    const key = formatSessionKey({ platform: 'email', chatId: '<a:b%c@example.com>', userId: 'alice@example.com' });
    expect(key).toBe('email:<a%3Ab%25c@example.com>:alice@example.com');
    expect(formatAddress({ platform: 'email', chatId: 'alice@example.com' })).toBe('email:alice@example.com');
    expect(parseDeliverableAddress('email:Alice@Example.com')).toEqual({ platform: 'email', chatId: 'alice@example.com' });
    expect(() => parseDeliverableAddress('email:<m1@example.com>')).toThrow(/email:<address>/);
  });
});

describe('IMAP_URL', () => {
  it('takes imaps:// and imap:// with the mailbox as path', () => {
    expect(parseImapUrl('imaps://bot%40example.com:p%2Fss@mail.example.com/INBOX')).toEqual({
      host: 'mail.example.com', port: 993, secure: true, user: 'bot@example.com', pass: 'p/ss', mailbox: 'INBOX', shown: 'imaps://bot%40example.com:***@mail.example.com/INBOX',
    });
    expect(parseImapUrl('imap://u:pw@127.0.0.1:1143')).toMatchObject({ port: 1143, secure: false, mailbox: 'INBOX' });
    expect(parseImapUrl('imap://u:pw@mail.example.com/Bots%2FSwitchboard')).toMatchObject({ port: 143, mailbox: 'Bots/Switchboard' });
  });

  it('refuses anything else in one line naming IMAP_URL, the password hidden', () => {
    for (const [url, why] of [
      ['https://u:hunter22@mail.example.com/', /expected imaps:\/\//],
      ['imap://u@mail.example.com/', /needs the user and password/],
      ['not a url', /expected imaps:\/\//],
    ] as const) {
      let message = '';
      try {
        loadSettings({ IMAP_URL: url, SWITCHBOARD_CONFIG: 'config/default.yaml', SWITCHBOARD_HOME: '/tmp/sb-imap-url-test' });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^IMAP_URL: /);
      expect(message).toMatch(why);
      expect(message).not.toContain('hunter22');
      expect(message).not.toContain('\n');
    }
  });

  it('keeps the IMAP password among the secrets redacted from logs, and compares allowed senders lower-cased', () => {
    const s = loadSettings({ IMAP_URL: 'imap://u:hunter22@mail.example.com/', EMAIL_ALLOWED_SENDERS: 'Alice@Example.COM', SWITCHBOARD_CONFIG: 'config/default.yaml', SWITCHBOARD_HOME: '/tmp/sb-imap-url-test' });
    expect(s.secrets).toContain('hunter22');
    expect([...s.email.allowed.ids]).toEqual(['alice@example.com']);
  });
});

describe('start-up footprint', () => {
  it('loads the IMAP client and the mail parser only when IMAP_URL is set, nodemailer only when a mail goes out (dynamic import)', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const loaded = staticSpecifiers(join(root, 'src/adapters/registry.ts'));
    expect(loaded.has('nodemailer')).toBe(false); // the e-mail adapter itself is imported dynamically
    const email = staticSpecifiers(join(root, 'src/adapters/email/index.ts'));
    for (const heavy of ['nodemailer', 'imapflow', 'mailparser', 'html-to-text']) expect(email.has(heavy), heavy).toBe(false); // nodemailer: by the first mail
    expect(staticSpecifiers(join(root, 'src/adapters/email/intake.ts')).has('imapflow')).toBe(true);
  });
});
