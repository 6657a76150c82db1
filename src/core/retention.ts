/**
 * Retention (config `retention:`): the one place that decides what finished rows leave the store and
 * when — once at start, then every `interval_minutes`. The store only deletes what it is told to,
 * in short batches (`RetentionRepo.prune`), so a large backlog never blocks message handling.
 */
import type { AppConfig } from './config.js';
import type { Logger } from './logger.js';
import { oneLine } from './errors.js';
import type { PruneCutoffs, PruneResult, Store, TableSizes } from './store/types.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per table per prune call. */
const BATCH = 2000;

export type RetentionConfig = AppConfig['retention'];

/** The cutoffs `config` gives at `now` (epoch ms): a null setting keeps that table. */
export function cutoffs(config: RetentionConfig, now: number): PruneCutoffs {
  const before = (days: number | null) => (days === null ? undefined : now - days * DAY_MS);
  return {
    inboundBefore: before(config.inbound_days),
    outboxSentBefore: before(config.outbox_sent_days),
    cronRunsBefore: before(config.cron_runs_days),
    sessionsBefore: before(config.sessions_days),
  };
}

/** Prunes until nothing is left past the cutoffs, yielding between batches; totals per table. */
export async function applyRetention(store: Pick<Store, 'retention'>, config: RetentionConfig, now: number): Promise<PruneResult> {
  const at = cutoffs(config, now);
  const total: PruneResult = { inbound: 0, outbox: 0, cronRuns: 0, sessions: 0, messages: 0 };
  for (;;) {
    const r = await store.retention.prune(at, BATCH);
    let any = false;
    for (const k of Object.keys(total) as Array<keyof PruneResult>) {
      total[k] += r[k];
      if (r[k]) any = true;
    }
    if (!any) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Removes stored media past `media_days` (ARCHITECTURE.md §15); how many files went (0 when kept for good). */
export async function sweepMedia(store: Partial<Pick<Store, 'media'>>, config: RetentionConfig, now: number): Promise<number> {
  if (!store.media || config.media_days === null) return 0;
  return store.media.sweep(now - config.media_days * DAY_MS);
}

export interface RetentionOptions {
  store: Pick<Store, 'retention'> & Partial<Pick<Store, 'media'>>;
  config: RetentionConfig;
  logger: Logger;
  now: () => Date;
}

/** Runs retention at `start()` and then periodically until `stop()`; never overlaps itself. */
export class Retention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: RetentionOptions) {}

  /** Applies the policy now and arms the periodic run. */
  start(): Promise<void> {
    const minutes = this.options.config.interval_minutes;
    if (!this.timer && minutes > 0) {
      this.timer = setInterval(() => void this.runOnce(), minutes * 60_000);
      this.timer.unref();
    }
    return this.runOnce();
  }

  /** One pass (joins one already running). Failures are logged, never thrown: retention is housekeeping. */
  runOnce(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async pass(): Promise<void> {
    const { store, config, logger, now } = this.options;
    try {
      const r = await applyRetention(store, config, now().getTime());
      const media = await sweepMedia(store, config, now().getTime());
      const removed = [...Object.entries(r), ['media files', media] as const].filter(([, n]) => n > 0);
      if (removed.length) logger.info('retention', `removed ${removed.map(([k, n]) => `${n} ${k}`).join(', ')}`);
    } catch (error) {
      logger.warn('retention', `pass failed (tries again next interval): ${oneLine(error)}`);
    }
  }
}

/** One line for `doctor`: rows per table and the file size. */
export function formatTableSizes(sizes: TableSizes): string {
  const rows = sizes.tables.map((t) => `${t.name} ${t.rows.toLocaleString('en-US')}`).join(', ');
  const mb = sizes.bytes === null ? '' : `; ${(sizes.bytes / 1024 / 1024).toFixed(1)} MB on disk`;
  return `${rows}${mb}`;
}
