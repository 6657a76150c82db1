/** nodemailer failures translated into PlatformApiError at the adapter edge. */
import type { NodemailerError } from 'nodemailer';
import { PlatformApiError } from '../../core/errors.js';

/** Network-level codes: the message was not refused, the connection failed; worth another try. */
const CONNECTION_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EPROXY']);

function oneLineOf(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * SMTP replies decide: 4xx (and 503) are temporary → retryable; other 5xx are permanent and carry
 * the server's reason (e.g. `550 5.1.1 No such user`). No reply at all (connection refused, reset,
 * timeout) is temporary. Anything else (bad credentials, bad config) is not retried.
 */
export function toPlatformError(error: unknown, method: string): PlatformApiError {
  const e = (error ?? {}) as NodemailerError;
  const status = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const reason = oneLineOf(e.response ?? e.message ?? String(error));
  if (status !== undefined) {
    const temporary = status === 503 || (status >= 400 && status < 500) || e.permanent === false;
    return new PlatformApiError({
      platform: 'email',
      method,
      status,
      retryable: temporary,
      message: temporary ? `temporary failure, will retry: ${reason}` : `refused by the mail server: ${reason}`,
      cause: error,
    });
  }
  const code = e.code ?? '';
  const connection = CONNECTION_CODES.has(code) || CONNECTION_CODES.has(e.originalCode ?? '');
  if (connection) {
    return new PlatformApiError({ platform: 'email', method, retryable: true, message: `cannot reach the mail server (${code}): ${reason}`, cause: error });
  }
  if (code === 'EAUTH') {
    return new PlatformApiError({ platform: 'email', method, retryable: false, message: 'the mail server refused the login; check the user and password in SMTP_URL', cause: error });
  }
  return new PlatformApiError({ platform: 'email', method, retryable: false, message: code ? `${code}: ${reason}` : reason, cause: error });
}
