/**
 * The files of inbound mail (ARCHITECTURE.md §15, e-mail): held while the gateway decides, kept in the
 * media store (SQLite's, real) only when it took the mail, dropped for a stranger; read back through
 * the door's fetcher with media.max_bytes, and one line when they are not kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailAttachments } from '../../src/adapters/email/attachments.js';
import { parseMail } from '../../src/adapters/email/parse.js';
import { attachmentsOf } from '../../src/adapters/email/inbound.js';
import { openSqliteStore, sqlitePath } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/core/store/types.js';
import { rawMail } from '../helpers/mail.js';

const limits = { maxBytes: 1_000_000, timeoutMs: 300 };
let store: Store | undefined;
let home: string | undefined;
afterEach(async () => {
  await store?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  store = undefined;
});

function open(): Store {
  home = mkdtempSync(join(tmpdir(), 'sb-mail-files-'));
  store = openSqliteStore({ path: sqlitePath(home), home });
  return store;
}

async function mailWith(text: string) {
  return parseMail(rawMail({ from: 'alice@example.com', text: 'See attached', attachments: [{ name: 'notes.txt', type: 'text/plain', data: Buffer.from(text) }] }));
}

describe('e-mail attachments', () => {
  it('held while handed over, kept for an accepted mail, read back within media.max_bytes', async () => {
    const media = open().media;
    const files = new MailAttachments(() => media);
    const mail = await mailWith('kept words');
    const [a] = attachmentsOf(mail.attachments);
    expect(a).toMatchObject({ kind: 'file', name: 'notes.txt', declaredMime: 'text/plain', declaredSize: 10 });
    files.hold(mail.attachments);
    // a turn may start before the door stored them: memory answers
    expect(Buffer.from(await files.fetch(a, limits)).toString()).toBe('kept words');
    await files.settle(mail.attachments, 'accepted');
    expect(await media.stat(a.ref)).toMatchObject({ bytes: 10 });
    // after the hand-over (another instance, a restart): the store answers
    const fresh = new MailAttachments(() => media);
    expect(Buffer.from(await fresh.fetch(a, limits)).toString()).toBe('kept words');
    await expect(fresh.fetch(a, { ...limits, maxBytes: 5 })).rejects.toThrow('it is 10 bytes, over the limit of 5 bytes (media.max_bytes)');
  });

  it("a refused mail's files are dropped, never stored; asked for later, one line", async () => {
    const media = open().media;
    const files = new MailAttachments(() => media);
    const mail = await mailWith('stranger words');
    const [a] = attachmentsOf(mail.attachments);
    files.hold(mail.attachments);
    await files.settle(mail.attachments, 'refused');
    expect(await media.stat(a.ref)).toBeUndefined();
    await expect(files.fetch(a, limits)).rejects.toThrow('the file of this mail is no longer kept; please send it again');
  });

  it('a fetch waits for a write still under way elsewhere', async () => {
    const media = open().media;
    const mail = await mailWith('late words');
    const [a] = attachmentsOf(mail.attachments);
    const reading = new MailAttachments(() => media).fetch(a, { maxBytes: 1000, timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    await media.put(mail.attachments[0].data!, 'text/plain');
    expect(Buffer.from(await reading).toString()).toBe('late words');
  });
});
