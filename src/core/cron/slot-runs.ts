/**
 * Running one slot of a job (the scheduler decides when): claim the slot in the store once across
 * every scheduler, run the agent, deliver unless [SILENT], record the outcome. A run is registered
 * in `running` before its claim is awaited, so a second fire of the same job in this process (the
 * next slot, `cron run`, a catch-up) sees it as busy, never as free.
 */
import { logLine, oneLine, SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ClaimOutcome, CronRepo } from '../store/types.js';
import { plainLine } from './format.js';
import type { CronDeliverer, CronJob, CronRunner, CronRunResult, CronRunStatus } from './types.js';

/** An answer that is exactly this (after trimming) delivers nothing. */
export const SILENT = '[SILENT]';
const RESULT_CHARS = 160;

/** First line of a text without Markdown markers, cut to a short result for `cron list`. */
export function shortResult(text: string): string {
  const line = text.split('\n').map(plainLine).find(Boolean) ?? '';
  return line.length > RESULT_CHARS ? `${line.slice(0, RESULT_CHARS - 1)}…` : line;
}

interface Running {
  promise: Promise<CronRunResult>;
  abort: AbortController;
}

export interface SlotRunsDeps {
  repo: CronRepo;
  runner: CronRunner;
  deliverer: CronDeliverer;
  logger: Logger;
  now: () => Date;
  /** A run longer than this is aborted (ms). */
  maxRunMs: number;
  /** Leases (ARCHITECTURE.md §9): a run holds `cron-run:<id>` while it runs, so another instance never closes it. */
  leases?: CronRunLeases;
}

export interface CronRunLeases {
  acquire(name: string): Promise<boolean>;
  release(name: string): Promise<void>;
}

export const cronRunLease = (runId: number): string => `cron-run:${runId}`;

export class SlotRuns {
  private readonly repo: CronRepo;
  private readonly runner: CronRunner;
  private readonly deliverer: CronDeliverer;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly maxRunMs: number;
  private readonly leases: CronRunLeases | undefined;
  /** Runs in progress, by job id. */
  private readonly running = new Map<string, Running>();
  /** Bookkeeping still being written (skipped slots, refused overlaps). */
  private readonly pending = new Set<Promise<CronRunResult>>();

  constructor(deps: SlotRunsDeps) {
    this.repo = deps.repo;
    this.runner = deps.runner;
    this.deliverer = deps.deliverer;
    this.logger = deps.logger;
    this.now = deps.now;
    this.maxRunMs = deps.maxRunMs;
    this.leases = deps.leases;
  }

  /** A run or some bookkeeping is in progress. */
  get busy(): boolean {
    return this.running.size > 0 || this.pending.size > 0;
  }

  /** True while `promise` is bookkeeping (not a run) still being written. */
  isBookkeeping(promise: Promise<CronRunResult>): boolean {
    return this.pending.has(promise);
  }

  abortAll(reason: Error): void {
    for (const r of this.running.values()) r.abort.abort(reason);
  }

  /** Resolves when every run in progress (and every skipped slot being recorded) has finished. */
  async idle(): Promise<void> {
    while (this.running.size || this.pending.size) {
      await Promise.allSettled([...[...this.running.values()].map((r) => r.promise), ...this.pending]);
    }
  }

  /** A missed slot that is not run (too late), recorded as skipped; tracked until recorded. */
  skip(jobId: string, slot: number, now: number, detail: string): Promise<CronRunResult> {
    return this.track(this.recordSkip(jobId, slot, now, detail));
  }

  private async recordSkip(jobId: string, slot: number, now: number, detail: string): Promise<CronRunResult> {
    try {
      if (await this.repo.skip(jobId, slot, now, detail)) this.logger.warn('cron', `job '${jobId}': ${detail}`);
      return { jobId, slot, status: 'skipped', detail };
    } catch (error) {
      const why = `cannot record the missed run of ${new Date(slot).toISOString()}: ${oneLine(error)}`;
      this.logger.error('cron', `job '${jobId}': ${why}`);
      return { jobId, slot, status: 'error', detail: why };
    }
  }
  /** Keeps a bookkeeping promise in `pending` until it settles (idle() and stop() wait for it). */
  private track(promise: Promise<CronRunResult>): Promise<CronRunResult> {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
    return promise;
  }

  /**
   * Claims the slot, runs the agent, delivers unless [SILENT], and records the outcome. The run is
   * registered in `running` synchronously, before the claim is awaited: a second fire of the job in
   * this process (the next slot, `cron run`, a catch-up) sees it as busy. The promise never rejects.
   */
  execute(job: CronJob, slot: number): Promise<CronRunResult> {
    const at = this.now().getTime();
    if (this.running.has(job.id)) return this.track(this.refuseOverlap(job, slot, at));
    const run: Running = { promise: undefined as unknown as Promise<CronRunResult>, abort: new AbortController() };
    this.running.set(job.id, run);
    run.promise = this.claimAndRun(job, slot, at, run);
    return run.promise;
  }

