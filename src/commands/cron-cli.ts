import { existsSync } from 'node:fs';
import type { CommandIO } from './io.js';
import { loadSettings } from '../core/settings.js';
import { createLogger } from '../core/logger.js';
import { openStore, storePath } from '../core/store/store.js';
import { createRuntime, type Runtime } from '../core/runtime.js';
import { createAdapters } from '../adapters/registry.js';
import { validateCronJobs } from '../core/cron/scheduler.js';
import { CronRepo } from '../core/cron/repo.js';
import { createCronScheduler } from '../core/cron-bridge.js';
import { run as runCronCommand } from './cron.js';
import { createFeatures } from './features.js';

/** `cron run` keeps trying a temporary delivery failure for about this long (DESIGN §4b: ≥ 3 tries in ~30 s). */
const DELIVERY_WINDOW_MS = 30_000;
const RETRY_STEPS_MS = [1000, 2000, 4000, 8000, 8000, 8000];
const STATUS_POLL_MS = 250;

/**
 * Resolves true when the outbox item is sent, false when it failed for good, 'pending' after the
 * window. Also watches the row itself: a gateway sharing the database may have sent it.
 */
async function settled(runtime: Runtime, outboxId: number): Promise<boolean | 'pending'> {
  // Not unref'd: while delivery retries wait on (unref'd) timers, these keep the command alive.
  let window: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      runtime.delivery.waitFor(outboxId),
      new Promise<'pending'>((resolve) => {
        window = setTimeout(() => resolve('pending'), DELIVERY_WINDOW_MS);
      }),
      new Promise<boolean>((resolve) => {
        poll = setInterval(() => {
          const status = runtime.store.outbox.get(outboxId)?.status;
          if (status && status !== 'pending') resolve(status === 'sent');
        }, STATUS_POLL_MS);
      }),
    ]);
  } finally {
    clearTimeout(window);
    clearInterval(poll);
  }
}

/** `switchboard cron list` · `switchboard cron run ID`: wires the store and, for `run`, the agent and delivery. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const settings = loadSettings(io.env);
  const logger = createLogger({ secrets: settings.secrets });
  const path = storePath(settings.home);
  if (argv[0] !== 'run') {
    // `list` only reads; an empty home still lists the config jobs.
    const store = openStore(existsSync(path) ? path : ':memory:');
    try {
      return await runCronCommand(argv, io, { settings, db: store.db, runJobNow: () => Promise.reject(new Error('not available')) });
    } finally {
      store.close();
    }
  }
  // A bad schedule or zone is one line before anything is opened.
  validateCronJobs(settings.config.cron);
  const features = createFeatures(settings, logger);
  const runtime = createRuntime({ settings, logger, cwd: io.cwd, tools: features.tools, maintainSession: features.maintainSession });
  runtime.delivery.setBackoff((attempt) => RETRY_STEPS_MS[Math.min(attempt - 1, RETRY_STEPS_MS.length - 1)]);
  const adapters = await createAdapters(settings, { config: settings.config, logger, home: settings.home });
  for (const a of adapters) runtime.adapters.set(a.platform, a);
  const queued = new Map<string, number>();
  const repo = new CronRepo(runtime.store.db);
  const scheduler = createCronScheduler({ ...runtime, logger, repo }, (jobId, id) => queued.set(jobId, id));
  try {
    return await runCronCommand(argv, io, {
      settings,
      db: runtime.store.db,
      runJobNow: async (id) => {
        runtime.delivery.start();
        const result = await scheduler.runNow(id);
        if (result.status === 'silent') return { delivered: true, detail: 'the report was [SILENT]: nothing to deliver' };
        if (result.status !== 'ok') return { delivered: false, detail: result.detail };
        const outboxId = queued.get(id);
        if (outboxId === undefined) return { delivered: true, detail: result.detail };
        const target = runtime.store.outbox.get(outboxId)?.target;
        if (target && !runtime.adapters.has(target.platform)) {
          return {
            delivered: false,
            detail: `not delivered: ${target.platform} is not configured here (its credentials are not set); kept in the outbox for a gateway that runs ${target.platform}`,
          };
        }
        const sent = await settled(runtime, outboxId);
        const item = runtime.store.outbox.get(outboxId);
        if (sent === true) return { delivered: true, detail: `delivered to ${repo.get(id)?.deliver ?? 'its target'}` };
        if (sent === 'pending')
          return {
            delivered: false,
            detail: `not delivered yet (${item?.lastError ?? (item?.attempts === 0 ? 'queued behind an earlier undelivered reply to the same address' : 'no answer')}); kept in the outbox, the gateway retries it`,
          };
        const detail = `delivery failed: ${item?.lastError ?? 'unknown error'}`;
        // Recorded here too: the bridge's own note may come after this command has closed the store.
        repo.deliveryFailed(id, detail);
        return { delivered: false, detail };
      },
    });
  } finally {
    runtime.delivery.stop();
    await runtime.delivery.idle();
    // Adapters hold sockets (the SMTP pool, SDK clients): without closing them the command would not exit.
    await Promise.allSettled(adapters.map((a) => a.close()));
    runtime.close();
  }
}
