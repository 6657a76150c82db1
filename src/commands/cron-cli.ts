import { CommandLineError, parseCommandLine, type CommandIO } from './io.js';
import { ensureHome, loadSettings } from '../core/settings.js';
import { createLogger } from '../core/logger.js';
import { formatAddress } from '../platform/address.js';
import type { App } from '../app.js';
import { openApp, openData } from '../app-open.js';
import { validateCronJobs } from '../core/cron/scheduler.js';
import { cronMistake, run as runCronCommand, usage } from './cron.js';

export { usage };

/** `cron run` keeps trying a temporary delivery failure for about this long (ARCHITECTURE.md §4b: ≥ 3 tries in ~30 s). */
const DELIVERY_WINDOW_MS = 30_000;
const RETRY_STEPS_MS = [1000, 2000, 4000, 8000, 8000, 8000];
const STATUS_POLL_MS = 250;

/**
 * Resolves true when the outbox item is sent, false when it failed for good, 'pending' after the
 * window. Also watches the row itself: a gateway sharing the database may have sent it.
 */
async function settled(app: App, outboxId: number): Promise<boolean | 'pending'> {
  // Not unref'd: while delivery retries wait on (unref'd) timers, these keep the command alive.
  let window: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;
  let looking = false;
  try {
    return await Promise.race([
      app.delivery.waitFor(outboxId),
      new Promise<'pending'>((resolve) => {
        window = setTimeout(() => resolve('pending'), DELIVERY_WINDOW_MS);
      }),
      new Promise<boolean>((resolve) => {
        poll = setInterval(() => {
          if (looking) return;
          looking = true;
          app.store.outbox
            .get(outboxId)
            .then((item) => {
              if (item && item.status !== 'pending') resolve(item.status === 'sent');
            })
            .catch(() => undefined)
            .finally(() => (looking = false));
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
  // A mistake on the line (an unknown option or action) is told before any config is read.
  const args = parseCommandLine('cron', usage, { args: argv, options: {}, allowPositionals: true, strict: true }).positionals;
  const mistake = cronMistake(args);
  if (mistake) throw new CommandLineError('cron', mistake, usage);
  // A bad config (schedule, zone, a `deliver` that is no deliverable address) throws one ConfigError
  // line here, before any store, model client or adapter exists.
  const settings = loadSettings(io.env);
  const logger = createLogger({ secrets: settings.secrets });
  if (args[0] !== 'run') {
    // `list` only reads; an empty home still lists the config jobs (and is not created).
    const store = await openData(settings, { mode: 'read' });
    try {
      return await runCronCommand(args, io, { settings, store, runJobNow: () => Promise.reject(new Error('not available')) });
    } finally {
      await store.close();
    }
  }
  // A bad schedule or zone is one line before anything is opened.
  validateCronJobs(settings.config.cron);
  ensureHome(settings.home);
  // The app is never started (its scheduler only runs this job now); it reports the outbox id of each report.
  const queued = new Map<string, number>();
  const app = await openApp(settings, {
    logger,
    cwd: io.cwd,
    doors: 'send',
    outbox: { backoffMs: (attempt) => RETRY_STEPS_MS[Math.min(attempt - 1, RETRY_STEPS_MS.length - 1)] },
    onCronQueued: (jobId, id) => queued.set(jobId, id),
  });
  try {
    return await runCronCommand(args, io, {
      settings,
      store: app.store,
      runJobNow: async (id) => {
        app.delivery.start();
        // The run holds its lease through this process's heartbeat, so a gateway starting meanwhile never closes it.
        await app.presence.start();
        const result = await app.scheduler.runNow(id);
        if (result.status === 'silent') return { delivered: true, detail: 'the report was [SILENT]: nothing to deliver' };
        if (result.status !== 'ok') return { delivered: false, detail: result.detail };
        const outboxId = queued.get(id);
        if (outboxId === undefined) return { delivered: true, detail: result.detail };
        const target = (await app.store.outbox.get(outboxId))?.target;
        if (target && !app.adapter(target.platform)) {
          return {
            delivered: false,
            detail: `not delivered: ${target.platform} is not configured here (its credentials are not set); kept in the outbox for a gateway that runs ${target.platform}`,
          };
        }
        const sent = await settled(app, outboxId);
        const item = await app.store.outbox.get(outboxId);
        if (sent === true) {
          const job = await app.store.cron.get(id);
          return { delivered: true, detail: `delivered to ${job ? formatAddress(job.deliver) : 'its target'}` };
        }
        if (sent === 'pending')
          return {
            delivered: false,
            detail: `not delivered yet (${item?.lastError ?? (item?.attempts === 0 ? 'queued behind an earlier undelivered reply to the same address' : 'no answer')}); kept in the outbox, the gateway retries it`,
          };
        const detail = `delivery failed: ${item?.lastError ?? 'unknown error'}`;
        // Recorded here too: the bridge's own note may come after this command has closed the store.
        await app.store.cron.deliveryFailed(id, detail);
        return { delivered: false, detail };
      },
    });
  } finally {
    // The doors hold sockets (the SMTP pool, SDK clients): without closing them the command would not exit.
    await app.close();
  }
}
