/** imapflow failures as one line naming IMAP_URL (password hidden), at the adapter edge. */
import { PlatformApiError } from '../../core/errors.js';
import type { ImapSettings } from '../../core/settings.js';

/** Each of connect and greeting may take this long (intake.ts passes it to imapflow). */
export const IMAP_CONNECT_TIMEOUT_MS = 10_000;

interface ImapFailure {
  code?: string;
  authenticationFailed?: boolean;
  serverResponseCode?: string;
  responseText?: string;
  message?: string;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'NoConnection', 'ConnectionTimeout', 'GreetingTimeout', 'EConnectionClosed']);

/** What went wrong (one line naming IMAP_URL), retryable unless the login or the mailbox itself is wrong. */
export function toImapError(error: unknown, imap: ImapSettings, method: string): PlatformApiError {
  if (error instanceof PlatformApiError) return error;
  const { message, retryable } = imapProblem(error, imap, method);
  return new PlatformApiError({ platform: 'email', method, retryable, message, cause: error });
}

/** The problem as doctor shows it: the line without the `email <method>:` prefix. */
export function imapProblem(error: unknown, imap: ImapSettings, method: string): { message: string; retryable: boolean } {
  const e = (error ?? {}) as ImapFailure;
  const where = `${imap.host}:${imap.port}`;
  if (e.authenticationFailed) {
    return { retryable: false, message: `the IMAP server ${where} refused the login for ${imap.user}; check the user and password in IMAP_URL (${imap.shown})` };
  }
  if (e.serverResponseCode === 'NONEXISTENT' || (method === 'mailboxOpen' && /exist|unknown mailbox|not found/i.test(e.responseText ?? e.message ?? ''))) {
    return { retryable: false, message: `the mailbox '${imap.mailbox}' does not exist on ${where}; check the path in IMAP_URL (${imap.shown})` };
  }
  const code = e.code ?? '';
  if (code === 'GREETING_TIMEOUT') {
    const tls = imap.secure ? '' : ' (a TLS-only port such as 993 wants imaps://)';
    return { retryable: true, message: `the IMAP server ${where} accepted the connection but sent no greeting within ${IMAP_CONNECT_TIMEOUT_MS / 1000} s${tls}; check the host and port in IMAP_URL (${imap.shown})` };
  }
  if (code === 'CONNECT_TIMEOUT') {
    return { retryable: true, message: `cannot reach the IMAP server ${where} (no connection within ${IMAP_CONNECT_TIMEOUT_MS / 1000} s); check the host and port in IMAP_URL (${imap.shown})` };
  }
  const reason = (e.responseText ?? e.message ?? String(error)).replace(/\s+/g, ' ').trim();
  if (NETWORK_CODES.has(code) || /ECONNREFUSED|ENOTFOUND|timed? ?out|closed/i.test(reason)) {
    return { retryable: true, message: `cannot reach the IMAP server ${where} (${code || reason}); check the host and port in IMAP_URL (${imap.shown})` };
  }
  return { retryable: true, message: `IMAP ${method} failed on ${where}: ${reason} (IMAP_URL ${imap.shown})` };
}
