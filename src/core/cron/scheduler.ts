/**
 * The cron scheduler: fires each job once per scheduled slot and hands the run to the core.
 *
 * Why its own timer loop rather than node-cron tasks: node-cron's runner arms a timer from the real
 * clock, persists nothing and, when a beat is late, reports the slot as "missed" rather than running
 * it, so exactly-once across restarts and catch-up would need a second bookkeeping anyway. Here one
 * timer is armed for the earliest *computed* slot (node-cron decides what matches, see schedule.ts);
 * when it fires the due slot is derived from the slot sequence, never from "now + delay", so a
 * timer that fires a few ms early is re-armed and one that fires late still runs the slot it was
 * for — no second is skipped or doubled by drift. Each slot is claimed in the store before it runs
 * (`CronRepo.claim`, UNIQUE(job_id, slot)), so a restart, a doubled timer or a second process cannot
 * run it twice. Claims are asynchronous: a run is registered in `running` before the claim's first
 * await, so a second fire of the same job in this process sees it as busy, never as free.
 */
import { logLine, oneLine, SwitchboardError, UsageError } from '../errors.js';
import type { CronJobConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { ClaimOutcome, CronRepo } from '../store/types.js';
import { formatAddress } from '../../platform/address.js';
import { CronSchedule, lateWindowMs, validateJobSchedule } from './schedule.js';
import { plainLine } from './format.js';
import type { CronDeliverer, CronJob, CronRunner, CronRunResult, CronRunStatus } from './types.js';

/** An answer that is exactly this (after trimming) delivers nothing. */
export const SILENT = '[SILENT]';
/** Longest a timer is armed for: keeps setTimeout in range and notices wall-clock jumps. */
const MAX_TIMER_MS = 60 * 60 * 1000;
const DEFAULT_RESCAN_MS = 5000;
const DEFAULT_MAX_RUN_MS = 30 * 60 * 1000;
const RESULT_CHARS = 160;
/** After aborting runs at shutdown, how long to wait for them to notice. */
const ABORT_WAIT_MS = 1000;

export interface CronSchedulerDeps {
  /** The store's cron repository (`store.cron`). */
  repo: CronRepo;
  runner: CronRunner;
  deliverer: CronDeliverer;
  logger: Logger;
  /** Jobs from the config file; synced into the store at start (validated, ConfigError naming the job). */
  jobs: readonly CronJobConfig[];
  now?: () => Date;
  /** How often jobs created or changed from chat are picked up (ms). */
  rescanMs?: number;
  /** A run longer than this is aborted (ms). */
  maxRunMs?: number;
}

interface Armed {
  job: CronJob;
  schedule: CronSchedule;
  /** The next slot to fire (epoch ms), or null if the pattern never fires again. */
  next: number | null;
}

/** Validates every config job's schedule and zone; throws ConfigError naming the first bad job. */
export function validateCronJobs(jobs: readonly CronJobConfig[]): void {
  for (const job of jobs) validateJobSchedule(job.id, job.schedule, job.timezone);
}

/** First line of a text without Markdown markers, cut to a short result for `cron list`. */
export function shortResult(text: string): string {
  const line = text.split('\n').map(plainLine).find(Boolean) ?? '';
  return line.length > RESULT_CHARS ? `${line.slice(0, RESULT_CHARS - 1)}…` : line;
}

function fingerprint(job: CronJob): string {
  return [job.schedule, job.timezone ?? '', job.paused ? 'p' : '', job.prompt, formatAddress(job.deliver)].join('\u0000');
}

interface Running {
  promise: Promise<CronRunResult>;
  abort: AbortController;
}

export class CronScheduler {
  private readonly repo: CronRepo;
  private readonly runner: CronRunner;
  private readonly deliverer: CronDeliverer;
  private readonly logger: Logger;
  private readonly configJobs: readonly CronJobConfig[];
  private readonly now: () => Date;
  private readonly rescanMs: number;
  private readonly maxRunMs: number;
  private readonly armed = new Map<string, Armed>();
  private readonly fingerprints = new Map<string, string>();
  /** Runs in progress in this process, by job id (overlap prevention); set before the claim is awaited. */
  private readonly running = new Map<string, Running>();
  /** Bookkeeping writes that are not runs (skipped slots, refused overlaps), awaited by idle(). */
  private readonly pending = new Set<Promise<CronRunResult>>();
  /** Reloads run one after the other: each applies a complete read of the jobs table. */
  private reloading: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private started = false;

  constructor(deps: CronSchedulerDeps) {
    validateCronJobs(deps.jobs);
    this.repo = deps.repo;
    this.runner = deps.runner;
    this.deliverer = deps.deliverer;
    this.logger = deps.logger;
    this.configJobs = deps.jobs;
    this.now = deps.now ?? (() => new Date());
    this.rescanMs = deps.rescanMs ?? DEFAULT_RESCAN_MS;
    this.maxRunMs = deps.maxRunMs ?? DEFAULT_MAX_RUN_MS;
  }

  /**
   * Syncs config jobs into the store, catches up missed runs (DESIGN §4b), and arms the timer.
   * Resolves once catch-up runs have been started (not finished) and skipped slots recorded.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      const at = this.now().getTime();
      await this.sync();
      await this.repo.closeInterrupted(at - this.maxRunMs, at);
      if (!this.started) return;
      await this.reload(true);
    } catch (error) {
      this.started = false;
      throw error;
    }
    if (!this.started) return; // stopped while starting
    this.arm();
    this.rescanTimer = setInterval(() => void this.refresh(), this.rescanMs);
    this.rescanTimer.unref();
  }

  /** Writes the config file's jobs into the store (start() does this; `cron run` without a gateway needs it too). */
  async sync(): Promise<void> {
    const sync = await this.repo.syncConfig(this.configJobs, this.now().getTime());
    for (const id of sync.replacedChatJobs) this.logger.warn('cron', `job '${id}' from the config file replaces a chat job with the same id`);
    if (sync.removed.length) this.logger.info('cron', `removed jobs no longer in the config file: ${sync.removed.join(', ')}`);
  }

  /**
   * Stops the timers; running runs get `graceMs` to finish, then are aborted. Resolves when no run
   * of this scheduler is in progress.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    clearInterval(this.rescanTimer);
    this.timer = undefined;
    this.rescanTimer = undefined;
    await this.reloading;
    if (!this.running.size && !this.pending.size) return;
    await this.settle(graceMs);
    for (const r of this.running.values()) r.abort.abort(new Error('the gateway is shutting down'));
    // A runner that ignores its signal must not hold the shutdown hostage.
    await this.settle(ABORT_WAIT_MS);
  }

  /** Waits until no run is in progress, or `ms` passed. */
  private async settle(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([this.idle(), timeout]);
    clearTimeout(timer);
  }

  /**
   * Runs a job now, outside its schedule (`cron run`), and delivers its answer unless [SILENT].
   * Throws UsageError for an unknown id. A job already running is not started again. Works without
   * start() (config jobs are synced first), as `switchboard cron run` needs.
   */
  async runNow(id: string): Promise<CronRunResult> {
    if (!this.started) await this.sync();
    const job = await this.repo.get(id);
    if (!job) throw new UsageError(`unknown cron job '${id}'`);
    return this.execute(job, this.now().getTime());
  }

  /**
   * Picks up jobs created, changed or removed from chat at once (otherwise within `rescanMs`).
   * Never rejects: a store that cannot be read is logged and the jobs armed so far stay armed.
   */
  async refresh(): Promise<void> {
    if (!this.started) return;
    try {
      await this.reload(false);
    } catch (error) {
      this.logger.error('cron', `cannot read cron jobs: ${oneLine(error)}`);
    }
    this.arm();
  }

  /** Next slot of each armed job (epoch ms), for status displays and tests. */
  nextRuns(): Map<string, number | null> {
    return new Map([...this.armed].map(([id, a]) => [id, a.next]));
  }

  /** Resolves when every run in progress (and every skipped slot being recorded) has finished. */
  async idle(): Promise<void> {
    while (this.running.size || this.pending.size) {
      await Promise.allSettled([...[...this.running.values()].map((r) => r.promise), ...this.pending]);
    }
  }

  /**
   * Fires every job whose next slot is due at `now()`. Called by the timer; tests with a fake
   * clock call it directly. Synchronous on purpose: the slots are taken from the armed jobs and each
   * run is registered before anything is awaited, so two ticks can never fire one slot or overlap
   * one job. Returns the outcome of each slot fired (a run, or a late slot recorded as skipped);
   * these promises never reject.
   */
  tick(): Promise<CronRunResult>[] {
    const now = this.now().getTime();
    const started: Promise<CronRunResult>[] = [];
    for (const a of this.armed.values()) {
      if (a.next === null || a.next > now) continue;
      // The latest slot that is due: a backlog (a blocked process) collapses into that one.
      const due = a.schedule.previous(new Date(now), new Date(a.next))?.getTime() ?? a.next;
      a.next = a.schedule.next(new Date(due))?.getTime() ?? null;
      try {
        started.push(this.fire(a, due, now));
      } catch (error) {
        // Nothing here may take the gateway down; the slot is lost, not doubled.
        this.logger.error('cron', `job '${a.job.id}': cannot fire the run of ${new Date(due).toISOString()}: ${oneLine(error)}`);
      }
    }
    return started;
  }

  /** Re-reads the jobs table (after any reload still running); `atStart` also applies the catch-up rule to each job. */
  private reload(atStart: boolean): Promise<void> {
    const next = this.reloading.then(() => this.reloadNow(atStart));
    this.reloading = next.catch(() => undefined);
    return next;
  }

  private async reloadNow(atStart: boolean): Promise<void> {
    const jobs = await this.repo.list();
    // From here on nothing is awaited: the table read above is applied in one go, with the time taken
    // after it (a slot a tick fired meanwhile lies before `now`, so no job is re-armed for it).
    const now = this.now();
    const catchUps: Promise<CronRunResult>[] = [];
    const seen = new Set<string>();
    for (const job of jobs) {
      seen.add(job.id);
      const print = fingerprint(job);
      const current = this.armed.get(job.id);
      if (current && this.fingerprints.get(job.id) === print) {
        current.job = job;
        continue;
      }
      this.fingerprints.set(job.id, print);
      if (job.paused) {
        this.armed.delete(job.id);
        continue;
      }
      let schedule: CronSchedule;
      try {
        schedule = new CronSchedule(job.schedule, job.timezone, job.id);
      } catch (error) {
        this.armed.delete(job.id);
        this.logger.error('cron', `${oneLine(error)}; the job is not scheduled`);
        continue;
      }
      const armed: Armed = { job, schedule, next: schedule.next(now)?.getTime() ?? null };
      this.armed.set(job.id, armed);
      if (atStart) {
        try {
          const run = this.catchUp(armed, now.getTime());
          if (run) catchUps.push(run);
        } catch (error) {
          this.logger.error('cron', `job '${job.id}': cannot catch up a missed run: ${oneLine(error)}`);
        }
      }
    }
    for (const id of [...this.armed.keys()]) if (!seen.has(id)) this.armed.delete(id);
    for (const id of [...this.fingerprints.keys()]) if (!seen.has(id)) this.fingerprints.delete(id);
    // Skipped slots are recorded before start() resolves; runs are only started.
    await Promise.all(catchUps.filter((p) => this.pending.has(p)));
  }

  /**
   * A slot missed while the gateway was down (after the job's watermark, or its creation) runs once
   * now if it is late by no more than half its period (2 min – 2 h); otherwise it is skipped and
   * logged. Only the latest missed slot is considered: a backlog collapses into one run.
   */
  private catchUp(a: Armed, now: number): Promise<CronRunResult> | undefined {
    const floor = Math.max(a.job.lastSlot ?? -Infinity, a.job.createdAt) + 1;
    const missed = a.schedule.previous(new Date(now), new Date(floor));
    if (!missed) return undefined;
    return this.fire(a, missed.getTime(), now);
  }

  /** Applies the late-run window, then claims and runs the slot (or records it as skipped). */
  private fire(a: Armed, slot: number, now: number): Promise<CronRunResult> {
    const late = now - slot;
    const window = lateWindowMs(a.schedule.periodAfter(new Date(slot)));
    if (late > window) {
      const detail = `missed run of ${new Date(slot).toISOString()} skipped: ${Math.round(late / 1000)} s late (window ${Math.round(window / 1000)} s)`;
      return this.track(this.recordSkip(a.job.id, slot, now, detail));
    }
    return this.execute(a.job, slot);
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
  private execute(job: CronJob, slot: number): Promise<CronRunResult> {
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
      answer = (await this.runner(job, new Date(slot), signal)).answer;
      const text = answer.trim();
      if (text === SILENT) {
        status = 'silent';
        detail = 'nothing to report ([SILENT])';
      } else if (!text) {
        status = 'error';
        detail = 'the model returned an empty answer';
      } else {
        await this.deliverer(job, answer, recorded);
        status = 'ok';
        detail = shortResult(text);
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

  /** Arms one timer for the earliest next slot of all jobs. */
  private arm(): void {
    if (!this.started) return;
    clearTimeout(this.timer);
    let earliest = Infinity;
    for (const a of this.armed.values()) if (a.next !== null && a.next < earliest) earliest = a.next;
    if (earliest === Infinity) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, earliest - this.now().getTime()));
    this.timer = setTimeout(() => {
      this.tick();
      this.arm();
    }, delay);
  }
}
