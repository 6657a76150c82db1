/**
 * The reply cut on real mail (issue 38, point 12): every fixture of github/email_reply_parser and
 * mailgun/talon (test/fixtures/mail-replies, SOURCES.md) through the e-mail door's parser, the reply
 * and only the reply kept in at least 95 % of them, each within 100 ms.
 *
 * Compared as talon compares (all whitespace removed). Two differences by design, applied to both
 * sides alike: this door cuts signatures (`-- ` and what follows, a closing "Sent from my iPhone"
 * line), where talon keeps them; HTML expectations (talon's output is HTML) are turned into text as the door turns HTML into text.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert } from 'html-to-text';
import { parseMail, writtenPart } from '../../src/adapters/email/parse.js';

const ROOT = fileURLToPath(new URL('../fixtures/mail-replies/', import.meta.url));
const read = (...path: string[]) => readFileSync(join(ROOT, ...path), 'utf8');

interface Case {
  id: string;
  /** What the door made of it. */
  got: () => Promise<string>;
  expected: string;
}

/** A trailing signature, removed from both sides (this door cuts it, talon keeps it). */
function withoutSignature(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const dashes = lines.findIndex((l) => /^\s*--\s*$/.test(l));
  const kept = dashes >= 0 ? lines.slice(0, dashes) : lines;
  while (kept.length && !kept[kept.length - 1].trim()) kept.pop();
  if (kept.length && /^\s*Sent (from|with) [^,.;:!?()]{1,60}(\s*\(.*\))?\s*$/i.test(kept[kept.length - 1])) kept.pop();
  // A drawn line (an <hr>) at the very end carries no words.
  while (kept.length && /^\s*([-_=]{3,}\s*)?$/.test(kept[kept.length - 1])) kept.pop();
  return kept.join('\n');
}
const squash = (text: string) => withoutSignature(text).replace(/\s+/g, '');
const htmlAsText = (html: string) => convert(html, { wordwrap: false, selectors: [{ selector: 'blockquote', format: 'block' }, { selector: 'a', options: { hideLinkHrefIfSameAsText: true } }, { selector: 'img', format: 'skip' }] });

/** The longest stretch (ms) the event loop was held while `work` ran: the gaps between 1 ms ticks. */
async function loopHeld(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  await work();
  longest = Math.max(longest, performance.now() - last);
  clearInterval(tick);
  return Math.min(longest, performance.now() - t0);
}

function cases(): Case[] {
  const all: Case[] = [];
  // github/email_reply_parser: test/emails/*.txt, expectations from its test file (expected.json).
  const erp = JSON.parse(read('email_reply_parser', 'expected.json')) as Record<string, string>;
  for (const [name, expected] of Object.entries(erp)) {
    const body = read('email_reply_parser', 'emails', `${name}.txt`);
    all.push({ id: `email_reply_parser/${name}`, expected, got: async () => (await writtenPart(body, false)).text });
  }
  // mailgun/talon: the literal cases of its quotation tests (talon/cases.json, built by build-talon-cases.py).
  const talon = JSON.parse(read('talon', 'cases.json')) as Array<{ id: string; format: 'plain' | 'html'; input: string; expected: string }>;
  for (const c of talon) {
    const expected = c.format === 'html' ? htmlAsText(c.expected) : c.expected;
    all.push({ id: `talon/${c.id}`, expected, got: async () => (await writtenPart(c.input, c.format === 'html')).text });
  }
  // talon's standard replies: a whole .eml each; "Hello", or the <name>_reply_text beside it.
  const standard = join('talon', 'fixtures', 'standard_replies');
  for (const file of readdirSync(join(ROOT, standard)).filter((f) => f.endsWith('.eml'))) {
    const name = file.slice(0, -4);
    const expected = readdirSync(join(ROOT, standard)).includes(`${name}_reply_text`) ? read(standard, `${name}_reply_text`).trim() : 'Hello';
    const raw = readFileSync(join(ROOT, standard, file));
    all.push({ id: `talon/standard_replies/${name}`, expected, got: async () => (await parseMail(raw)).text });
  }
  // talon's HTML replies of nine clients: each says "Hi. I am fine. Thanks, Alex".
  const html = join('talon', 'fixtures', 'html_replies');
  for (const file of readdirSync(join(ROOT, html))) {
    const body = read(html, file);
    all.push({ id: `talon/html_replies/${file}`, expected: 'Hi. I am fine.\n\nThanks,\nAlex', got: async () => (await writtenPart(body, true)).text });
  }
  return all;
}

