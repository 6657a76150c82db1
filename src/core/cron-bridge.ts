import type { Agent } from './agent.js';
import type { Store } from './store/store.js';
import type { Settings } from './settings.js';
import type { DeliveryService } from './delivery.js';
import type { Renderer } from './gateway.js';
import type { DeliveryTarget } from './types.js';
import { isPlatformId } from '../platform/ids.js';
import { cronSessionKey, personKey } from './identity.js';
import { ConfigError } from './errors.js';
import { chatKey } from './store/outbox.js';
import type { CronDeliverer, CronJob, CronRunner } from './cron/types.js';
import { looksLikeOnlyAQuestion, NO_QUESTION_RETRY_INSTRUCTION } from './cron/question.js';
import { reportSubject } from './cron/format.js';
import { CronScheduler } from './cron/scheduler.js';
import { CronRepo } from './cron/repo.js';
import type { Logger } from './logger.js';

/** `email:alice@example.com`, `telegram:-100123`, `telegram:-100123:42` (forum topic), `slack:C123`. */
export function parseDeliverAddress(address: string): DeliveryTarget {
  const i = address.indexOf(':');
  const platform = i > 0 ? address.slice(0, i) : '';
  const rest = i > 0 ? address.slice(i + 1) : '';
  if (!isPlatformId(platform) || platform === 'cron' || !rest) throw new ConfigError(`cannot deliver to '${address}': expected <platform>:<id>`);
  if (platform === 'email') return { platform, chatId: rest };
  const [chatId, threadId] = rest.split(':');
  return threadId ? { platform, chatId, threadId } : { platform, chatId };
}

/** Whose memory a job's run sees: the chat owner, else the person the report goes to. */
export function cronPerson(settings: Settings, job: CronJob): string {
  if (job.owner) return job.owner;
  const target = parseDeliverAddress(job.deliver);
  return personKey(settings.config, target.platform, target.chatId);
}

export interface CronBridgeDeps {
  agent: Agent;
  store: Store;
  settings: Settings;
  delivery: DeliveryService;
  render: Renderer;
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
    const tail = `Scheduled task of job ${job.id}, to be delivered to ${job.deliver}:\n${job.prompt}`;
    const input = {
      sessionKey: cronSessionKey(job.id),
      platform: 'cron' as const,
      personKey: person,
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
    deps.store.transaction(() => deps.agent.commit(result, person, at));
    return { answer: result.answer };
  };
}

/**
 * Renders a report for its target and puts it into the outbox. `onQueued` learns the outbox id
 * (`cron run` waits for it).
 */
export function createCronDeliverer(deps: CronBridgeDeps, onQueued?: (jobId: string, outboxId: number) => void): CronDeliverer {
  const now = deps.now ?? (() => new Date());
  return async (job, answer) => {
    const target = parseDeliverAddress(job.deliver);
    const message = deps.render(target.platform, answer);
    if (target.platform === 'email') message.subject = reportSubject(answer, job.id, now(), job.timezone);
    if (!message.chunks.length) return;
    const id = deps.delivery.enqueue(target, message, cronSessionKey(job.id));
    onQueued?.(job.id, id);
    void deps.delivery.waitFor(id).then((sent) => {
      if (sent) return;
      const reason = deps.store.outbox.get(id)?.lastError ?? 'unknown error';
      // After the scheduler has recorded the run (it does so as soon as this deliverer returns).
      setImmediate(() => {
        try {
          new CronRepo(deps.store.db).deliveryFailed(job.id, `delivery failed: ${reason}`);
        } catch {
          // The store may be closed by then (shutdown); the outbox row keeps the reason anyway.
        }
      });
    });
    deps.delivery.kick(chatKey(target));
  };
}

/** The scheduler with the core's runner and deliverer (the gateway's, and `cron run`'s with `onQueued`). */
export function createCronScheduler(
  deps: CronBridgeDeps & { logger: Logger; repo: CronRepo },
  onQueued?: (jobId: string, outboxId: number) => void,
): CronScheduler {
  return new CronScheduler({
    repo: deps.repo,
    runner: createCronRunner(deps),
    deliverer: createCronDeliverer(deps, onQueued),
    logger: deps.logger,
    jobs: deps.settings.config.cron,
  });
}
