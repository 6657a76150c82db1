/**
 * The mailbox as a chat door (ARCHITECTURE.md §11), over imapflow: one connection to the IMAP_URL mailbox;
 * unseen mail (up to `email.max_age_days` old) is read at start and again whenever the server says
 * new mail arrived (IDLE, kept by imapflow) or, where it has no IDLE, every `email.poll_seconds`.
 * Each mail is parsed, screened (screen.ts), handed to the gateway, and flagged `\Seen` only once the
 * handler resolved (journaled). The first connection must open the mailbox, or the start fails
 * with one line naming IMAP_URL (an unreachable host, a closed port, a silent server, a refused
 * login, a missing mailbox); a connection that drops after that, or stops answering (imap-liveness.ts),
 * is opened again with backoff.
 */
import { ImapFlow, type FetchMessageObject } from 'imapflow';
import type { InboundHandler, InboundVerdict } from '../../core/types.js';
import type { ImapSettings } from '../../core/settings.js';
import type { Logger } from '../../core/logger.js';
import { oneLine, PlatformApiError } from '../../core/errors.js';
import { parseMail } from './parse.js';
import { screenMail } from './screen.js';
import { toInboundMessage } from './inbound.js';
import type { MailAttachments } from './attachments.js';
import { IMAP_CONNECT_TIMEOUT_MS, imapProblem, toImapError } from './imap-errors.js';
import { IMAP_LIVENESS, type LivenessOptions, watchLiveness } from './imap-liveness.js';

export interface IntakeOptions {
  imap: ImapSettings;
  /** EMAIL_FROM: our own mail is never answered. */
  from: string;
  pollSeconds: number;
  maxAgeDays: number;
  logger: Logger;
  now: () => Date;
  /** File parts larger than this are described only, their bytes not kept (media.max_bytes). */
  maxPartBytes?: number;
  /** Where a mail's files are held while it is handed over, and kept once the gateway took it. */
  attachments?: MailAttachments;
  /** Reconnect waits (ms) after the n-th failure in a row; default 0.5 s doubling to 60 s. */
  backoffMs?: (attempt: number) => number;
  /** How a connection that stopped answering is noticed (imap-liveness.ts); default IMAP_LIVENESS. */
  liveness?: LivenessOptions;
}

/** What a stop waits for a mail being handed over before it leaves it for the next start. */
const STOP_GRACE_MS = 3_000;
const DAY_MS = 86_400_000;
/** Most of a mail read from the server: its text comes first; attachments past this are not loaded. */
export const MAX_SOURCE_BYTES = 10 * 1024 * 1024;
/**
 * How long the TCP (and TLS) connection, and then the server's greeting, may each take before the
 * attempt fails (imapflow's defaults are 90 s and 16 s): a black-holed host or a server that accepts
 * and never speaks is one line naming IMAP_URL after at most this long at start, well within the
 * door's 30 s (DOOR_OPEN_TIMEOUT_MS), and a retry after a drop is not held up longer.
 */
const TIMEOUTS = { connectionTimeout: IMAP_CONNECT_TIMEOUT_MS, greetingTimeout: IMAP_CONNECT_TIMEOUT_MS, socketTimeout: 5 * 60_000 };
/** IDLE starts this soon after our last command (imapflow's default 15 s would hide new mail that long). */
const AUTO_IDLE_DELAY_MS = 1_000;
/** IDLE is renewed this often, so a quiet connection never meets the socket timeout (or a server's IDLE limit). */
const MAX_IDLE_MS = 4 * 60_000;

const defaultBackoff = (attempt: number): number => Math.min(60_000, 500 * 2 ** Math.max(0, attempt - 1));

/** Options for a connection to the IMAP_URL mailbox (also used by doctor's check). */
export function clientFor(imap: ImapSettings): ImapFlow {
  return new ImapFlow({ host: imap.host, port: imap.port, secure: imap.secure, auth: { user: imap.user, pass: imap.pass }, logger: false, autoIdleDelay: AUTO_IDLE_DELAY_MS, maxIdleTime: MAX_IDLE_MS, ...TIMEOUTS });
}

/** Logs in and opens the mailbox; null when fine, else the one-line problem (doctor). */
export async function checkMailbox(imap: ImapSettings): Promise<string | null> {
  const client = clientFor(imap);
  client.on('error', () => undefined);
  let method = 'connect';
  try {
    await client.connect();
    method = 'mailboxOpen';
    await client.mailboxOpen(imap.mailbox, { readOnly: true });
    return null;
  } catch (error) {
    return imapProblem(error, imap, method).message;
  } finally {
    await client.logout().catch(() => client.close());
  }
}

