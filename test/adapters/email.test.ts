import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createEmailAdapter } from '../../src/adapters/email/index.js';
import { PlatformApiError } from '../../src/core/errors.js';
import { parseConfig } from '../../src/core/config.js';
import { parseAllowList } from '../../src/core/settings.js';
import { silentLogger } from '../../src/core/logger.js';
import type { Adapter, Delivery, DeliveryTarget, OutboundMessage } from '../../src/core/types.js';
import { startSmtpFake, type SmtpFake } from '../fakes/smtp.js';

const config = parseConfig('', 'test.yaml');
const FROM = 'Switchboard <bot@reports.example.org>';
const NOW = new Date('2026-01-05T08:00:00Z');

function delivery(message: OutboundMessage, target: Partial<DeliveryTarget> = {}, id = 1): Delivery & { sent: number[] } {
  const sent: number[] = [];
  return {
    id,
    target: { platform: 'email', chatId: 'alice@example.com', ...target },
    message,
    firstChunk: 0,
    onChunkSent: (i) => void sent.push(i),
    sent,
  };
}

const REPORT: OutboundMessage = {
  subject: 'Open issues — Monday',
  chunks: ['Open issues — Monday\n\n* 3 bugs\n* 1 feature request\n'],
  html: '<h1>Open issues — Monday</h1><ul><li>3 bugs</li><li>1 feature request</li></ul>',
};

