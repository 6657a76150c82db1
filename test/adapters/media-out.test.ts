/**
 * Files on the doors not covered end to end (ARCHITECTURE.md §15): Discord multipart attachments against the
 * Discord fake (files[0] + payload_json, SUPPRESS_EMBEDS, no pings), and e-mail MIME attachments over
 * SMTP and into the .eml outbox — bytes identical on arrival; plus Telegram's choice of method.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import { createEmailAdapter } from '../../src/adapters/email/index.js';
import { fileMethod, fitCaption } from '../../src/adapters/telegram/send-file.js';
import { parseConfig } from '../../src/core/config.js';
import { parseAllowList } from '../../src/core/settings.js';
import { silentLogger } from '../../src/core/logger.js';
import { PlatformApiError } from '../../src/core/errors.js';
import type { Adapter, Delivery, DeliveryTarget, OutboundAttachment } from '../../src/core/types.js';
import { startDiscordFake, type DiscordFake } from '../fakes/discord.js';
import { startSmtpFake, type SmtpFake } from '../fakes/smtp.js';
import { depsWith, settingsFor } from './discord.helpers.js';
import { pdfFile, pngFile } from '../helpers/media-files.js';

const png = pngFile(50, 40);
const pdf = pdfFile('door test');

function file(data: Buffer, name: string, mime: string, caption?: string): OutboundAttachment {
  return { media: 'x'.repeat(64), name, mime, size: data.length, data, ...(caption ? { caption } : {}) };
}

function delivery(target: DeliveryTarget, chunks: string[], files: OutboundAttachment[], firstChunk = 0): Delivery & { sent: number[] } {
  const sent: number[] = [];
  return {
    id: 7,
    target,
    message: { chunks, files: files.map(({ data: _data, ...ref }) => ref) },
    files,
    firstChunk,
    onChunkSent: (i) => void sent.push(i),
    sent,
  };
}

describe('Discord: files as multipart attachments', () => {
  let fake: DiscordFake;
  let adapter: Adapter;
  beforeAll(async () => {
    fake = await startDiscordFake();
    adapter = createDiscordAdapter(settingsFor(fake), depsWith());
  });
  afterAll(async () => {
    await adapter?.close();
    await fake?.close();
  });

  it('sends the text, then one message per file with the caption as content, bytes identical, embeds suppressed, never a ping', async () => {
    const userMessage = fake.sendDM({ userId: '300000000000000009', content: 'files?' });
    const target = { platform: 'discord' as const, chatId: fake.dmChannelId('300000000000000009'), replyToMessageId: userMessage };
    const before = fake.messages.length;
    const d = delivery(target, ['Here you go'], [file(png, 'chart.png', 'image/png', 'See https://example.com @everyone'), file(pdf, 'report.pdf', 'application/pdf')]);
    await adapter.deliver(d);
    const sent = fake.messages.slice(before);
    expect(sent.map((m) => [m.content, m.files?.map((f) => f.filename)])).toEqual([
      ['Here you go', undefined],
      ['See https://example.com @everyone', ['chart.png']],
      ['', ['report.pdf']],
    ]);
    expect(sent[1].files![0].data.equals(png)).toBe(true);
    expect(sent[2].files![0].data.equals(pdf)).toBe(true);
    for (const m of sent.slice(1)) {
      expect(m.flags).toBe(4); // SUPPRESS_EMBEDS
      expect(m.allowedMentions).toEqual({ parse: [] });
      expect(m.pingsEveryone).toBe(false);
      expect(m.messageReference).toBeUndefined(); // only the first part replies
    }
    expect(d.sent).toEqual([0, 1, 2]);
  });

  it('resumes at a file part; a reply of files only replies with its first file', async () => {
    const userMessage = fake.sendDM({ userId: '300000000000000010', content: 'again' });
    const target = { platform: 'discord' as const, chatId: fake.dmChannelId('300000000000000010'), replyToMessageId: userMessage };
    const before = fake.messages.length;
    const resumed = delivery(target, ['text already sent'], [file(png, 'a.png', 'image/png'), file(pdf, 'b.pdf', 'application/pdf')], 2);
    await adapter.deliver(resumed);
    expect(fake.messages.slice(before).map((m) => m.files?.[0].filename)).toEqual(['b.pdf']);
    expect(resumed.sent).toEqual([2]);
    const only = delivery(target, [], [file(png, 'only.png', 'image/png')]);
    await adapter.deliver(only);
    expect(fake.messages.at(-1)?.replyTo).toBe(userMessage);
  });

  it('a file over the upload limit is refused by Discord (413) and given back to the outbox as a permanent failure', async () => {
    const target = { platform: 'discord' as const, chatId: fake.channelId };
    const huge = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
    const d = delivery(target, [], [file(huge, 'huge.bin', 'application/octet-stream')]);
    const error = await adapter.deliver(d).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect((error as PlatformApiError).retryable).toBe(false);
    expect(d.sent).toEqual([]);
  });
});

describe('e-mail: files as MIME attachments', () => {
  const config = parseConfig('', 'test.yaml');
  const FROM = 'Switchboard <bot@reports.example.org>';
  let smtp: SmtpFake;
  let home: string;
  beforeAll(async () => {
    smtp = await startSmtpFake();
    home = mkdtempSync(join(tmpdir(), 'sb-media-mail-'));
  });
  afterAll(async () => {
    await smtp?.close();
    rmSync(home, { recursive: true, force: true });
  });

  const target = { platform: 'email' as const, chatId: 'alice@example.com' };

  it('over SMTP: one mail with the text and each file attached, bytes and types intact; every part confirmed', async () => {
    const adapter = createEmailAdapter({ smtpUrl: smtp.url, from: FROM, allowed: parseAllowList('') }, { config, logger: silentLogger, home, now: () => new Date() });
    try {
      const d = delivery(target, ['The weekly report, with its chart.'], [file(png, 'chart.png', 'image/png'), file(pdf, 'report.pdf', 'application/pdf')]);
      d.message.subject = 'Weekly report';
      await adapter.deliver(d);
      const [mail] = await smtp.waitForMessages(1);
      expect(mail.parsed.text?.trim()).toBe('The weekly report, with its chart.');
      expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
        ['chart.png', 'image/png'],
        ['report.pdf', 'application/pdf'],
      ]);
      expect(mail.parsed.attachments[0].content.equals(png)).toBe(true);
      expect(mail.parsed.attachments[1].content.equals(pdf)).toBe(true);
      expect(d.sent).toEqual([0, 1, 2]);
    } finally {
      await adapter.close();
    }
  });

  it('without SMTP: the .eml in the outbox folder carries the attachments', async () => {
    const adapter = createEmailAdapter({ from: FROM, allowed: parseAllowList('') }, { config, logger: silentLogger, home, now: () => new Date() });
    try {
      const d = delivery(target, [], [file(pdf, 'only.pdf', 'application/pdf')]);
      await adapter.deliver(d);
      const dir = join(home, 'outbox');
      const [eml] = readdirSync(dir).filter((f) => f.endsWith('.eml'));
      const parsed = await simpleParser(readFileSync(join(dir, eml)));
      expect(parsed.attachments.map((a) => a.filename)).toEqual(['only.pdf']);
      expect(parsed.attachments[0].content.equals(pdf)).toBe(true);
      expect(d.sent).toEqual([0]);
    } finally {
      await adapter.close();
    }
  });
});

describe('Telegram: which method sends a file', () => {
  it('photos up to 10 MB by sendPhoto, Opus voice by sendVoice, everything else by sendDocument; captions cut to 1,024', () => {
    expect(fileMethod({ mime: 'image/png', size: 1000 })).toBe('sendPhoto');
    expect(fileMethod({ mime: 'image/jpeg', size: 11 * 1024 * 1024 })).toBe('sendDocument');
    expect(fileMethod({ mime: 'image/gif', size: 1000 })).toBe('sendDocument');
    expect(fileMethod({ mime: 'audio/ogg; codecs=opus', size: 1000 })).toBe('sendVoice');
    expect(fileMethod({ mime: 'audio/ogg', size: 1000 })).toBe('sendDocument');
    expect(fileMethod({ mime: 'application/pdf', size: 1000 })).toBe('sendDocument');
    expect(fitCaption('x'.repeat(2000))).toHaveLength(1024);
    expect(fitCaption('  ')).toBeUndefined();
  });
});