export class MailboxIntake {
  private stopping = false;
  private client: ImapFlow | null = null;
  private wake: (() => void) | null = null;
  /** The server reported new mail since the last scan began (it may come while a scan runs). */
  private newMail = false;
  private loop: Promise<void> | null = null;
  /** The mail being handed over right now (stop waits for it, briefly). */
  private current: Promise<void> | null = null;
  /** Unseen mail too old to answer, by UID (UIDVALIDITY-scoped), so each is logged once. */
  private readonly tooOld = new Set<string>();
  private readonly backoff: (attempt: number) => number;
  /** Why the mailbox is not being read right now (the connection dropped, a reconnect failed); null while it is. */
  private down: string | null = null;

  constructor(
    private readonly options: IntakeOptions,
    private readonly handler: InboundHandler,
  ) {
    this.backoff = options.backoffMs ?? defaultBackoff;
  }

  /**
   * Connects and reads what is waiting; resolves once the mailbox is open. Rejects (one line naming
   * IMAP_URL) when the first connection fails for any reason — a wrong host or port is a wrong
   * setting as much as a wrong password, and the other doors fail their start the same way; only a
   * connection that drops after this is retried in the background.
   */
  async start(): Promise<void> {
    let opened!: () => void;
    let failed!: (error: Error) => void;
    const first = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    let settled = false;
    this.loop = this.run(
      () => {
        settled = true;
        opened();
      },
      (error) => {
        if (settled) return false;
        settled = true;
        failed(error);
        return true;
      },
    );
    await first;
  }

  /** Whether the mailbox is read now: null while connected, else one line (readiness, ARCHITECTURE.md §18). */
  get problem(): string | null {
    return this.down;
  }

  /** Ends intake: the mail being handed over gets a short grace (then is left unseen for next time), then logout. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    if (this.current) await Promise.race([this.current, new Promise((r) => setTimeout(r, STOP_GRACE_MS).unref())]);
    const client = this.client;
    this.client = null;
    if (client) await client.logout().catch(() => client.close());
    await this.loop?.catch(() => undefined);
  }

  /** Connection after connection until stopped. `fatal` returns true when the loop must end. */
  private async run(onOpen: () => void, fatal: (error: PlatformApiError) => boolean): Promise<void> {
    const { imap, logger } = this.options;
    let failures = 0;
    while (!this.stopping) {
      const client = clientFor(imap);
      this.client = client;
      let closed = false;
      /** Why this connection was given up as hung (no answer to a NOOP), if it was. */
      let hung: string | null = null;
      let stopWatching = (): void => undefined;
      client.on('error', (error: Error) => logger.debug('email', `IMAP connection error: ${oneLine(error)}`));
      client.on('close', () => {
        closed = true;
        if (!this.stopping) this.down ??= `IMAP connection to ${imap.host}:${imap.port} lost; reconnecting`;
        this.wake?.();
      });
      client.on('exists', () => {
        this.newMail = true;
        this.wake?.();
      });
      let method = 'connect';
      try {
        await client.connect();
        method = 'mailboxOpen';
        await client.mailboxOpen(imap.mailbox);
        if (failures) logger.info('email', `IMAP connection to ${imap.host}:${imap.port} back after ${failures} failed attempt(s)`);
        else logger.info('email', `reading ${imap.mailbox} on ${imap.host}:${imap.port} (${client.capabilities.has('IDLE') ? 'IDLE' : `polling every ${this.options.pollSeconds} s`})`);
        failures = 0;
        this.down = null;
        onOpen();
        const liveness = this.options.liveness ?? IMAP_LIVENESS;
        stopWatching = watchLiveness(client, liveness, () => {
          hung = `IMAP server ${imap.host}:${imap.port} stopped answering (a NOOP went unanswered for ${liveness.deadlineMs / 1000} s); reconnecting`;
          this.down = hung;
          logger.warn('email', hung);
          client.close(); // the close handler wakes the loop, which connects again
        });
        method = 'scan';
        while (!this.stopping && !closed) {
          await this.scan(client);
          if (this.stopping || closed) break;
          await this.waitForMail(() => closed);
        }
      } catch (error) {
        if (this.stopping) break;
        const e = toImapError(error, imap, method);
        if (fatal(e)) break;
        failures += 1;
        // A command cut short by giving a hung connection up fails too: the reason stays that it hung.
        this.down = hung ?? `${e.message}; reconnecting`;
        if (!hung) logger.warn('email', `${e.message}; trying again in ${Math.round(this.backoff(failures) / 100) / 10} s`);
      } finally {
        stopWatching();
        if (this.client === client) this.client = null;
        if (!this.stopping) client.close();
      }
      if (this.stopping) break;
      if (closed && failures === 0) {
        failures = 1;
        if (!hung) logger.warn('email', `IMAP connection to ${imap.host}:${imap.port} dropped; reconnecting`);
      }
      await this.sleep(this.backoff(Math.max(1, failures)));
    }
  }

