import type { DeliverableAddress } from '../../platform/address.js';
import type { AttachmentRef } from '../types.js';

/**
 * Cron jobs and the seams between the scheduler and the agent core. The scheduler decides *when*
 * a job runs (exactly once per slot) and whether its answer is delivered; running the agent and
 * rendering/storing the answer in the outbox are the core's side, passed in as these functions.
 */

/** How a run ended: delivered, nothing to report ([SILENT]), failed, or not run (missed / overlap). */
export type CronRunStatus = 'ok' | 'silent' | 'error' | 'skipped';

/** Where a job came from: the config file (read-only from chat) or the `cron` tool. */
export type CronJobSource = 'config' | 'chat';

export interface CronJob {
  /** Unique, `[a-z0-9-]+`. The job's session is `cron:<id>`. */
  id: string;
  source: CronJobSource;
  /** Person key of the chat user who created it; null for config jobs. */
  owner: string | null;
  /** node-cron syntax, 5 fields or 6 with a leading seconds field. */
  schedule: string;
  /** IANA zone; null = the server's local time. */
  timezone: string | null;
  prompt: string;
  /** Where the report goes, parsed when the config or the cron tool took it. */
  deliver: DeliverableAddress;
  paused: boolean;
  createdAt: number;
  /**
   * Watermark (epoch ms): every slot at or before it is handled (run, skipped, or before the job
   * existed/was resumed). Catch-up only looks at slots after it.
   */
  lastSlot: number | null;
  lastRunAt: number | null;
  lastStatus: CronRunStatus | null;
  /** Short, one-line result of the last run (report title, error line, skip reason). */
  lastResult: string | null;
}

/**
 * Runs the agent for one slot of a job: platform `cron`, session `cron:<job id>`, the job prompt as
 * the ephemeral tail, no tool that waits for a human. Implemented by the core; it should apply the
 * no-question retry (see `looksLikeOnlyAQuestion`). `signal` aborts on shutdown or run timeout.
 */
export type CronRunner = (job: CronJob, slot: Date, signal: AbortSignal) => Promise<{ answer: string; files?: AttachmentRef[] }>;

/**
 * Renders `answer` for the job's target and stores it in the outbox (core side); resolves once it is
 * stored, not sent. Never called for a `[SILENT]` or empty answer: the scheduler filters those.
 * `recorded` resolves once the scheduler has written the run's outcome, so a delivery failure noted
 * later (`CronRepo.deliveryFailed`) is not overwritten by it.
 */
export type CronDeliverer = (job: CronJob, answer: string, recorded: Promise<void>, files?: AttachmentRef[]) => Promise<void>;

/** Outcome of one run, as recorded in `cron_runs` and the job's last-run columns. */
export interface CronRunResult {
  jobId: string;
  /** The slot run (epoch ms); for a manual run, the time it was started. */
  slot: number;
  status: CronRunStatus;
  /** The agent's answer when one was produced. */
  answer?: string;
  /** One line: report title, error, or why nothing ran. */
  detail: string;
}