describe('e-mail adapter over SMTP', () => {
  let smtp: SmtpFake;
  let home: string;
  let adapter: Adapter;

  beforeAll(async () => {
    smtp = await startSmtpFake();
    home = mkdtempSync(join(tmpdir(), 'sb-email-'));
    adapter = createEmailAdapter({ smtpUrl: smtp.url, from: FROM, allowed: parseAllowList('') }, { config, logger: silentLogger, home, now: () => NOW });
  });
  afterAll(async () => {
    try {
      await adapter.close();
      await smtp.close();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
  afterEach(() => {
    smtp.messages.length = 0;
  });

  it('sends text/plain with an HTML alternative, subject, Message-ID on our domain, Date and From', async () => {
    const d = delivery(REPORT);
    await adapter.deliver(d);
    const [mail] = await smtp.waitForMessages(1);
    expect(mail.envelope.to).toEqual(['alice@example.com']);
    expect(mail.envelope.from).toBe('bot@reports.example.org');
    expect(mail.parsed.subject).toBe('Open issues — Monday');
    expect(mail.parsed.text?.trim()).toBe('Open issues — Monday\n\n* 3 bugs\n* 1 feature request');
    expect(mail.parsed.html).toContain('<li>3 bugs</li>');
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.parsed.messageId).toMatch(/^<switchboard\.1\.[0-9a-f]+@reports\.example\.org>$/);
    expect(mail.parsed.date?.toISOString()).toBe(NOW.toISOString());
    expect(mail.parsed.from?.value[0]).toEqual({ address: 'bot@reports.example.org', name: 'Switchboard' });
    expect(d.sent).toEqual([0]);
  });

  it('threads a reply with In-Reply-To and References', async () => {
    await adapter.deliver(
      delivery({ chunks: ['Sure, here it is.'] }, { extra: { inReplyTo: '<q1@example.com>', references: '<q0@example.com> <q1@example.com>' } }, 2),
    );
    const [mail] = await smtp.waitForMessages(1);
    expect(mail.parsed.inReplyTo).toBe('<q1@example.com>');
    expect(mail.parsed.references).toEqual(['<q0@example.com>', '<q1@example.com>']);
    // No subject given: the first line of the text.
    expect(mail.parsed.subject).toBe('Sure, here it is.');
    expect(mail.parsed.html).toBeFalsy();
  });

  it('keeps the same Message-ID when the outbox retries the same item', async () => {
    await adapter.deliver(delivery(REPORT, {}, 7));
    await adapter.deliver(delivery(REPORT, {}, 7));
    const [a, b] = await smtp.waitForMessages(2);
    expect(a.parsed.messageId).toBe(b.parsed.messageId);
  });

  it('turns a 451 on RCPT into a retryable error and sends on the next try', async () => {
    smtp.failNext({ phase: 'rcpt', code: 451 });
    const d = delivery(REPORT, {}, 3);
    const error = await adapter.deliver(d).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlatformApiError);
    expect((error as PlatformApiError).retryable).toBe(true);
    expect((error as PlatformApiError).status).toBe(451);
    expect(d.sent).toEqual([]);
    await adapter.deliver(d);
    await smtp.waitForMessages(1);
    expect(d.sent).toEqual([0]);
  });

  it('turns a 451 on DATA into a retryable error', async () => {
    smtp.failNext({ phase: 'data', code: 451 });
    const error = (await adapter.deliver(delivery(REPORT, {}, 4)).catch((e: unknown) => e)) as PlatformApiError;
    expect(error.retryable).toBe(true);
    expect(smtp.messages).toHaveLength(0);
  });

  it('turns a 550 into a permanent error carrying the server reason', async () => {
    smtp.failNext({ phase: 'rcpt', code: 550, message: '5.1.1 <nobody@example.com>: mailbox unavailable' });
    const error = (await adapter.deliver(delivery(REPORT, { chatId: 'nobody@example.com' }, 5)).catch((e: unknown) => e)) as PlatformApiError;
    expect(error).toBeInstanceOf(PlatformApiError);
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(550);
    expect(error.message).toContain('mailbox unavailable');
  });

  it('diagnose() verifies the SMTP connection', async () => {
    expect(await adapter.diagnose!()).toEqual([]);
  });
});

describe('e-mail adapter without a reachable server', () => {
  it('a refused connection is retryable and diagnose names the problem', async () => {
    const probe = await startSmtpFake();
    const url = probe.url;
    await probe.close();
    const home = mkdtempSync(join(tmpdir(), 'sb-email-'));
    const adapter = createEmailAdapter({ smtpUrl: url, from: FROM, allowed: parseAllowList('') }, { config, logger: silentLogger, home });
    try {
      const error = (await adapter.deliver(delivery(REPORT)).catch((e: unknown) => e)) as PlatformApiError;
      expect(error).toBeInstanceOf(PlatformApiError);
      expect(error.retryable).toBe(true);
      const problems = await adapter.diagnose!();
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^e-mail: .*SMTP_URL/);
    } finally {
      await adapter.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('e-mail adapter file outbox (no SMTP_URL)', () => {
  it('writes one complete .eml per mail into $SWITCHBOARD_HOME/outbox/', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-email-'));
    const adapter = createEmailAdapter({ from: FROM, allowed: parseAllowList('') }, { config, logger: silentLogger, home, now: () => NOW });
    try {
      await adapter.start(async () => undefined);
      const d = delivery(REPORT, {}, 42);
      await adapter.deliver(d);
      expect(d.sent).toEqual([0]);
      const files = readdirSync(join(home, 'outbox'));
      expect(files).toEqual(['20260105T080000000Z-42.eml']);
      const parsed = await simpleParser(readFileSync(join(home, 'outbox', files[0])));
      expect(parsed.subject).toBe('Open issues — Monday');
      expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe('alice@example.com');
      expect(parsed.text?.trim()).toContain('* 3 bugs');
      expect(parsed.html).toContain('<h1>Open issues — Monday</h1>');
      expect(parsed.messageId).toMatch(/@reports\.example\.org>$/);
      expect(await adapter.diagnose!()).toEqual([]);
    } finally {
      await adapter.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses a target that is not an address, permanently', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-email-'));
    const adapter = createEmailAdapter({ from: FROM, allowed: parseAllowList('') }, { config, logger: silentLogger, home });
    try {
      const error = (await adapter.deliver(delivery(REPORT, { chatId: 'not-an-address' })).catch((e: unknown) => e)) as PlatformApiError;
      expect(error.retryable).toBe(false);
      expect(error.message).toContain("'not-an-address' is not an e-mail address");
    } finally {
      await adapter.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
