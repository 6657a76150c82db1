/**
 * Long polling that confirms an update only after the handler took it.
 *
 * Telegram confirms every update below the `offset` of the next getUpdates call. grammY's built-in
 * `bot.start()` would, on `bot.stop()`, confirm the update whose middleware is still running (its
 * final getUpdates uses the last *tried* id), so a stop in the middle of a hand-over would lose it.
 * This loop advances the offset only past updates whose handling resolved, and on stop confirms
 * exactly those: an update not yet handed over (or whose handler failed) is fetched again next time.
 */
import type { Api } from 'grammy/web';
import type { Update } from 'grammy/types';
import type { Logger } from '../../core/logger.js';
import { GrammyError } from 'grammy/web';
import { handlerFailure, retryAfterSeconds, toPlatformError } from './errors.js';

export interface PollerOptions {
  api: Api;
  token: string;
  logger: Logger;
  /** Runs the middleware for one update; resolves when the update is safe to confirm. */
  handle: (update: Update) => Promise<void>;
  timeoutSeconds: number;
  allowedUpdates: readonly AllowedUpdate[];
  /** Called when polling cannot go on (token revoked). */
  onFatal: (error: Error) => void;
}

export type AllowedUpdate = Exclude<keyof Update, 'update_id'>;

const MAX_BACKOFF_MS = 30_000;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

export class Poller {
  private running = false;
  private readonly abort = new AbortController();
  /** Next offset to send: one past the last update whose handler resolved. */
  private offset: number | undefined;
  private confirmed: number | undefined;
  private loopDone: Promise<void> = Promise.resolve();
  /** Why the last getUpdates failed, until one succeeds again (`/readyz`, ARCHITECTURE.md §18). */
  private failure: string | null = null;

  constructor(private readonly options: PollerOptions) {}

  /** Null while polling works; else what is wrong, in one line. */
  get problem(): string | null {
    return this.failure;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /**
   * Stops fetching, waits up to `graceMs` for an update being handed over, then confirms what was
   * handled. Updates fetched but not handed over stay unconfirmed and come again on the next start.
   */
  async stop(graceMs: number): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.loopDone, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    if (this.offset !== undefined && this.offset !== this.confirmed) {
      try {
        // limit 1, timeout 0: only confirms; whatever it returns is fetched again next time. Bounded, so
        // a server that holds the request anyway cannot stall a shutdown.
        await this.options.api.getUpdates({ offset: this.offset, limit: 1, timeout: 0 }, AbortSignal.timeout(2000) as Parameters<Api['getUpdates']>[1]);
        this.confirmed = this.offset;
      } catch (error) {
        this.options.logger.warn('telegram', `could not confirm handled updates on stop (they will be skipped as duplicates): ${toPlatformError('getUpdates', error, this.options.token).message}`);
      }
    }
  }

  private async loop(): Promise<void> {
    const { api, logger, handle } = this.options;
    let backoff = 1000;
    let allowedUpdates: readonly AllowedUpdate[] | undefined = this.options.allowedUpdates;
    while (this.running) {
      let updates: Update[];
      const asked = Date.now();
      try {
        updates = await api.getUpdates(
          { offset: this.offset, timeout: this.options.timeoutSeconds, allowed_updates: allowedUpdates },
          // grammY types its signal as the abort-controller polyfill's; Node's native one is what it gets at runtime.
          this.abort.signal as Parameters<Api['getUpdates']>[1],
        );
        if (this.offset !== undefined) this.confirmed = this.offset;
        this.failure = null;
        // Telegram keeps allowed_updates from the last call that set it.
        allowedUpdates = undefined;
        backoff = 1000;
        if (updates.length === 0 && this.options.timeoutSeconds > 0 && Date.now() - asked < 50) {
          // A server that does not hold long polls would otherwise make this a busy loop.
          await pause(250, this.abort.signal);
        }
      } catch (error) {
        if (!this.running) break;
        this.failure = `getUpdates failed: ${toPlatformError('getUpdates', error, this.options.token).message}`;
        if (error instanceof GrammyError && error.error_code === 401) {
          this.running = false;
          const failure = toPlatformError('getUpdates', error, this.options.token);
          logger.error('telegram', `polling stopped: ${failure.message}`);
          this.options.onFatal(failure);
          break;
        }
        const line = error instanceof GrammyError && error.error_code === 409 ? ' (another instance is polling with this token, or a webhook is set)' : '';
        const retryAfter = retryAfterSeconds(error);
        const wait = retryAfter !== undefined ? retryAfter * 1000 : backoff;
        logger.warn('telegram', `getUpdates failed${line}: ${toPlatformError('getUpdates', error, this.options.token).message}; retrying in ${wait / 1000} s`);
        await pause(wait, this.abort.signal);
        if (retryAfter === undefined) backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        continue;
      }
      for (const update of updates) {
        if (!this.running) break;
        try {
          await handle(update);
        } catch (error) {
          logger.error('telegram', `update ${update.update_id} was not taken (${handlerFailure(error)}); it stays unconfirmed and is fetched again`);
          await pause(backoff, this.abort.signal);
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
          break;
        }
        if (typeof update.update_id === 'number') this.offset = update.update_id + 1;
      }
    }
  }
}
