import type { Settings } from '../core/settings.js';
import type { Logger } from '../core/logger.js';
import type { Runtime } from '../core/runtime.js';
import type { Tool } from '../core/tools/types.js';
import type { SessionMaintainer } from '../core/agent.js';

/** Features layered on the spine: extra tools, session maintenance, the cron scheduler. */
export interface Features {
  tools: Tool[];
  maintainSession?: SessionMaintainer;
  startScheduler(runtime: Runtime): void;
  stopScheduler(): void;
  jobCount(): number;
}

export function createFeatures(settings: Settings, logger: Logger): Features {
  void logger;
  return {
    tools: [],
    startScheduler() {},
    stopScheduler() {},
    jobCount: () => settings.config.cron.length,
  };
}
