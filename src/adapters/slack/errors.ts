import { WebAPIHTTPError, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError } from '@slack/web-api';
import { CredentialsError, PlatformApiError } from '../../core/errors.js';

/** Web API error codes that mean the token itself is bad: retrying cannot help, the operator must act. */
export const AUTH_ERRORS: ReadonlySet<string> = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'not_allowed_token_type']);

/**
 * `ok: false` codes worth another try later (Slack-side trouble). Everything else a platform
 * refuses (channel_not_found, not_in_channel, msg_too_long, invalid_blocks, invalid_auth, …)
 * would be refused again, so it is not retryable.
 */
const RETRYABLE_PLATFORM_ERRORS: ReadonlySet<string> = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
]);

/** The Web API's error code (`channel_not_found`…) when the error is an `ok: false` answer. */
export function slackErrorCode(error: unknown): string | undefined {
  return error instanceof WebAPIPlatformError ? String(error.data.error) : undefined;
}

/**
 * Translates a Web API client error into Switchboard's PlatformApiError, keeping the Slack
 * error code (never the token) in the one-line message.
 */
export function toPlatformError(method: string, error: unknown): PlatformApiError {
  if (error instanceof PlatformApiError) return error;
  if (error instanceof WebAPIPlatformError) {
    const code = String(error.data.error);
    return new PlatformApiError({ platform: 'slack', method, message: code, status: 200, retryable: RETRYABLE_PLATFORM_ERRORS.has(code), cause: error });
  }
  if (error instanceof WebAPIRateLimitedError) {
    return new PlatformApiError({
      platform: 'slack',
      method,
      message: `rate limited, retry after ${error.retryAfter} s`,
      status: 429,
      retryAfterMs: error.retryAfter * 1000,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof WebAPIHTTPError) {
    return new PlatformApiError({
      platform: 'slack',
      method,
      message: `HTTP ${error.statusCode}`,
      status: error.statusCode,
      retryable: error.statusCode >= 500 || error.statusCode === 408,
      cause: error,
    });
  }
  if (error instanceof WebAPIRequestError) {
    return new PlatformApiError({ platform: 'slack', method, message: `network error: ${error.original.message.split('\n')[0]}`, retryable: true, cause: error });
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new PlatformApiError({ platform: 'slack', method, message, retryable: true, cause: error });
}

/** auth.test refused the token: one line that says which variable to fix. */
export function credentialsError(variable: string, code: string): CredentialsError {
  return new CredentialsError(`${variable} was refused by Slack (${code}); check the token in your Slack app settings`);
}
