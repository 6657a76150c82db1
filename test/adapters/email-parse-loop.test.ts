/**
 * No mail holds the event loop (issue 38, "the reply cut holds on real mail"; ARCHITECTURE.md §11): the
 * e-mail door parses a raw mail in a worker thread (mailparser and html-to-text), and what is left on
 * the event loop is bounded. Measured with a 1 ms probe while real mail is parsed: an 850 KB HTML
 * mail, a 1 MB plain one and a 9.5 MB one of base64 attachments (near the 10 MB the door reads) each hold it under 100 ms (best of
 * three runs, so a garbage collection in one run is not taken for the parser). Also: which parts
 * count as attachments (the inline-image rule), and a mail the worker cannot read in time is
 * answered from its headers, saying so.
 */
import { describe, expect, it } from 'vitest';
import { parseMail, MIN_INLINE_IMAGE_BYTES } from '../../src/adapters/email/parse.js';
import { MAX_SOURCE_BYTES } from '../../src/adapters/email/intake.js';
import { loopStallMs } from '../helpers/loop-stall.js';


/**
 * The best of up to `runs` runs (a garbage collection, or the machine busy elsewhere, in one is not
 * the parser's); stops at the first under `enough` ms. Each run parses its own copy of `raw`, made
 * before the probe starts, handed over as the IMAP door hands over what it fetched.
 */
async function bestOf(runs: number, enough: number, raw: Buffer): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs && best >= enough; i++) {
    const copy = Buffer.from(raw);
    best = Math.min(best, await loopStallMs(() => parseMail(copy, { handOver: true })));
  }
  return best;
}

const head = (type: string) => `From: Alice <alice@example.com>\r\nTo: bot@example.com\r\nSubject: big\r\nMessage-ID: <big@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: ${type}\r\n\r\n`;

function multipart(parts: Array<{ type: string; body: string; headers?: string[] }>, kind = 'mixed'): Buffer {
  const b = `b-${kind}`;
  const lines = [head(`multipart/${kind}; boundary="${b}"`)];
  for (const p of parts) lines.push(`--${b}\r\nContent-Type: ${p.type}\r\n${(p.headers ?? []).map((h) => `${h}\r\n`).join('')}\r\n${p.body}\r\n`);
  lines.push(`--${b}--\r\n`);
  return Buffer.from(lines.join(''));
}

const base64 = (bytes: Buffer) => bytes.toString('base64').replace(/.{76}/g, '$&\r\n');

