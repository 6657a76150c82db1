/**
 * Running it in production (ARCHITECTURE.md §18): the health server with readiness and Prometheus
 * metrics, for `switchboard start`. Loaded only when the health port is on, so the commands that only
 * inspect never load prom-client.
 */
import type { Settings } from '../core/settings.js';
import type { Logger } from '../core/logger.js';
import type { Telemetry } from '../core/telemetry.js';
import type { App } from '../app.js';
import type { Store } from '../core/store/types.js';
import { oneLine } from '../core/errors.js';
import { pricesOf } from '../core/cost/pricing.js';
import { createMetrics } from './metrics.js';
import { readiness } from './readiness.js';
import { startHealthServer, type HealthServer } from './health-server.js';

export type RunningHealth = HealthServer;

export interface HealthOps {
  /** What the app reports into the metrics. */
  telemetry: Telemetry;
  /** Starts the server for the app; null (one warning line) when its port cannot be had. */
  serve(app: App): Promise<RunningHealth | null>;
}

export async function openHealth(settings: Settings, logger: Logger): Promise<HealthOps | null> {
  const health = settings.health;
  if (!health || health.port === 0) return null;
  let store: Store | null = null;
  const metrics = createMetrics({
    store: () => store,
    prices: pricesOf(settings.config),
    // The pending come first in the list (ApprovalRepo.list); 1,000 is more than a chat gateway keeps waiting.
    approvalsPending: async () => (store ? (await store.approvals.list(1000)).filter((a) => a.state === 'pending').length : 0),
  });
  return {
    telemetry: metrics.telemetry,
    async serve(app) {
      store = app.store;
      try {
        const server = await startHealthServer({
          port: health.port,
          host: health.host,
          metricsToken: health.metricsToken,
          metrics,
          readiness: () => readiness({ state: () => app.state, store: app.store, doors: () => app.doors.status(), adapter: app.adapter }),
        });
        logger.info('health', `/healthz, /readyz and /metrics on http://${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`);
        return server;
      } catch (error) {
        const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
        logger.warn('health', inUse ? `not started: port ${health.port} is in use (SWITCHBOARD_HEALTH_PORT; 0 turns it off)` : `not started: ${oneLine(error)} (SWITCHBOARD_HEALTH_HOST, SWITCHBOARD_HEALTH_PORT)`);
        return null;
      }
    },
  };
}
