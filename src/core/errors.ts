/**
 * Coded errors. A SwitchboardError's message is one line a user can act on; the CLI prints
 * only that line (never a stack). Never put a secret into a message.
 */
export type ErrorCode =
  | 'config'
  | 'credentials'
  | 'usage'
  | 'platform_api'
  | 'network'
  | 'rate_limited'
  | 'model'
  | 'storage';

export class SwitchboardError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SwitchboardError';
    this.code = code;
  }
}

export class ConfigError extends SwitchboardError {
  constructor(message: string) {
    super('config', message);
    this.name = 'ConfigError';
  }
}

export class UsageError extends SwitchboardError {
  constructor(message: string) {
    super('usage', message);
    this.name = 'UsageError';
  }
}

export class CredentialsError extends SwitchboardError {
  constructor(message: string) {
    super('credentials', message);
    this.name = 'CredentialsError';
  }
}

export class StorageError extends SwitchboardError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('storage', message, options);
    this.name = 'StorageError';
  }
}

/** A platform refused or failed a call. `retryable` tells the outbox whether to try again later. */
export class PlatformApiError extends SwitchboardError {
  readonly platform: string;
  readonly method: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly retryable: boolean;
  constructor(opts: {
    platform: string;
    method: string;
    message: string;
    status?: number;
    retryAfterMs?: number;
    retryable: boolean;
    cause?: unknown;
  }) {
    super(opts.retryAfterMs !== undefined ? 'rate_limited' : 'platform_api', `${opts.platform} ${opts.method}: ${opts.message}`, {
      cause: opts.cause,
    });
    this.name = 'PlatformApiError';
    this.platform = opts.platform;
    this.method = opts.method;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
    this.retryable = opts.retryable;
  }
}

/**
 * What went wrong with a model call, for the one short line a chat user gets (the message, with
 * the endpoint and the fix, is for the log): `unconfigured` no model set up, `timeout` no answer
 * in time, `unavailable` unreachable / 429 / 5xx, `refused` the provider refused the key or the
 * model (401, 403, 404), `failed` anything else (a malformed answer, a cut connection).
 */
/**
 * `unavailable`: the model could not be reached (connection refused, DNS); `erroring`: it answered
 * with a server error (HTTP 5xx) or was overloaded (429, 529); `too_long`: the request does not fit
 * the model's context window (the gateway compresses and retries once, issue 38).
 */
export type ModelErrorKind = 'unconfigured' | 'timeout' | 'unavailable' | 'erroring' | 'too_long' | 'refused' | 'cancelled' | 'failed';

export class ModelError extends SwitchboardError {
  readonly status?: number;
  readonly kind: ModelErrorKind;
  constructor(message: string, options?: { status?: number; kind?: ModelErrorKind; cause?: unknown }) {
    super('model', message, { cause: options?.cause });
    this.name = 'ModelError';
    this.status = options?.status;
    this.kind = options?.kind ?? 'failed';
  }
}

/** One line for a user: the message of a SwitchboardError, or a generic line for anything else. */
export function oneLine(error: unknown): string {
  if (error instanceof SwitchboardError) return error.message.split('\n')[0];
  if (error instanceof Error) return error.message.split('\n')[0];
  return String(error);
}

/** How the log names a missing model (the fix, HOW_TO_CONFIGURE_MODEL, is printed once, not per failure). */
export const NO_MODEL = 'no model configured or reachable';

/** One line for a log: as oneLine, but a missing model is named short (its fix is shown once elsewhere). */
export function logLine(error: unknown): string {
  return error instanceof ModelError && error.kind === 'unconfigured' ? NO_MODEL : oneLine(error);
}
