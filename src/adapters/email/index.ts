/**
 * E-mail door. Outbound: pooled SMTP from `SMTP_URL`, or — without it, the embedded default —
 * `.eml` files in `$SWITCHBOARD_HOME/outbox/`. One delivery is one mail: chunk 0 is the text/plain
 * body, `message.html` the HTML alternative, the subject `Re: …` of the thread (target.extra) or the
 * report's own. Inbound (ARCHITECTURE.md §11), only with `IMAP_URL`: the mailbox is read by intake.ts, whose
 * IMAP client and mail parser are loaded only then. nodemailer itself is loaded by the first mail.
 */
import { join } from 'node:path';
import { access, constants, mkdir } from 'node:fs/promises';
import type { Transporter } from 'nodemailer';
import { partCount, type Adapter, type Delivery, type InboundHandler } from '../../core/types.js';
import type { EmailSettings } from '../../core/settings.js';
import { emailDoor } from '../../platform/doors/email.js';
import { PLATFORM_HINTS } from '../../core/prompt/hints.js';
import { PlatformApiError } from '../../core/errors.js';
import type { AdapterDeps } from '../deps.js';
import { composeMail } from './compose.js';
import { toPlatformError } from './errors.js';
import { writeEml } from './file-outbox.js';
import type { MailboxIntake } from './intake.js';
import { MailAttachments } from './attachments.js';

export { composeMail, domainOf, messageIdFor } from './compose.js';
export { toPlatformError } from './errors.js';

/** SMTP waits, shorter than nodemailer's 2-minute defaults so the outbox retries a dead server soon. */
const CONNECTION_TIMEOUT_MS = 15_000;
const GREETING_TIMEOUT_MS = 15_000;
const SOCKET_TIMEOUT_MS = 60_000;

/** Where `.eml` files go without SMTP_URL. */
export function fileOutboxDir(home: string): string {
  return join(home, 'outbox');
}

/** Tells whether the URL names an SMTP server nodemailer can use. */
function checkSmtpUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PlatformApiError({ platform: 'email', method: 'config', retryable: false, message: 'SMTP_URL is not a URL (expected smtp://user:pass@host:port)' });
  }
  if (!['smtp:', 'smtps:'].includes(parsed.protocol)) {
    throw new PlatformApiError({ platform: 'email', method: 'config', retryable: false, message: `SMTP_URL must start with smtp:// or smtps://, not ${parsed.protocol}//` });
  }
}

