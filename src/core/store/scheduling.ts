/** Scheduled jobs in the store (ARCHITECTURE.md §7b, §9): jobs, their slots claimed once, and the run log. */
import type { DeliverableAddress } from '../../platform/address.js';
import type { CronJob, CronRunStatus } from '../cron/types.js';
import type { CronJobConfig } from '../config.js';

// ── cron ────────────────────────────────────────────────────────────────────────────────────

/** One row of the run log. `status` is 'running' until the run finishes. */
export interface CronRunRecord {
  id: number;
  jobId: string;
  slot: number;
  startedAt: number;
  finishedAt: number | null;
  status: CronRunStatus | 'running';
  detail: string | null;
}

/** Result of trying to claim a slot: ours to run, already claimed, or refused because the job still runs. */
export type ClaimOutcome = { kind: 'claimed'; runId: number } | { kind: 'taken' } | { kind: 'busy' };

export interface NewChatJob {
  id: string;
  owner: string;
  schedule: string;
  timezone: string | null;
  prompt: string;
  deliver: DeliverableAddress;
}

export interface CronRepo {
  list(): Promise<CronJob[]>;
  get(id: string): Promise<CronJob | undefined>;
  listByOwner(owner: string): Promise<CronJob[]>;
  /**
   * Makes the config rows match the config file (insert, update keeping history, delete); chat
   * jobs untouched except one whose id the config now claims (`replacedChatJobs`).
   */
  syncConfig(jobs: readonly CronJobConfig[], at: number): Promise<{ added: string[]; removed: string[]; replacedChatJobs: string[] }>;
  insertChatJob(job: NewChatJob, at: number): Promise<CronJob>;
  /**
   * Resuming moves the watermark to `at`, so slots passed while paused are not caught up. A pause
   * outlives `syncConfig` (the console's pause of a config job survives a restart); the config's
   * `enabled: false` still pauses a job whatever was set here.
   */
  setPaused(id: string, paused: boolean, at: number): Promise<void>;
  remove(id: string): Promise<boolean>;
  /** Claims a slot once across every scheduler on this database (the exactly-once guarantee). */
  claim(jobId: string, slot: number, at: number, busy: boolean): Promise<ClaimOutcome>;
  /** Records a missed slot not run (too late); true when this call recorded it. */
  skip(jobId: string, slot: number, at: number, detail: string): Promise<boolean>;
  /** Moves the watermark forward (never back). */
  advance(jobId: string, slot: number): Promise<void>;
  finish(runId: number, jobId: string, status: CronRunStatus, detail: string, at: number): Promise<void>;
  /** A run's report could not be delivered: the job's last result says so. */
  deliveryFailed(jobId: string, detail: string): Promise<void>;
  /**
   * Runs left 'running' by a process that stopped mid-run (started before `before`) are marked as
   * errors — except a run whose lease `cron-run:<id>` is still held at `at` (another instance is
   * running it).
   */
  closeInterrupted(before: number, at: number): Promise<number>;
  runs(jobId: string, limit?: number): Promise<CronRunRecord[]>;
}