  /** Until the server reports new mail (IDLE/`exists`), the poll interval passes, the connection drops or stop. */
  private waitForMail(closed: () => boolean): Promise<void> {
    if (closed() || this.newMail) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.options.pollSeconds * 1000);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  /** Every unseen mail not older than max_age_days, oldest first. */
  private async scan(client: ImapFlow): Promise<void> {
    this.newMail = false;
    const now = this.options.now().getTime();
    const oldest = now - this.options.maxAgeDays * DAY_MS;
    // SEARCH SINCE has day precision (and the server's time zone): a day more, then the exact check below.
    const uids = (await client.search({ seen: false, since: new Date(oldest - DAY_MS) }, { uid: true })) || [];
    const validity = String(client.mailbox ? client.mailbox.uidValidity : 0);
    for (const uid of [...uids].sort((a, b) => a - b)) {
      if (this.stopping) return;
      const key = `${validity}.${uid}`;
      if (this.tooOld.has(key)) continue;
      const message = await client.fetchOne(String(uid), { uid: true, size: true, internalDate: true, source: { maxLength: MAX_SOURCE_BYTES } }, { uid: true });
      if (!message || !message.source) continue;
      const arrived = message.internalDate ? new Date(message.internalDate).getTime() : now;
      if (arrived < oldest) {
        this.tooOld.add(key);
        this.options.logger.info('email', `not answering mail UID ${uid}: it arrived ${new Date(arrived).toISOString()}, more than email.max_age_days (${this.options.maxAgeDays}) ago`);
        continue;
      }
      // Hand-over and confirmation are one piece of work, which a stop lets finish (briefly).
      const work = (async () => {
        const verdict = await this.handOver(message, key);
        // Journaled (or never to be answered): only now is it confirmed to the mailbox.
        if (verdict !== null) await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
      })();
      this.current = work.catch(() => undefined);
      try {
        await work;
      } finally {
        this.current = null;
      }
    }
  }

  /** Parses, screens and hands one mail to the gateway; null when it must stay unseen (stopping). */
  private async handOver(message: FetchMessageObject, key: string): Promise<InboundVerdict | 'skipped' | 'unparsable' | null> {
    const { logger } = this.options;
    let mail;
    try {
      mail = await parseMail(message.source as Buffer, { cutAtBytes: (message.size ?? 0) > MAX_SOURCE_BYTES ? MAX_SOURCE_BYTES : undefined, maxPartBytes: this.options.maxPartBytes, handOver: true });
    } catch (error) {
      logger.warn('email', `not answering mail UID ${message.uid}: it cannot be parsed (${oneLine(error)})`);
      return 'unparsable';
    }
    const label = `mail ${mail.messageId ?? `UID ${message.uid}`} from ${mail.from || '(no sender)'}`;
    const skip = screenMail(mail, this.options.from);
    if (skip) {
      logger.info('email', `not answering ${label}: ${skip}`);
      return 'skipped';
    }
    if (this.stopping) return null;
    const inbound = toInboundMessage(mail, `<${key}@imap.${this.options.imap.host}>`, this.options.now());
    // The files are held while the gateway decides, kept only when it took the mail (attachments.ts).
    const files = this.options.attachments;
    files?.hold(mail.attachments);
    let verdict: InboundVerdict;
    try {
      verdict = (await this.handler(inbound)) ?? 'accepted';
    } catch (error) {
      files?.release(mail.attachments);
      throw error;
    }
    await files?.settle(mail.attachments, verdict);
    if (verdict === 'duplicate') logger.info('email', `not answering ${label}: this Message-ID was handled before`);
    else if (verdict === 'refused') logger.info('email', `not answering ${label}: the sender is not in EMAIL_ALLOWED_SENDERS (no reply, no backscatter)`);
    else if (verdict === 'ignored') logger.info('email', `not answering ${label}: nothing written in it`);
    else logger.debug('email', `${label}: ${verdict}`);
    return verdict;
  }
}