// The corpora are public repositories' files: rebuilt locally (scripts/mail-corpus.sh), never committed.
const present = existsSync(join(ROOT, 'email_reply_parser', 'expected.json')) && existsSync(join(ROOT, 'talon', 'cases.json'));
const SKIP = present ? '' : ' (skipped: the public reply corpora are not here; scripts/mail-corpus.sh rebuilds them from snapshots of github/email_reply_parser and mailgun/talon)';

describe.skipIf(!present)(`the reply cut on the public corpora${SKIP}`, () => {
  it('keeps the reply and only the reply in at least 95 % of the fixtures, each parsed within 100 ms', async () => {
    const failed: string[] = [];
    const slow: string[] = [];
    const all = cases();
    for (const c of all) {
      const got = await c.got();
      // The longest the event loop was held while this mail was parsed (HTML is read in a worker
      // thread): the best of three, so a shared machine's hiccup is not taken for the parser's cost.
      let ms = Infinity;
      for (let run = 0; run < 3; run++) ms = Math.min(ms, await loopHeld(c.got));
      if (ms > 100) slow.push(`${c.id}: ${ms.toFixed(0)} ms`);
      if (squash(got) !== squash(c.expected)) failed.push(`${c.id}\n  expected: ${JSON.stringify(c.expected.slice(0, 200))}\n  got:      ${JSON.stringify(got.slice(0, 200))}`);
    }
    const rate = (all.length - failed.length) / all.length;
    console.log(`reply cut: ${all.length - failed.length} of ${all.length} fixtures right (${(rate * 100).toFixed(1)} %)${failed.length ? `; wrong:\n${failed.join('\n')}` : ''}`);
    expect(all.length).toBeGreaterThanOrEqual(110);
    expect(rate).toBeGreaterThanOrEqual(0.95);
    expect(slow).toEqual([]);
  });

  it('covers every language and client form the corpora have, each cut right', async () => {
    const must = [
      'talon/text:test_german_from_block', // Von: … Gesendet:
      'talon/text:test_danish_from_block', // Fra: … Sendt:
      'talon/text:test_norwegian_from_line', // På … skrev:
      'talon/text:test_swedish_from_block', // Från: … Skickat:
      'talon/text:test_swedish_from_line', // Den … skrev:
      'talon/text:test_dutch_from_block', // Op … heeft … geschreven:
      'talon/text:test_french_from_block', // Le … a écrit:
      'talon/text:test_french_multiline_from_block', // De : … Envoyé :
      'talon/text:test_polish_from_block', // W dniu … napisał:
      'talon/text:test_vietnamese_from_block', // Vào … đã viết:
      'talon/text:test_android_wrote', // ---- John Smith wrote ----
      'talon/text:test_date_time_email_splitter', // 2014-10-17 11:28 GMT+03:00 Name <…>:
      'talon/text:test_english_original_message#2', // -----Reply Message-----
      'talon/text:test_german_original_message', // -----Ursprüngliche Nachricht-----
      'talon/html:test_from_block_and_quotations_in_separate_divs', // Outlook blocks in separate divs
      'talon/html:test_gmail_quote', // Gmail's quote
      'talon/html:test_regular_blockquote', // the person's own <blockquote> kept
      'talon/html_replies/yandex_ru.html', // Russian
      'talon/html_replies/mail_ru.html',
      'talon/text:test_reply_and_quotation_splitter_share_line', // the reply on the attribution line
      'email_reply_parser/email_sent_from_my_not_signature', // "Sent from my desk, …" in a sentence
    ];
    const byId = new Map(cases().map((c) => [c.id, c]));
    const wrong: string[] = [];
    for (const id of must) {
      const c = byId.get(id);
      expect(c, id).toBeDefined();
      if (c && squash(await c.got()) !== squash(c.expected)) wrong.push(id);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps a forwarded message whole and reports it as quoted (plain and Gmail HTML)', async () => {
    const plain = await writtenPart('FYI, see below.\n\n---------- Forwarded message ----------\nFrom: Bob <bob@example.com>\nDate: Tue, Sep 4, 2012 at 1:35 PM\nSubject: Two\nTo: rob@example.com\n\nThe numbers for March are in.\n', false);
    expect(plain.text).toMatch(/^FYI, see below\.\n\n---------- Forwarded message ----------\nFrom: Bob <bob@example\.com>[\s\S]*The numbers for March are in\.$/);
    expect(plain.quoted).toMatch(/^---------- Forwarded message ----------[\s\S]*The numbers for March are in\.$/);
    const talon = JSON.parse(read('talon', 'cases.json')) as Array<{ id: string; input: string }>;
    const gmail = await writtenPart(talon.find((c) => c.id === 'html:test_gmail_forwarded_msg')?.input ?? '', true);
    expect(gmail.text).toMatch(/Forwarded message[\s\S]*Bob WFH today[\s\S]*eom/);
    expect(gmail.quoted).toMatch(/eom/);
    // A reply is not a forward: nothing is reported as quoted.
    expect(await writtenPart('Yes.\n\nOn Tue, Apr 29, 2014 at 4:22 PM, Bob <bob@example.com> wrote:\n> Shall we?\n', false)).toEqual({ text: 'Yes.' });
  });

  it('the 766 KB long_quote fixture is cut before parsing, says so, and takes well under a second', async () => {
    const body = read('email_reply_parser', 'emails', 'email_long_quote.txt');
    const raw = `From: a@example.com\r\nTo: b@example.com\r\nSubject: long\r\nMessage-ID: <long@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body.replace(/\n/g, '\r\n')}`;
    const t0 = performance.now();
    const mail = await parseMail(raw);
    const ms = performance.now() - t0;
    console.log(`long_quote (${Math.round(body.length / 1024)} KB): ${ms.toFixed(0)} ms through parseMail`);
    expect(ms).toBeLessThan(1000);
    expect(mail.text.startsWith('Hi folks\n\nWhat is the best way to clear a Riak bucket')).toBe(true);
    expect(mail.text).toMatch(/\[The mail was cut here: it has 76\d,\d{3} characters and only the first [\d,]+ were kept\.\]$/);
    // The event loop, while the door reads it: held no longer than the 100 ms every mail gets.
    let best = Infinity;
    for (let run = 0; run < 3; run++) best = Math.min(best, await loopHeld(() => parseMail(raw)));
    console.log(`long_quote: the event loop held at most ${best.toFixed(1)} ms`);
    expect(best).toBeLessThan(100);
  });

  it('a big HTML mail (850 KB) and a tree nested 20,000 deep: the words come through, cut with a note, the reply cut never holds the event loop 100 ms', async () => {
    const big = '<html><head><style>' + 'p { color: red; }\n'.repeat(2000) + '</style></head><body>' + '<p>Hello there, this is a line of text with <b>bold</b> and <a href="https://x.example/a">a link</a>.</p>\n'.repeat(8000) + '</body></html>';
    const raw = (html: string) => `From: a@example.com\r\nTo: b@example.com\r\nSubject: big\r\nMessage-ID: <big@example.com>\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${html}`;
    let mail = await parseMail(raw(big));
    expect(mail.text.startsWith('Hello there, this is a line of text with bold and a link [https://x.example/a].')).toBe(true);
    expect(mail.text).toMatch(/\[The mail was cut here: it has [\d,]+ characters and only the first [\d,]+ were kept\.\]$/);
    // The reply cut and the HTML (read in a worker thread), and the whole parseMail (mailparser in
    // the worker too): the event loop held under 100 ms.
    let cut = Infinity;
    let whole = Infinity;
    // Best of up to five (a garbage collection, or the machine busy elsewhere, in one run is not the parser's).
    for (let run = 0; run < 5 && (cut >= 100 || whole >= 100); run++) {
      cut = Math.min(cut, await loopHeld(() => writtenPart(big, true)));
      whole = Math.min(whole, await loopHeld(() => parseMail(raw(big))));
    }
    console.log(`850 KB HTML: the event loop held at most ${cut.toFixed(1)} ms by the reply cut, ${whole.toFixed(1)} ms by the whole parseMail`);
    expect(cut).toBeLessThan(100);
    expect(whole).toBeLessThan(100);
    const deep = '<div>'.repeat(20_000) + 'deep words' + '</div>'.repeat(20_000);
    mail = await parseMail(raw(`<p>Look:</p>${deep.slice(0, 90_000)}`));
    expect(mail.text).toMatch(/^Look:/);
  });
});
