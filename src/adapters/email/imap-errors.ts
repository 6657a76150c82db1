/** imapflow failures as one line naming IMAP_URL (password hidden), at the adapter edge. */
import { PlatformApiError } from '../../core/errors.js';
import type { ImapSettings } from '../../core/settings.js';

interface ImapFailure {
  code?: string;
  authenticationFailed?: boolean;
  serverResponseCode?: string;
  responseText?: string;
  message?: string;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'NoConnection', 'ConnectionTimeout', 'GreetingTimeout', 'EConnectionClosed']);

/** What went wrong, retryable unless the login or the mailbox itself is wrong. */
export function toImapError(error: unknown, imap: ImapSettings, method: string): PlatformApiError {
  const e = (error ?? {}) as ImapFailure;
  const where = `${imap.host}:${imap.port}`;
  if (error instanceof PlatformApiError) return error;
  if (e.authenticationFailed) {
    return new PlatformApiError({ platform: 'email', method, retryable: false, message: `the IMAP server ${where} refused the login for ${imap.user}; check the user and password in IMAP_URL (${imap.shown})`, cause: error });
  }
  if (e.serverResponseCode === 'NONEXISTENT' || (method === 'mailboxOpen' && /exist|unknown mailbox|not found/i.test(e.responseText ?? e.message ?? ''))) {
    return new PlatformApiError({ platform: 'email', method, retryable: false, message: `the mailbox '${imap.mailbox}' does not exist on ${where}; check the path in IMAP_URL (${imap.shown})`, cause: error });
  }
  const code = e.code ?? '';
  const reason = (e.responseText ?? e.message ?? String(error)).replace(/\s+/g, ' ').trim();
  if (NETWORK_CODES.has(code) || /ECONNREFUSED|ENOTFOUND|timed? ?out|closed/i.test(reason)) {
    return new PlatformApiError({ platform: 'email', method, retryable: true, message: `cannot reach the IMAP server ${where} (${code || reason}); check the host and port in IMAP_URL (${imap.shown})`, cause: error });
  }
  return new PlatformApiError({ platform: 'email', method, retryable: true, message: `IMAP ${method} failed on ${where}: ${reason} (IMAP_URL ${imap.shown})`, cause: error });
}
