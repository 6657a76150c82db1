import { WebAPIHTTPError, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError } from '@slack/web-api';
import { CredentialsError, PlatformApiError } from '../../core/errors.js';
import { DEFAULT_SLACK_API_URL } from './client.js';

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
    return new PlatformApiError({ platform: 'slack', method, message: `network error: ${networkCause(error)}`, retryable: true, cause: error });
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new PlatformApiError({ platform: 'slack', method, message, retryable: true, cause: error });
}

/** auth.test refused the token: one line that says which variable to fix. */
export function credentialsError(variable: string, code: string): CredentialsError {
  return new CredentialsError(`${variable} was refused by Slack (${code}); check the token in your Slack app settings`);
}

/** Socket-level codes in words (fetch only says "fetch failed"; the reason is in its `cause`). */
const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/** Why a request never got an answer, in a few words: `connection refused`, `host not found`, … */
export function networkCause(error: WebAPIRequestError): string {
  const original = error.original as Error & { cause?: unknown };
  const cause = original.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code && NETWORK_CODES[code]) return NETWORK_CODES[code];
  if (original.name === 'TimeoutError' || original.name === 'AbortError') return 'no answer in time';
  const message = typeof cause?.message === 'string' ? cause.message : original.message;
  return message.split('\n')[0];
}

/** The Web API base as it may be shown: without any user name or password in it. */
function shownUrl(base: string): string {
  try {
    const url = new URL(base);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return base;
  }
}

/**
 * A call at start (auth.test, apps.connections.open) that did not reach a Slack Web API: nothing
 * listening, or something that is not the Web API (a 404, an HTML page). One line naming
 * SLACK_API_URL, the setting to fix; anything else is translated as any other call.
 */
export function startCallFailure(method: string, error: unknown, apiBase: string): PlatformApiError {
  if (error instanceof WebAPIRequestError) {
    return new PlatformApiError({
      platform: 'slack',
      method,
      message: `cannot reach the Slack Web API at ${shownUrl(apiBase)} (${networkCause(error)}); check SLACK_API_URL and the network`,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof WebAPIHTTPError) {
    const status = `HTTP ${error.statusCode}${error.statusMessage ? ` ${error.statusMessage}` : ''}`;
    return new PlatformApiError({
      platform: 'slack',
      method,
      message: `the Slack Web API at ${shownUrl(apiBase)} answered ${status}; check SLACK_API_URL (the Web API base, e.g. ${DEFAULT_SLACK_API_URL})`,
      status: error.statusCode,
      retryable: error.statusCode >= 500 || error.statusCode === 408,
      cause: error,
    });
  }
  return toPlatformError(method, error);
}

/** True when `error` is a startCallFailure that names SLACK_API_URL (the endpoint, not the token, is wrong). */
export function isEndpointFailure(error: unknown): boolean {
  return error instanceof PlatformApiError && (error.cause instanceof WebAPIRequestError || error.cause instanceof WebAPIHTTPError);
}
