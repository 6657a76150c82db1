/**
 * The cron scheduler: fires each job once per scheduled slot and hands the run to the core.
 *
 * Why its own timer loop rather than a cron library's tasks (node-cron's, croner's): they arm timers
 * from the real clock and persist nothing (node-cron reports a late beat as "missed" rather than
 * running it), so exactly-once across restarts and catch-up would need a second bookkeeping anyway.
 * Here one timer is armed for the earliest *computed* slot (croner computes them, see schedule.ts);
 * when it fires the due slot is derived from the slot sequence, never from "now + delay", so a
 * timer that fires a few ms early is re-armed and one that fires late still runs the slot it was
 * for — no second is skipped or doubled by drift. Each slot is claimed in the store before it runs
 * (`CronRepo.claim`, UNIQUE(job_id, slot)), so a restart, a doubled timer or a second process cannot
 * run it twice. Claims are asynchronous: a run is registered in `running` before the claim's first
 * await, so a second fire of the same job in this process sees it as busy, never as free.
 */
import { oneLine, UsageError } from '../errors.js';
import type { CronJobConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { CronRepo } from '../store/types.js';
import { formatAddress } from '../../platform/address.js';
import { CronSchedule, lateWindowMs, validateJobSchedule } from './schedule.js';
import { SlotRuns, type CronRunLeases } from './slot-runs.js';
import type { CronDeliverer, CronJob, CronRunner, CronRunResult } from './types.js';

export { SILENT, shortResult } from './slot-runs.js';
/** Longest a timer is armed for: keeps setTimeout in range and notices wall-clock jumps. */
const MAX_TIMER_MS = 60 * 60 * 1000;
const DEFAULT_RESCAN_MS = 5000;
const DEFAULT_MAX_RUN_MS = 30 * 60 * 1000;
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
  /**
   * Run leases (many instances): with them, a run another instance still renews is never closed at
   * start, and one left by a dead instance is closed once its lease expired (`leaseTtlMs`).
   */
  leases?: CronRunLeases & { readonly ttlMs: number };
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


function fingerprint(job: CronJob): string {
  return [job.schedule, job.timezone ?? '', job.paused ? 'p' : '', job.prompt, formatAddress(job.deliver)].join('\u0000');
}


export class CronScheduler {
  private readonly repo: CronRepo;
  private readonly logger: Logger;
  private readonly configJobs: readonly CronJobConfig[];
  private readonly now: () => Date;
  private readonly rescanMs: number;
  private readonly maxRunMs: number;
  private readonly leases: (CronRunLeases & { readonly ttlMs: number }) | undefined;
  private readonly armed = new Map<string, Armed>();
  private readonly fingerprints = new Map<string, string>();
  /** Runs in progress in this process, by job id (overlap prevention); set before the claim is awaited. */
  private readonly runs: SlotRuns;
  /** Reloads run one after the other: each applies a complete read of the jobs table. */
  private reloading: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  private started = false;

  constructor(deps: CronSchedulerDeps) {
    validateCronJobs(deps.jobs);
    this.repo = deps.repo;
    this.logger = deps.logger;
    this.configJobs = deps.jobs;
    this.now = deps.now ?? (() => new Date());
    this.rescanMs = deps.rescanMs ?? DEFAULT_RESCAN_MS;
    this.maxRunMs = deps.maxRunMs ?? DEFAULT_MAX_RUN_MS;
    this.leases = deps.leases;
    this.runs = new SlotRuns({ repo: this.repo, runner: deps.runner, deliverer: deps.deliverer, logger: this.logger, now: this.now, maxRunMs: this.maxRunMs, leases: deps.leases });
  }

  /**
   * Syncs config jobs into the store, catches up missed runs (ARCHITECTURE.md §4b), and arms the timer.
   * Resolves once catch-up runs have been started (not finished) and skipped slots recorded.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      const at = this.now().getTime();
      await this.sync();
      // Without leases only runs older than the longest a run may take; with them, any run whose
      // lease is not renewed (its instance died) once the lease had time to be taken.
      await this.repo.closeInterrupted(at - (this.leases ? Math.min(this.leases.ttlMs, this.maxRunMs) : this.maxRunMs), at);
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
    if (!this.runs.busy) return;
    await this.settle(graceMs);
    this.runs.abortAll(new Error('the gateway is shutting down'));
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
    return this.runs.execute(job, this.now().getTime());
  }

  /**
   * Picks up jobs created, changed or removed from chat at once (otherwise within `rescanMs`).
   * Never rejects: a store that cannot be read is logged and the jobs armed so far stay armed.
   */
  async refresh(): Promise<void> {
    if (!this.started) return;
    try {
      await this.reload(false);
      // A run whose instance died (its lease not renewed) is closed now, not at the next start.
      if (this.leases) {
        const at = this.now().getTime();
        const closed = await this.repo.closeInterrupted(at - this.leases.ttlMs, at);
        if (closed) this.logger.warn('cron', `${closed} run(s) of an instance that stopped answering marked interrupted`);
      }
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
  idle(): Promise<void> {
    return this.runs.idle();
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
    await Promise.all(catchUps.filter((p) => this.runs.isBookkeeping(p)));
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
      return this.runs.skip(a.job.id, slot, now, detail);
    }
    return this.runs.execute(a.job, slot);
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
