import type { Settings } from '../core/settings.js';
import type { Logger } from '../core/logger.js';
import type { Runtime } from '../core/runtime.js';
import type { Tool } from '../core/tools/types.js';
import type { SessionMaintainer } from '../core/agent.js';
import type { CronScheduler } from '../core/cron/scheduler.js';
import { CronRepo } from '../core/cron/repo.js';
import { createCronTool } from '../core/tools/cron.js';
import { createCronScheduler } from '../core/cron-bridge.js';
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
      scheduler = createCronScheduler({ ...runtime, logger, repo: new CronRepo(runtime.store.db) });
      scheduler.start().catch((error: unknown) => logger.error('cron', `scheduler failed to start: ${oneLine(error)}`));
    },
    async stopScheduler(graceMs = 0) {
      await scheduler?.stop(graceMs);
    },
    jobCount: () => (scheduler ? scheduler.nextRuns().size : settings.config.cron.length),
  };
}
