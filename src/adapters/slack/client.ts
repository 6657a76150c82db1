import { LogLevel, type Logger as BoltLogger } from '@slack/logger';
import { type RetryOptions, WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from '../../core/logger.js';

/** The public Web API base; `SLACK_API_URL` replaces it (with or without a trailing slash). */
export const DEFAULT_SLACK_API_URL = 'https://slack.com/api';

/** Per-request timeout: a hung socket must not hold a delivery (or `start`) for minutes. */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Retries for network errors and HTTP 5xx: 3 tries within a few seconds. The SDK default retries
 * for about 30 minutes, which would hold one reply hostage; the outbox retries later instead.
 * Rate limits are not retried here (`rejectRateLimitedCalls`): the sender waits out `Retry-After`
 * itself so that a 429 is reported with its delay and the chunk is sent exactly once afterwards.
 */
export const RETRY_POLICY: RetryOptions = { retries: 2, factor: 2, minTimeout: 300, maxTimeout: 2_000, randomize: false };

/** Web API base as the SDK wants it: always with one trailing slash (`…/api/`). */
export function slackApiBase(apiUrl: string | undefined): string {
  return `${(apiUrl ?? DEFAULT_SLACK_API_URL).replace(/\/+$/, '')}/`;
}

export interface SlackClientOptions {
  apiUrl?: string;
  logger: Logger;
  retries?: number;
  timeoutMs?: number;
}

/** WebClient options shared by the sending client and Bolt's own clients (Socket Mode's apps.connections.open too). */
export function webClientOptions(opts: SlackClientOptions): WebClientOptions {
  return {
    slackApiUrl: slackApiBase(opts.apiUrl),
    // The client warns about one try ("http request failed" before its retry); whoever called it
    // reports the outcome in one line (the outbox, start), so the tries go to debug.
    logger: boltLogger(opts.logger, 'slack', { held: () => true }),
    retryConfig: { ...RETRY_POLICY, retries: opts.retries ?? RETRY_POLICY.retries },
    timeout: opts.timeoutMs ?? REQUEST_TIMEOUT_MS,
    rejectRateLimitedCalls: true,
  };
}

export function createWebClient(token: string, opts: SlackClientOptions): WebClient {
  return new WebClient(token, webClientOptions(opts));
}

function describe(part: unknown): string {
  if (part instanceof Error) return part.message.split('\n')[0];
  if (typeof part === 'string') return part;
  try {
    return JSON.stringify(part)?.slice(0, 300) ?? String(part);
  } catch {
    return String(part);
  }
}

/**
 * While `held()` is true, warnings and errors go to debug, the last one kept in `last`: what Bolt
 * says while start() waits (Socket Mode's "Failed to retrieve a new WSS URL …") is the story of
 * the attempt, and start() reports its outcome itself, in one line naming the setting.
 */
export interface LogHold {
  held(): boolean;
  last?: string;
  /** Sees every warning and error, held or not (the Socket Mode watch takes a failed reconnect's reason from it). */
  seen?(text: string): void;
}

/**
 * Bolt and the Web API client log through this bridge into Switchboard's logger (which redacts
 * secrets). Their `info` lines are chatty internals, so they go to debug.
 */
export function boltLogger(logger: Logger, scope = 'slack', hold?: LogHold): BoltLogger {
  let level: LogLevel = LogLevel.DEBUG;
  const line = (parts: unknown[]): string => parts.map(describe).join(' ');
  const loud = (log: (scope: string, text: string) => void) => (...msg: unknown[]) => {
    const text = line(msg);
    hold?.seen?.(text);
    if (!hold?.held()) return log(scope, text);
    hold.last = text;
    logger.debug(scope, text);
  };
  return {
    debug: (...msg: unknown[]) => logger.debug(scope, line(msg)),
    info: (...msg: unknown[]) => logger.debug(scope, line(msg)),
    warn: loud((s, t) => logger.warn(s, t)),
    error: loud((s, t) => logger.error(s, t)),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