export function createEmailAdapter(settings: EmailSettings, deps: AdapterDeps): Adapter {
  const now = deps.now ?? (() => new Date());
  const outboxDir = fileOutboxDir(deps.home);
  let smtp: Transporter | undefined;
  let intake: MailboxIntake | null = null;
  // Inbound mail brings its files along: held, then kept in the media store for an accepted sender.
  const files = new MailAttachments(deps.media ?? (() => undefined));

  async function transport(): Promise<Transporter> {
    if (!settings.smtpUrl) throw new Error('no SMTP_URL');
    if (!smtp) {
      checkSmtpUrl(settings.smtpUrl);
      const { default: nodemailer } = await import('nodemailer');
      smtp ??= nodemailer.createTransport({
        url: settings.smtpUrl,
        pool: true,
        connectionTimeout: CONNECTION_TIMEOUT_MS,
        greetingTimeout: GREETING_TIMEOUT_MS,
        socketTimeout: SOCKET_TIMEOUT_MS,
      });
    }
    return smtp;
  }

  async function sendSmtp(delivery: Delivery): Promise<void> {
    const mail = composeMail(delivery, settings.from, now());
    try {
      await (await transport()).sendMail(mail);
    } catch (error) {
      if (error instanceof PlatformApiError) throw error;
      throw toPlatformError(error, 'sendMail');
    }
  }

  async function writeFile(delivery: Delivery): Promise<void> {
    const at = now();
    const mail = composeMail(delivery, settings.from, at);
    const { default: nodemailer } = await import('nodemailer');
    const stream = nodemailer.createTransport({ streamTransport: true, buffer: true });
    try {
      const info = await stream.sendMail(mail);
      const raw = Buffer.isBuffer(info.message) ? info.message : Buffer.from(String(info.message));
      const path = await writeEml(outboxDir, delivery.id, raw, at);
      deps.logger.debug('email', `wrote ${path}`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      // A full disk or a permission problem may clear up; the outbox tries again.
      throw new PlatformApiError({ platform: 'email', method: 'writeEml', retryable: true, message: `cannot write to ${outboxDir} (${code})`, cause: error });
    }
  }

  return {
    platform: 'email',
    profile: PLATFORM_HINTS.email,

    // With a mailbox to read, only one instance at a time may read it (ARCHITECTURE.md §9).
    exclusiveIntake: emailDoor.exclusive(settings, deps.config.email),

    async start(handler: InboundHandler): Promise<void> {
      deps.logger.info('email', settings.smtpUrl ? 'sending mail through SMTP' : `no SMTP_URL: mail is written to ${outboxDir}`);
      if (!settings.imap || intake) return;
      const { MailboxIntake } = await import('./intake.js');
      const { poll_seconds, max_age_days } = deps.config.email;
      const door = new MailboxIntake(
        { imap: settings.imap, from: settings.from, pollSeconds: poll_seconds, maxAgeDays: max_age_days, logger: deps.logger, now, maxPartBytes: deps.config.media.max_bytes, attachments: files },
        handler,
      );
      await door.start();
      intake = door;
    },

    /** Intake only; the SMTP pool stays for the replies still going out. */
    stop: stopIntake,

    async close(): Promise<void> {
      await stopIntake();
      smtp?.close();
      smtp = undefined;
    },

    async deliver(delivery: Delivery): Promise<void> {
      // One mail carries every part (text and files as MIME attachments): sent whole or not at all.
      const parts = partCount(delivery.message);
      if (delivery.firstChunk > 0 || parts === 0) return;
      if (!delivery.target.chatId.includes('@')) {
        throw new PlatformApiError({ platform: 'email', method: 'sendMail', retryable: false, message: `'${delivery.target.chatId}' is not an e-mail address` });
      }
      if (settings.smtpUrl) await sendSmtp(delivery);
      else await writeFile(delivery);
      // The whole message is one mail: every chunk and file went with it.
      for (let i = 0; i < parts; i++) delivery.onChunkSent(i);
    },

    /** The mailbox connection lost and being retried: one line for /readyz (ARCHITECTURE.md §18). */
    problem(): string | null {
      return intake?.problem ?? null;
    },

    // Any instance's turn may read a mail's files (from the media store): not only the one reading the mailbox.
    attachments: files,

    async diagnose(): Promise<string[]> {
      const problems: string[] = [];
      const outbound = await diagnoseOutbound();
      if (outbound) problems.push(outbound);
      if (settings.imap) {
        const { checkMailbox } = await import('./intake.js');
        const inbound = await checkMailbox(settings.imap);
        if (inbound) problems.push(`e-mail inbound: ${inbound}`);
      }
      return problems;
    },
  };

  async function stopIntake(): Promise<void> {
    const door = intake;
    intake = null;
    await door?.stop();
  }

  async function diagnoseOutbound(): Promise<string | null> {
    if (!settings.smtpUrl) {
      try {
        await mkdir(outboxDir, { recursive: true });
        await access(outboxDir, constants.W_OK);
        return null;
      } catch {
        return `e-mail: no SMTP_URL and ${outboxDir} is not writable for the .eml outbox; set SMTP_URL or fix the folder's permissions`;
      }
    }
    try {
      await (await transport()).verify();
      return null;
    } catch (error) {
      const e = error instanceof PlatformApiError ? error : toPlatformError(error, 'verify');
      return `e-mail: ${e.message}; check SMTP_URL (host, port, user, password)`;
    }
  }
}
