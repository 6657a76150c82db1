/**
 * The e-mail door's definition: outbound mail (SMTP_URL, else .eml files in the outbox folder) is
 * always there; inbound when IMAP_URL names a mailbox (ARCHITECTURE.md §11). `email:<address>`.
 */
import { z } from 'zod';
import { hidePassword, passwordOf } from '../urls.js';
import { parseAllowList, type AllowList, type DoorDefinition, type EnvReader } from './types.js';

const yaml = z
  .strictObject({
    from: z.string().min(1).nullable().default(null),
    /** Inbound (IMAP_URL): seconds between mailbox checks where the server has no IDLE (with IDLE, a safety net). */
    poll_seconds: z.number().min(1).max(3600).default(30),
    /** Inbound: unseen mail older than this many days is not answered at start (marked seen, logged). */
    max_age_days: z.number().min(0.01).default(7),
  })
  .prefault({});
export type EmailYaml = z.output<typeof yaml>;

/** The mailbox read as a chat door (IMAP_URL, ARCHITECTURE.md §11). */
export interface ImapSettings {
  host: string;
  port: number;
  /** imaps:// — TLS from the start; imap:// — STARTTLS when the server offers it. */
  secure: boolean;
  user: string;
  pass: string;
  mailbox: string;
  /** The URL with the password hidden, for messages. */
  shown: string;
}

export interface EmailSettings {
  smtpUrl?: string;
  from: string;
  allowed: AllowList;
  /** Inbound mail; absent: the e-mail door only sends. */
  imap?: ImapSettings;
}

const IMAP_FORM = 'imaps://user:password@host:993/INBOX or imap://user:password@host:143/INBOX';

const imapUrlSchema = z
  .url({ protocol: /^imaps?$/, error: `expected ${IMAP_FORM}` })
  .transform((raw) => new URL(raw))
  .refine((u) => u.hostname !== '', { error: `names no host (${IMAP_FORM})` })
  .refine((u) => u.username !== '' && u.password !== '', { error: `needs the user and password (${IMAP_FORM}; percent-encode special characters)` });

/**
 * IMAP_URL (ARCHITECTURE.md §4): `imaps://user:pass@host:993/INBOX` (TLS) or `imap://…:143/…` (STARTTLS when
 * offered); the path is the mailbox (default INBOX). Anything else fails with one line, the
 * password hidden.
 */
export function parseImapUrl(raw: string, fail: EnvReader['fail']): ImapSettings {
  const shown = hidePassword(raw);
  const result = imapUrlSchema.safeParse(raw);
  if (!result.success) return fail(`IMAP_URL: '${shown}' ${result.error.issues[0]?.message ?? 'is not valid'}`);
  const u = result.data;
  const secure = u.protocol === 'imaps:';
  let user: string;
  let pass: string;
  let mailbox: string;
  try {
    user = decodeURIComponent(u.username);
    pass = decodeURIComponent(u.password);
    mailbox = decodeURIComponent(u.pathname.replace(/^\/+/, '').replace(/\/+$/, '')) || 'INBOX';
  } catch {
    return fail(`IMAP_URL: '${shown}' has a bad percent-escape (${IMAP_FORM})`);
  }
  const port = u.port ? Number(u.port) : secure ? 993 : 143;
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port, secure, user, pass, mailbox, shown };
}

const EMAIL = /^[^\s@:<>(),;"]+@[^\s@:<>(),;"]+\.[^\s@:<>(),;".]+$/;

export const emailDoor: DoorDefinition<'email', EmailYaml, EmailSettings> = {
  id: 'email',
  variables: { allowList: 'EMAIL_ALLOWED_SENDERS', endpoint: 'IMAP_URL', secrets: [] },
  yaml,
  settings(read, config) {
    const imapRaw = read.string('IMAP_URL');
    return {
      smtpUrl: read.string('SMTP_URL'),
      from: read.string('EMAIL_FROM') ?? config.from ?? 'Switchboard <switchboard@localhost>',
      // Addresses compare lower-cased (ARCHITECTURE.md §11); the adapter lower-cases the sender too.
      allowed: parseAllowList(read.string('EMAIL_ALLOWED_SENDERS')?.toLowerCase()),
      imap: imapRaw === undefined ? undefined : parseImapUrl(imapRaw, read.fail),
    };
  },
  // The passwords inside SMTP_URL and IMAP_URL.
  secretValues(settings) {
    const out: string[] = [];
    const smtp = settings.smtpUrl ? passwordOf(settings.smtpUrl) : undefined;
    if (smtp) out.push(smtp);
    if (settings.imap && settings.imap.pass.length >= 4) out.push(settings.imap.pass);
    return out;
  },
  // From addresses are trivially forged: a refusal or a pairing code would mail strangers.
  answersStrangers: false,
  pairing: () => false,
  receives: (settings) => Boolean(settings.imap),
  streaming: [],
  commands: ['help', 'new', 'status', 'usage', 'stop'],
  typing: null,
  address: { example: 'email:<address>', chat: EMAIL, thread: null, canonical: (c) => c.toLowerCase() },
  // One mailbox, one reader: two would answer the same mail.
  exclusive: (settings) => Boolean(settings.imap),
};