describe('parsing a mail never holds the event loop 100 ms', () => {
  const html = '<html><head><style>' + 'p { color: red; }\n'.repeat(2000) + '</style></head><body>' + '<p>Hello there, this is a line of text with <b>bold</b> and <a href="https://x.example/a">a link</a>.</p>\n'.repeat(8000) + '</body></html>';
  const htmlMail = Buffer.from(head('text/html; charset=utf-8') + html);
  const plainMail = Buffer.from(head('text/plain; charset=utf-8') + 'All work and no play makes Jack a dull boy, says the long plain mail.\r\n'.repeat(15_000));
  const attached = multipart([
    { type: 'text/plain; charset=utf-8', body: 'The scans are attached.' },
    { type: 'application/pdf; name="scan.pdf"', headers: ['Content-Disposition: attachment; filename="scan.pdf"', 'Content-Transfer-Encoding: base64'], body: base64(Buffer.alloc(6_800_000, 7)) },
    { type: 'image/png; name="photo.png"', headers: ['Content-Disposition: attachment; filename="photo.png"', 'Content-Transfer-Encoding: base64'], body: base64(Buffer.alloc(200_000, 9)) },
  ]);

  it('an 850 KB HTML mail, a 1 MB plain mail and a 9.5 MB mail of attachments: the words come through, cut with a note; the loop is held under 100 ms', { timeout: 60_000 }, async () => {
    expect(htmlMail.byteLength).toBeGreaterThan(850_000);
    expect(plainMail.byteLength).toBeGreaterThan(1_000_000);
    expect(attached.byteLength).toBeGreaterThan(9_400_000);
    expect(attached.byteLength).toBeLessThan(MAX_SOURCE_BYTES);
    const h = await parseMail(htmlMail);
    expect(h.text.startsWith('Hello there, this is a line of text with bold and a link [https://x.example/a].')).toBe(true);
    expect(h.text).toMatch(/\[The mail was cut here: it has [\d,]+ characters and only the first [\d,]+ were kept\.\]$/);
    const p = await parseMail(plainMail);
    expect(p.text.startsWith('All work and no play')).toBe(true);
    expect(p.text).toMatch(/\[The mail was cut here: it has 1,0\d\d,\d{3} characters and only the first 100,000 were kept\.\]$/);
    const a = await parseMail(attached);
    expect(a.text).toBe('The scans are attached.');
    expect(a.attachments.map((x) => [x.name, x.bytes, x.data?.byteLength])).toEqual([
      ['scan.pdf', 6_800_000, 6_800_000],
      ['photo.png', 200_000, 200_000],
    ]);

    const held = { html: await bestOf(3, 100, htmlMail), plain: await bestOf(3, 100, plainMail), attachments: await bestOf(3, 100, attached) };
    console.log(`event loop held at most: 850 KB HTML ${held.html.toFixed(1)} ms, 1 MB plain ${held.plain.toFixed(1)} ms, a 9.5 MB mail of attachments ${held.attachments.toFixed(1)} ms`);
    expect(held.html).toBeLessThan(100);
    expect(held.plain).toBeLessThan(100);
    expect(held.attachments).toBeLessThan(100);
  });

  it('a mail the worker cannot read in time is answered from its headers, saying so', async () => {
    const mail = await parseMail(htmlMail, { timeoutMs: 1 });
    expect(mail.from).toBe('alice@example.com');
    expect(mail.subject).toBe('big');
    expect(mail.messageId).toBe('<big@example.com>');
    expect(mail.text).toMatch(/^\[This mail \(\d+ KB\) could not be read: the mail took longer than 0\.001 s to read\. Only its sender and subject came through\.\]$/);
    // the next mail gets a new worker
    expect((await parseMail(plainMail)).text.startsWith('All work and no play')).toBe(true);
  });
});

describe('which parts are attachments', () => {
  it(`an image the HTML shows by cid: counts when it is ${MIN_INLINE_IMAGE_BYTES / 1024} KB or more (a pasted screenshot), not when smaller (a logo)`, async () => {
    const related = multipart(
      [
        { type: 'text/html; charset=utf-8', body: '<p>See <img src="cid:shot"> and our logo <img src="cid:logo"></p>' },
        { type: 'image/png; name="screenshot.png"', headers: ['Content-ID: <shot>', 'Content-Disposition: inline; filename="screenshot.png"', 'Content-Transfer-Encoding: base64'], body: base64(Buffer.alloc(MIN_INLINE_IMAGE_BYTES, 1)) },
        { type: 'image/png; name="logo.png"', headers: ['Content-ID: <logo>', 'Content-Disposition: inline; filename="logo.png"', 'Content-Transfer-Encoding: base64'], body: base64(Buffer.alloc(MIN_INLINE_IMAGE_BYTES - 1, 2)) },
      ],
      'related',
    );
    const mail = await parseMail(related);
    expect(mail.text).toBe('See and our logo');
    expect(mail.attachments.map((a) => a.name)).toEqual(['screenshot.png']);
  });

  it('an attached image counts at any size; a part without a file name gets one from its type', async () => {
    const mail = await parseMail(
      multipart([
        { type: 'text/plain', body: 'Tiny' },
        { type: 'image/jpeg', headers: ['Content-Disposition: attachment', 'Content-Transfer-Encoding: base64'], body: base64(Buffer.alloc(10, 3)) },
      ]),
    );
    expect(mail.attachments).toMatchObject([{ name: 'attachment-1.jpg', type: 'image/jpeg', bytes: 10 }]);
  });
});
