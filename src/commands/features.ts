import type { Settings } from '../core/settings.js';
import type { Logger } from '../core/logger.js';
import type { Runtime } from '../core/runtime.js';
import type { Tool } from '../core/tools/types.js';
import type { SessionMaintainer } from '../core/agent.js';
import { CronScheduler } from '../core/cron/scheduler.js';
import { CronRepo } from '../core/cron/repo.js';
import { createCronTool } from '../core/tools/cron.js';
import { createCronDeliverer, createCronRunner } from '../core/cron-bridge.js';
import { oneLine } from '../core/errors.js';

/** Features layered on the spine: extra tools, session maintenance, the cron scheduler. */
export interface Features {
  tools: Tool[];
  maintainSession?: SessionMaintainer;
  startScheduler(runtime: Runtime): void;
  stopScheduler(graceMs?: number): Promise<void>;
  jobCount(): number;
}

export function createFeatures(settings: Settings, logger: Logger): Features {
  let scheduler: CronScheduler | null = null;
  const cronTool = createCronTool({ onChange: () => scheduler?.refresh() });
  return {
    tools: [cronTool],
    startScheduler(runtime: Runtime) {
      const bridge = { agent: runtime.agent, store: runtime.store, settings, delivery: runtime.delivery, render: runtime.render };
      scheduler = new CronScheduler({
        repo: new CronRepo(runtime.store.db),
        runner: createCronRunner(bridge),
        deliverer: createCronDeliverer(bridge),
        logger,
        jobs: settings.config.cron,
      });
      scheduler.start().catch((error: unknown) => logger.error('cron', `scheduler failed to start: ${oneLine(error)}`));
    },
    async stopScheduler(graceMs = 0) {
      await scheduler?.stop(graceMs);
    },
    jobCount: () => (scheduler ? scheduler.nextRuns().size : settings.config.cron.length),
  };
}
