/**
 * E-mail door, outbound only for now: pooled SMTP from `SMTP_URL`, or — without it, the embedded
 * default — `.eml` files in `$SWITCHBOARD_HOME/outbox/`. One delivery is one mail: chunk 0 is the
 * text/plain body, `message.html` the HTML alternative, `message.subject` the subject.
 */
import { join } from 'node:path';
import { access, constants, mkdir } from 'node:fs/promises';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Adapter, Delivery, InboundHandler } from '../../core/types.js';
import type { EmailSettings } from '../../core/settings.js';
import { PLATFORM_HINTS } from '../../core/prompt/hints.js';
import { PlatformApiError } from '../../core/errors.js';
import type { AdapterDeps } from '../deps.js';
import { composeMail } from './compose.js';
import { toPlatformError } from './errors.js';
import { writeEml } from './file-outbox.js';

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

  function transport(): Transporter {
    if (!settings.smtpUrl) throw new Error('no SMTP_URL');
    if (!smtp) {
      checkSmtpUrl(settings.smtpUrl);
      smtp = nodemailer.createTransport({
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
      await transport().sendMail(mail);
    } catch (error) {
      if (error instanceof PlatformApiError) throw error;
      throw toPlatformError(error, 'sendMail');
    }
  }

  async function writeFile(delivery: Delivery): Promise<void> {
    const at = now();
    const mail = composeMail(delivery, settings.from, at);
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

    async start(_handler: InboundHandler): Promise<void> {
      // Outbound only: no mailbox is read yet.
      deps.logger.info('email', settings.smtpUrl ? 'sending mail through SMTP' : `no SMTP_URL: mail is written to ${outboxDir}`);
    },

    async stop(): Promise<void> {
      // No intake to stop; the SMTP pool stays for the replies still going out.
    },

    async close(): Promise<void> {
      smtp?.close();
      smtp = undefined;
    },

    async deliver(delivery: Delivery): Promise<void> {
      if (delivery.firstChunk > 0 || delivery.message.chunks.length === 0) return;
      if (!delivery.target.chatId.includes('@')) {
        throw new PlatformApiError({ platform: 'email', method: 'sendMail', retryable: false, message: `'${delivery.target.chatId}' is not an e-mail address` });
      }
      if (settings.smtpUrl) await sendSmtp(delivery);
      else await writeFile(delivery);
      // The whole message is one mail: every chunk went with it.
      delivery.message.chunks.forEach((_, i) => delivery.onChunkSent(i));
    },

    async diagnose(): Promise<string[]> {
      if (!settings.smtpUrl) {
        try {
          await mkdir(outboxDir, { recursive: true });
          await access(outboxDir, constants.W_OK);
          return [];
        } catch {
          return [`e-mail: no SMTP_URL and ${outboxDir} is not writable for the .eml outbox; set SMTP_URL or fix the folder's permissions`];
        }
      }
      try {
        await transport().verify();
        return [];
      } catch (error) {
        const e = error instanceof PlatformApiError ? error : toPlatformError(error, 'verify');
        return [`e-mail: ${e.message}; check SMTP_URL (host, port, user, password)`];
      }
    },
  };
}