  /** A slot of a job whose previous run is still going: recorded as skipped (once across schedulers). */
  private async refuseOverlap(job: CronJob, slot: number, at: number): Promise<CronRunResult> {
    const base = { jobId: job.id, slot };
    try {
      const claim = await this.repo.claim(job.id, slot, at, true);
      if (claim.kind === 'taken') return { ...base, status: 'skipped', detail: 'this slot was already claimed' };
      const detail = 'the previous run was still going';
      // An engine that claimed it anyway: close the row as skipped, never leave it 'running'.
      if (claim.kind === 'claimed') await this.repo.finish(claim.runId, job.id, 'skipped', detail, at);
      this.logger.warn('cron', `job '${job.id}': run of ${new Date(slot).toISOString()} not started, the previous run is still going`);
      return { ...base, status: 'skipped', detail };
    } catch (error) {
      return this.claimFailed(job, slot, error);
    }
  }

  private claimFailed(job: CronJob, slot: number, error: unknown): CronRunResult {
    // A locked or broken store must not take the gateway down; the slot is lost, not doubled.
    const detail = `cannot claim the run of ${new Date(slot).toISOString()}: ${oneLine(error)}`;
    this.logger.error('cron', `job '${job.id}': ${detail}`);
    return { jobId: job.id, slot, status: 'error', detail };
  }

  private async claimAndRun(job: CronJob, slot: number, at: number, run: Running): Promise<CronRunResult> {
    const base = { jobId: job.id, slot };
    try {
      let claim: ClaimOutcome;
      try {
        claim = await this.repo.claim(job.id, slot, at, false);
      } catch (error) {
        return this.claimFailed(job, slot, error);
      }
      if (claim.kind === 'taken') return { ...base, status: 'skipped', detail: 'this slot was already claimed' };
      if (claim.kind === 'busy') return { ...base, status: 'skipped', detail: 'the previous run was still going' };
      const { runId } = claim;
      // A fresh name: free unless the store is unreachable, and then the run goes on without it.
      await this.leases?.acquire(cronRunLease(runId)).catch(() => false);
      const limit = setTimeout(() => run.abort.abort(new Error(`the run took longer than ${Math.round(this.maxRunMs / 1000)} s`)), this.maxRunMs);
      limit.unref();
      let markRecorded!: () => void;
      const recorded = new Promise<void>((resolve) => (markRecorded = resolve));
      try {
        const result = await this.perform(job, slot, run.abort.signal, recorded);
        try {
          await this.repo.finish(runId, job.id, result.status, result.detail, this.now().getTime());
        } catch (error) {
          this.logger.error('cron', `job '${job.id}': cannot record the run's outcome (${result.status}): ${oneLine(error)}`);
        }
        return result;
      } finally {
        markRecorded();
        clearTimeout(limit);
        await this.leases?.release(cronRunLease(runId)).catch(() => undefined);
      }
    } finally {
      if (this.running.get(job.id) === run) this.running.delete(job.id);
    }
  }

  private async perform(job: CronJob, slot: number, signal: AbortSignal, recorded: Promise<void>): Promise<CronRunResult> {
    const base = { jobId: job.id, slot };
    let status: CronRunStatus;
    let answer: string | undefined;
    let detail: string;
    try {
      this.logger.info('cron', `job '${job.id}': running (slot ${new Date(slot).toISOString()})`);
      const run = await this.runner(job, new Date(slot), signal);
      answer = run.answer;
      const text = answer.trim();
      // Files the run sent with send_file go with its report (a report may be only files).
      const files = run.files ?? [];
      if (text === SILENT) {
        status = 'silent';
        detail = 'nothing to report ([SILENT])';
      } else if (!text && !files.length) {
        status = 'error';
        detail = 'the model returned an empty answer';
      } else {
        await this.deliverer(job, answer, recorded, files);
        status = 'ok';
        detail = text ? shortResult(text) : `${files.length} file(s): ${files.map((f) => f.name).join(', ')}`;
      }
    } catch (error) {
      status = 'error';
      detail = error instanceof SwitchboardError || error instanceof Error ? oneLine(error) : String(error);
      // One line per failure, and a missing model by name only: its fix is printed once elsewhere.
      this.logger.error('cron', `job '${job.id}': ${logLine(error)}`);
      return { ...base, status, answer, detail };
    }
    this.logger.info('cron', `job '${job.id}': ${status}${detail ? ` — ${detail}` : ''}`);
    return { ...base, status, answer, detail };
  }
}
