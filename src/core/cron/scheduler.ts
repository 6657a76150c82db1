/**
 * The cron scheduler: fires each job once per scheduled slot and hands the run to the core.
 *
 * Why its own timer loop rather than node-cron tasks: node-cron's runner arms a timer from the real
 * clock, persists nothing and, when a beat is late, reports the slot as "missed" rather than running
 * it, so exactly-once across restarts and catch-up would need a second bookkeeping anyway. Here one
 * timer is armed for the earliest *computed* slot (node-cron decides what matches, see schedule.ts);
 * when it fires the due slot is derived from the slot sequence, never from "now + delay", so a
 * timer that fires a few ms early is re-armed and one that fires late still runs the slot it was
 * for — no second is skipped or doubled by drift. Each slot is claimed in SQLite before it runs
 * (UNIQUE(job_id, slot)), so a restart, a doubled timer or a second process cannot run it twice.
 */
import { oneLine, SwitchboardError, UsageError } from '../errors.js';
import type { CronJobConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { CronRepo } from './repo.js';
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
  repo: CronRepo;
  runner: CronRunner;
  deliverer: CronDeliverer;
  logger: Logger;
  /** Jobs from the config file; synced into SQLite at start (validated, ConfigError naming the job). */
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
  return [job.schedule, job.timezone ?? '', job.paused ? 'p' : '', job.prompt, job.deliver].join('\u0000');
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
  /** Runs in progress in this process, by job id (overlap prevention). */
  private readonly running = new Map<string, { promise: Promise<CronRunResult>; abort: AbortController }>();
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
   * Syncs config jobs into SQLite, catches up missed runs (DESIGN §4b), and arms the timer.
   * Resolves once catch-up runs have been started (not finished).
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const at = this.now().getTime();
    this.sync();
    this.repo.closeInterrupted(at - this.maxRunMs, at);
    this.reload(true);
    this.arm();
    this.rescanTimer = setInterval(() => {
      try {
        this.reload(false);
      } catch (error) {
        this.logger.error('cron', `cannot read cron jobs: ${oneLine(error)}`);
      }
      this.arm();
    }, this.rescanMs);
    this.rescanTimer.unref();
  }

  /** Writes the config file's jobs into SQLite (start() does this; `cron run` without a gateway needs it too). */
  sync(): void {
    const sync = this.repo.syncConfig(this.configJobs, this.now().getTime());
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
    if (!this.running.size) return;
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
    if (!this.started) this.sync();
    const job = this.repo.get(id);
    if (!job) throw new UsageError(`unknown cron job '${id}'`);
    const slot = this.now().getTime();
    return this.execute(job, slot);
  }

  /** Picks up jobs created, changed or removed from chat at once (otherwise within `rescanMs`). */
  refresh(): void {
    if (!this.started) return;
    this.reload(false);
    this.arm();
  }

  /** Next slot of each armed job (epoch ms), for status displays and tests. */
  nextRuns(): Map<string, number | null> {
    return new Map([...this.armed].map(([id, a]) => [id, a.next]));
  }

  /** Resolves when every run in progress has finished. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()].map((r) => r.promise));
  }

  /**
   * Fires every job whose next slot is due at `now()`. Called by the timer; tests with a fake
   * clock call it directly. Returns the runs started (their promises).
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
        const run = this.fire(a, due, now);
        if (run) started.push(run);
      } catch (error) {
        // A locked or broken database must not take the gateway down; the slot is lost, not doubled.
        this.logger.error('cron', `job '${a.job.id}': cannot claim the run of ${new Date(due).toISOString()}: ${oneLine(error)}`);
      }
    }
    return started;
  }

  /** Re-reads the jobs table; `atStart` also applies the catch-up rule to each job. */
  private reload(atStart: boolean): void {
    const now = this.now();
    const jobs = this.repo.list();
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
          this.catchUp(armed, now.getTime());
        } catch (error) {
          this.logger.error('cron', `job '${job.id}': cannot catch up a missed run: ${oneLine(error)}`);
        }
      }
    }
    for (const id of [...this.armed.keys()]) if (!seen.has(id)) this.armed.delete(id);
    for (const id of [...this.fingerprints.keys()]) if (!seen.has(id)) this.fingerprints.delete(id);
  }

  /**
   * A slot missed while the gateway was down (after the job's watermark, or its creation) runs once
   * now if it is late by no more than half its period (2 min – 2 h); otherwise it is skipped and
   * logged. Only the latest missed slot is considered: a backlog collapses into one run.
   */
  private catchUp(a: Armed, now: number): void {
    const floor = Math.max(a.job.lastSlot ?? -Infinity, a.job.createdAt) + 1;
    const missed = a.schedule.previous(new Date(now), new Date(floor));
    if (!missed) return;
    this.fire(a, missed.getTime(), now);
  }

  /** Applies the late-run window, then claims and runs the slot. */
  private fire(a: Armed, slot: number, now: number): Promise<CronRunResult> | undefined {
    const late = now - slot;
    const window = lateWindowMs(a.schedule.periodAfter(new Date(slot)));
    if (late > window) {
      const detail = `missed run of ${new Date(slot).toISOString()} skipped: ${Math.round(late / 1000)} s late (window ${Math.round(window / 1000)} s)`;
      if (this.repo.skip(a.job.id, slot, now, detail)) this.logger.warn('cron', `job '${a.job.id}': ${detail}`);
      return undefined;
    }
    const run = this.execute(a.job, slot);
    run.catch(() => undefined);
    return run;
  }

  /** Claims the slot, runs the agent, delivers unless [SILENT], and records the outcome. */
  private execute(job: CronJob, slot: number): Promise<CronRunResult> {
    const at = this.now().getTime();
    const claim = this.repo.claim(job.id, slot, at, this.running.has(job.id));
    if (claim.kind === 'taken') return Promise.resolve({ jobId: job.id, slot, status: 'skipped', detail: 'this slot was already claimed' });
    if (claim.kind === 'busy') {
      this.logger.warn('cron', `job '${job.id}': run of ${new Date(slot).toISOString()} not started, the previous run is still going`);
      return Promise.resolve({ jobId: job.id, slot, status: 'skipped', detail: 'the previous run was still going' });
    }
    const abort = new AbortController();
    const limit = setTimeout(() => abort.abort(new Error(`the run took longer than ${Math.round(this.maxRunMs / 1000)} s`)), this.maxRunMs);
    limit.unref();
    const promise = (async () => {
      try {
        const result = await this.perform(job, slot, abort.signal);
        this.repo.finish(claim.runId, job.id, result.status, result.detail, this.now().getTime());
        return result;
      } finally {
        clearTimeout(limit);
        this.running.delete(job.id);
      }
    })();
    // Registered before the first await of the run can yield, so a second fire sees it as busy.
    this.running.set(job.id, { promise, abort });
    return promise;
  }

  private async perform(job: CronJob, slot: number, signal: AbortSignal): Promise<CronRunResult> {
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
        await this.deliverer(job, answer);
        status = 'ok';
        detail = shortResult(text);
      }
    } catch (error) {
      status = 'error';
      detail = error instanceof SwitchboardError || error instanceof Error ? oneLine(error) : String(error);
      this.logger.error('cron', `job '${job.id}': ${detail}`);
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
