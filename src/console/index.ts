/**
 * The console for a running app: the dependencies taken from what the app built (ConsoleHost, the
 * part of it the console reads and drives), plus the door states the serving process knows.
 * Imported lazily (`await import`) by `start` and `console`.
 */
import { pricesOf } from '../core/cost/pricing.js';
import type { Settings } from '../core/settings.js';
import type { Logger } from '../core/logger.js';
import type { Store } from '../core/store/types.js';
import type { CronRunResult } from '../core/cron/types.js';
import { formatAddress, type Address } from '../platform/address.js';
import { oneLine } from '../core/errors.js';
import { startConsole, type RunningConsole } from './server.js';
import type { DoorStatus, McpServerView, RunNowResult } from './types.js';
import type { ActionOutcome } from '../core/types.js';

export type { DoorStatus, DoorState } from './types.js';
export type { RunningConsole } from './server.js';

/**
 * What the console needs of the app that serves it: its settings, log and store, the cron
 * scheduler's actions and a way to wake delivery. Defined here so the console does not depend on
 * the composition root (the app satisfies it as it is).
 */
export interface ConsoleHost {
  readonly settings: Pick<Settings, 'console' | 'home' | 'secrets' | 'config' | 'model'>;
  readonly logger: Logger;
  readonly store: Store;
  readonly scheduler: {
    runNow(id: string): Promise<CronRunResult>;
    nextRuns(): ReadonlyMap<string, number | null>;
    refresh(): Promise<void>;
  };
  readonly delivery: { kick(chat?: Address): void };
  /** The MCP servers (ARCHITECTURE.md §16); shown on the overview once this process started them. */
  readonly mcp?: { readonly started: boolean; status(): McpServerView[] } | null;
  /** The gateway, where one runs: the console answers approvals through it (ARCHITECTURE.md §16). */
  readonly gateway?: { answerApproval(id: string, decision: 'approved' | 'denied'): Promise<ActionOutcome> };
}

export interface ConsoleForAppOptions {
  doors: () => readonly DoorStatus[] | Promise<readonly DoorStatus[]>;
  /** The model label (app.agent.modelStatus()), as known now. */
  model: () => string;
  terminal?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Called before "run now" and "retry" (`console` alone starts delivery only then, as `cron run` does). */
  beforeSend?: () => void;
}

export async function serveConsole(app: ConsoleHost, options: ConsoleForAppOptions): Promise<RunningConsole | null> {
  const { settings } = app;
  if (!settings.console || settings.console.port === 0) return null;
  const runNow = async (id: string): Promise<RunNowResult> => {
    options.beforeSend?.();
    const result = await app.scheduler.runNow(id);
    if (result.status === 'silent') return { ok: true, detail: 'the report was [SILENT]: nothing to deliver' };
    if (result.status !== 'ok') return { ok: false, detail: `${result.status}: ${result.detail}` };
    const job = await app.store.cron.get(id);
    return { ok: true, detail: `ran (${result.detail}); the report is on its way to ${job ? formatAddress(job.deliver) : 'its target'}` };
  };
  const gateway = app.gateway;
  return startConsole({
    settings: settings.console,
    home: settings.home,
    logger: app.logger,
    terminal: options.terminal,
    deps: {
      store: app.store,
      secrets: settings.secrets,
      costs: { prices: pricesOf(settings.config), defaultModel: settings.model.name, budgets: settings.config.budgets },
      doors: options.doors,
      model: options.model,
      mcp: () => (app.mcp?.started ? app.mcp.status() : []),
      cron: {
        nextRuns: () => app.scheduler.nextRuns(),
        runNow,
        changed: () => void app.scheduler.refresh().catch((error: unknown) => app.logger.warn('console', `cron refresh: ${oneLine(error)}`)),
      },
      ...(gateway ? { answerApproval: (id: string, decision: 'approved' | 'denied') => gateway.answerApproval(id, decision) } : {}),
      thumbnail: async (bytes) => (await import('../media/image.js')).thumbnailImage(bytes),
      kickDelivery: (chat) => {
        options.beforeSend?.();
        app.delivery.kick(chat);
      },
    },
  });
}
