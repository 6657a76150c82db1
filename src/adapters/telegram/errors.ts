/**
 * grammY errors → Switchboard errors, at the adapter edge. Messages are one line and never carry the
 * bot token (grammY's network errors can quote the request URL, which contains it).
 */
import { BotError, GrammyError, HttpError } from 'grammy/web';
import { CredentialsError, PlatformApiError, SwitchboardError } from '../../core/errors.js';

/** Removes the token wherever it appears (e.g. `/bot123:ABC/sendMessage` in a fetch error). */
export function redactToken(text: string, token: string): string {
  let out = token ? text.split(token).join('[REDACTED]') : text;
  out = out.replace(/\/bot\d+:[A-Za-z0-9_-]+/g, '/bot[REDACTED]');
  return out.split('\n')[0];
}

function causeMessage(error: HttpError): string {
  const inner = error.error;
  if (inner instanceof Error) {
    const code = (inner as NodeJS.ErrnoException).code;
    return code ? `${inner.message} (${code})` : inner.message;
  }
  return error.message;
}

/** Telegram refused the HTML: the chunk must go again as plain text. */
export function isParseEntitiesError(error: unknown): error is GrammyError {
  return error instanceof GrammyError && error.error_code === 400 && /can't parse entities/i.test(error.description);
}

/** The text of a 429, with the seconds Telegram asked us to wait. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!(error instanceof GrammyError) || error.error_code !== 429) return undefined;
  const value = error.parameters.retry_after;
  return typeof value === 'number' && value >= 0 ? value : 1;
}

/** A group upgraded to a supergroup lives on under a new chat id. */
export function migratedChatId(error: unknown): number | undefined {
  if (!(error instanceof GrammyError)) return undefined;
  const id = error.parameters.migrate_to_chat_id;
  return typeof id === 'number' ? id : undefined;
}

/**
 * Any failure of an API call as a PlatformApiError: network errors, 429 and 5xx are retryable later;
 * other 4xx (chat not found, bot blocked, bad request) are not.
 */
export function toPlatformError(method: string, error: unknown, token: string): PlatformApiError {
  if (error instanceof PlatformApiError) return error;
  if (error instanceof GrammyError) {
    const retryAfter = retryAfterSeconds(error);
    return new PlatformApiError({
      platform: 'telegram',
      method,
      status: error.error_code,
      message: redactToken(`${error.error_code} ${error.description}`, token),
      retryAfterMs: retryAfter !== undefined ? retryAfter * 1000 : undefined,
      retryable: error.error_code === 429 || error.error_code >= 500,
      cause: error,
    });
  }
  if (error instanceof HttpError) {
    return new PlatformApiError({
      platform: 'telegram',
      method,
      message: redactToken(`network error: ${causeMessage(error)}`, token),
      retryable: true,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PlatformApiError({ platform: 'telegram', method, message: redactToken(message, token), retryable: true, cause: error });
}

/** Why getMe failed, as one line for `start` and `doctor`. */
export function getMeFailure(error: unknown, apiRoot: string, token: string): SwitchboardError {
  if (error instanceof GrammyError && error.error_code === 401) {
    return new CredentialsError('TELEGRAM_BOT_TOKEN was refused by Telegram (401 Unauthorized): check the token from @BotFather');
  }
  if (error instanceof GrammyError && error.error_code === 404) {
    return new CredentialsError('TELEGRAM_BOT_TOKEN is not a bot token Telegram knows (404 Not Found): check the token from @BotFather');
  }
  if (error instanceof HttpError) {
    return new PlatformApiError({
      platform: 'telegram',
      method: 'getMe',
      message: redactToken(`cannot reach the Bot API at ${apiRoot}: ${causeMessage(error)} (check TELEGRAM_API_ROOT and the network)`, token),
      retryable: true,
      cause: error,
    });
  }
  return toPlatformError('getMe', error, token);
}

/** The handler's own error inside grammY's BotError wrapper, as one line for the log. */
export function handlerFailure(error: unknown): string {
  const inner = error instanceof BotError ? error.error : error;
  return inner instanceof Error ? inner.message.split('\n')[0] : String(inner);
}
