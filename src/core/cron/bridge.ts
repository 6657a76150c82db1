/**
 * The core's side of the cron seams (types.ts): running a job's turn on platform `cron` and putting
 * its report into the outbox. The scheduler decides when and whether; this decides how.
 */
import type { Agent } from '../agent.js';
import type { Store } from '../store/types.js';
import type { Settings } from '../settings.js';
import type { DeliveryService } from '../delivery.js';
import type { Replies } from '../gateway/replies.js';
import type { Logger } from '../logger.js';
import { personKey } from '../identity.js';
import { cronSessionAddress, formatAddress, formatSessionKey } from '../../platform/address.js';
import type { CronDeliverer, CronJob, CronRunner } from './types.js';
import { looksLikeOnlyAQuestion, NO_QUESTION_RETRY_INSTRUCTION } from './question.js';
import { reportSubject } from './format.js';
import { CronScheduler } from './scheduler.js';
import { TurnFiles } from '../outbound-files.js';
import type { CronRunLeases } from './slot-runs.js';

/** Whose memory a job's run sees: the chat owner, else the person the report goes to. */
export function cronPerson(settings: Settings, job: CronJob): string {
  if (job.owner) return job.owner;
  return personKey(settings.config, job.deliver.platform, job.deliver.chatId);
}

export interface CronBridgeDeps {
  agent: Pick<Agent, 'turn' | 'commit'>;
  store: Store;
  settings: Settings;
  /** Renders a report, stores it in the outbox and starts its delivery once stored. */
  replies: Pick<Replies, 'send'>;
  /** Tells when a stored report was sent or given up on. */
  delivery: Pick<DeliveryService, 'waitFor'>;
  now?: () => Date;
}

/**
 * Runs a job on platform `cron`: session `cron:<id>`, the job prompt as the ephemeral tail, no tool
 * that waits for a human. An answer that is only a question gets one retry with an instruction to
 * produce the report. The turn is stored like any other (its prompt prefix is shared with every run).
 */
export function createCronRunner(deps: CronBridgeDeps): CronRunner {
  const now = deps.now ?? (() => new Date());
  return async (job, slot, signal) => {
    const person = cronPerson(deps.settings, job);
    const userContent = `Scheduled run of job ${job.id} (${slot.toISOString()}).`;
    const tail = `Scheduled task of job ${job.id}, to be delivered to ${formatAddress(job.deliver)}:\n${job.prompt}`;
    const session = cronSessionAddress(job.id);
    // send_file in a cron run sends to the job's target, with its report (ARCHITECTURE.md §15).
    const files = new TurnFiles(deps.store.media);
    const input = {
      attach: files.attach,
      session,
      sessionKey: formatSessionKey(session),
      personKey: person,
      // A cron session has no `chats:` entry: those name chats a reply can go to, never `cron:`.
      chat: undefined,
      userContent,
      tail,
      replyAddress: job.deliver,
      signal,
      unattended: true,
    };
    let result = await deps.agent.turn(input);
    if (looksLikeOnlyAQuestion(result.answer)) {
      result = await deps.agent.turn({ ...input, tail: `${tail}\n\n${NO_QUESTION_RETRY_INSTRUCTION}` });
    }
    const at = now().getTime();
    await deps.store.transaction((tx) => deps.agent.commit(tx, result, person, at, files.refs));
    return { answer: result.answer, ...(files.refs.length ? { files: files.refs } : {}) };
  };
}

/**
 * Renders a report for its target and stores it in the outbox (delivery starts once it is stored).
 * `onQueued` learns the outbox id (`cron run` waits for it). A report the platform refuses for good
 * marks the job's last result as a delivery failure, after the scheduler has recorded the run.
 */
export function createCronDeliverer(deps: CronBridgeDeps, onQueued?: (jobId: string, outboxId: number) => void): CronDeliverer {
  const now = deps.now ?? (() => new Date());
  return async (job, answer, recorded, files) => {
    const target = job.deliver;
    const extra = {
      ...(target.platform === 'email' ? { subject: reportSubject(answer, job.id, now(), job.timezone) } : {}),
      ...(files?.length ? { files } : {}),
    };
    const id = await deps.replies.send(target, answer, formatSessionKey(cronSessionAddress(job.id)), extra);
    if (id === null) return; // nothing visible to send
    onQueued?.(job.id, id);
    void Promise.all([deps.delivery.waitFor(id), recorded])
      .then(async ([sent]) => {
        if (sent) return;
        const reason = (await deps.store.outbox.get(id))?.lastError ?? 'unknown error';
        await deps.store.cron.deliveryFailed(job.id, `delivery failed: ${reason}`);
      })
      // The store may be closed by then (shutdown); the outbox row keeps the reason anyway.
      .catch(() => undefined);
  };
}

/** The scheduler with the core's runner and deliverer (the gateway's, and `cron run`'s with `onQueued`). */
export function createCronScheduler(
  deps: CronBridgeDeps & { logger: Logger; leases?: CronRunLeases & { readonly ttlMs: number } },
  onQueued?: (jobId: string, outboxId: number) => void,
): CronScheduler {
  return new CronScheduler({
    repo: deps.store.cron,
    runner: createCronRunner(deps),
    deliverer: createCronDeliverer(deps, onQueued),
    logger: deps.logger,
    jobs: deps.settings.config.cron,
    now: deps.now,
    leases: deps.leases,
  });
}
