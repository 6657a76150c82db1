/**
 * Translation of @discordjs/rest and @discordjs/ws failures into Switchboard's coded errors, at the adapter edge.
 * Messages never include request URLs: interaction webhook URLs carry a token.
 */
import { DiscordAPIError, HTTPError, RateLimitError } from './rest.js';
import { ConfigError, CredentialsError, PlatformApiError, SwitchboardError } from '../../core/errors.js';
import { GatewayInfoError } from './client.js';

const PLATFORM = 'discord';

/** Node/undici error codes that mean the network, not Discord, failed: worth trying again later. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `Invalid Form Body` plus its first field error, on one line. */
function apiErrorLine(error: DiscordAPIError): string {
  const [first, ...details] = error.message.split('\n').map((l) => l.trim()).filter(Boolean);
  const detail = details.length ? `: ${details.slice(0, 2).join('; ')}` : '';
  // Discord's generic bodies already start with the status ("401: Unauthorized"): say it once.
  const text = (first ?? 'error').replace(new RegExp(`^${error.status}:\\s*`), '');
  return `${error.status} ${text}${detail} (code ${error.code})`;
}

/** A REST failure while sending (`method` names the call, e.g. createMessage) as a PlatformApiError. */
export function toPlatformError(error: unknown, method: string): PlatformApiError {
  if (error instanceof PlatformApiError) return error;
  if (error instanceof RateLimitError) {
    const wait = Math.max(error.retryAfter, error.timeToReset);
    return new PlatformApiError({ platform: PLATFORM, method, status: 429, retryAfterMs: wait, retryable: true, message: `rate limited for ${Math.ceil(wait / 1000)} s`, cause: error });
  }
  if (error instanceof DiscordAPIError) {
    // 4xx other than 429 will fail again the same way (403 Missing Permissions, 404 Unknown Channel, 50035 Invalid Form Body).
    const retryable = error.status >= 500 || error.status === 429 || error.status === 408;
    return new PlatformApiError({ platform: PLATFORM, method, status: error.status, retryable, message: apiErrorLine(error), cause: error });
  }
  if (error instanceof HTTPError) {
    return new PlatformApiError({ platform: PLATFORM, method, status: error.status, retryable: error.status >= 500 || error.status === 408, message: `${error.status} ${error.message}`, cause: error });
  }
  const code = errorCode(error);
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError' || name === 'TimeoutError') {
    return new PlatformApiError({ platform: PLATFORM, method, retryable: true, message: 'request timed out', cause: error });
  }
  if ((code && NETWORK_CODES.has(code)) || (error instanceof TypeError && /fetch failed/i.test(error.message))) {
    return new PlatformApiError({ platform: PLATFORM, method, retryable: true, message: `network error${code ? ` (${code})` : ''}`, cause: error });
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new PlatformApiError({ platform: PLATFORM, method, retryable: true, message, cause: error });
}

/** The setting a failure of the REST base names (the start line says where to look). */
const API_SETTING = 'DISCORD_API_URL';

/** The HTTP status of a REST failure, when it was one. */
function httpStatus(error: unknown): number | undefined {
  return error instanceof DiscordAPIError || error instanceof HTTPError ? error.status : undefined;
}

/**
 * A failure of connect (GET /gateway/bot on DISCORD_API_URL, then the gateway) as the one line
 * `switchboard start` prints.
 */
export function toStartError(error: unknown, apiUrl: string, request = 'GET /gateway/bot'): SwitchboardError {
  if (error instanceof SwitchboardError) return error;
  const code = errorCode(error);
  const status = httpStatus(error);
  const message = error instanceof Error ? error.message : String(error);
  // 401 from REST, or close code 4004 from the gateway (@discordjs/ws: "Authentication failed").
  if (status === 401 || /authentication failed/i.test(message)) {
    return new CredentialsError('Discord rejected DISCORD_BOT_TOKEN (401 Unauthorized): copy the bot token again from the Developer Portal (Bot → Reset Token)');
  }
  if (/disallowed intents/i.test(message)) {
    return new ConfigError(
      "Discord refused the bot's intents: enable 'Message Content Intent' under Bot → Privileged Gateway Intents in the Developer Portal",
    );
  }
  if (status === 404 || status === 405) {
    return new ConfigError(
      `${API_SETTING} ${apiUrl} answered ${status} to ${request}: it must be the unversioned Discord REST base (https://discord.com/api, or a proxy of it)`,
    );
  }
  if (error instanceof GatewayInfoError) {
    return new ConfigError(`${API_SETTING} ${apiUrl}: ${error.message}: it must be the unversioned Discord REST base (https://discord.com/api, or a proxy of it)`);
  }
  if (status !== undefined) {
    return new PlatformApiError({ platform: PLATFORM, method: 'connect', status, retryable: true, message: `the Discord API at ${apiUrl} (${API_SETTING}) answered ${status} to ${request}`, cause: error });
  }
  if ((code && NETWORK_CODES.has(code)) || (error instanceof TypeError && /fetch failed/i.test(message))) {
    // fetch's own refusals carry no code, only a reason (e.g. "bad port": a port fetch never dials).
    const reason = code ?? (error instanceof Error && error.cause instanceof Error ? error.cause.message.split('\n')[0] : undefined);
    return new PlatformApiError({ platform: PLATFORM, method: 'connect', retryable: true, message: `cannot reach the Discord API at ${apiUrl} (${API_SETTING})${reason ? `: ${reason}` : ''}`, cause: error });
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError' || name === 'TimeoutError') {
    return new PlatformApiError({ platform: PLATFORM, method: 'connect', retryable: true, message: `no answer from the Discord API at ${apiUrl} (${API_SETTING})`, cause: error });
  }
  return new PlatformApiError({ platform: PLATFORM, method: 'connect', retryable: true, message: message.split('\n')[0], cause: error });
}
