/**
 * The app's lifecycle (ARCHITECTURE.md §4b, §9): what `app.start()` brings up, in this order, and what
 * `app.stop(reason)` takes down, in the reverse one. `switchboard start` and `chat`, the fault
 * harness and the benchmark all run this one sequence.
 *
 *   start  1. presence   this instance's row and heartbeat (leases are renewed by it)
 *          2. doors      through the door keeper, all at once: an exclusive one (Telegram polling,
 *                        the Discord gateway, IMAP) only under its lease, else it stands by; the
 *                        terminal last. A door that fails fails the start (one line), and the
 *                        doors that came up are stopped.
 *          3. delivery   the outbox is sent
 *          4. sweep      messages kept from before the last stop (or left by a dead instance) are
 *                        answered now, and looked for again at every heartbeat
 *          5. retention  now in the background, then every retention.interval_minutes
 *          6. scheduler  the cron jobs (the gateway process only, not `chat`)
 *
 *   stop   6. scheduler  no new slot; its running jobs share the turns' grace period
 *          4. sweep      off
 *          2. doors      intake stops (nothing new is confirmed to a platform); an exclusive door's
 *                        lease goes only after its last poll, so a standby never polls alongside
 *             turns      running ones get the grace period; the rest stay journaled
 *          3. delivery   what is ready is sent within the exit deadline; the rest stays queued
 *          2. doors      closed (SMTP pool, SDK clients, sockets), started or not
 *          5. retention, 1. presence (leases released, row removed), then the store is closed
 */
import type { Settings } from './core/settings.js';
import type { Logger } from './core/logger.js';
import type { Store } from './core/store/types.js';
import type { Adapter } from './core/types.js';
import type { PlatformId } from './platform/ids.js';
import type { Presence } from './core/presence.js';
import type { DoorKeeper, DoorLogs } from './core/doors.js';
import type { Gateway } from './core/gateway/index.js';
import type { DeliveryService } from './core/delivery.js';
import type { Retention } from './core/retention.js';
import type { CronScheduler } from './core/cron/scheduler.js';
import type { Agent } from './core/agent.js';
import { oneLine, SwitchboardError } from './core/errors.js';

/**
 * Between a stop and the process's exit (ARCHITECTURE.md §18): the grace period for running turns
 * (`gateway.shutdown_grace_seconds`, default 20), then at most this long to send what is ready and
 * close. The command that owns the process exits when the whole has passed; a supervisor's stop
 * timeout (systemd TimeoutStopSec, `docker stop -t`) should be longer than grace + this.
 */
export const EXIT_AFTER_GRACE_MS = 4_500;

export const exitDeadlineMs = (graceSeconds: number): number => graceSeconds * 1000 + EXIT_AFTER_GRACE_MS;

/** How long running turns may take when the stop asks them to finish (`chat` at end of input). */
const FINISH_TURNS_MS = 60 * 60_000;

/** Where the app is: `new` until start(), `running` once start() has resolved. */
export type AppState = 'new' | 'starting' | 'running' | 'stopping' | 'stopped';

/** What start() found once everything runs: what the command's ready line says. */
export interface Ready {
  /** Every door, in the order given; `standby`: another instance holds its lease. */
  doors: ReadonlyArray<{ platform: PlatformId; standby: boolean }>;
  /** The cron jobs armed, or null when this app runs no scheduler (`chat`). */
  cronJobs: number | null;
  /** The model as the agent sees it; `ok: false` when none is configured or reachable. */
  model: { ok: boolean; label: string };
}

export interface StopOptions {
  /** Running turns finish however long they take (`chat` at end of input), not only for the grace period. */
  finishTurns?: boolean;
}

/** The parts the lifecycle starts and stops, as createApp built them. */
export interface LifecycleParts {
  settings: Settings;
  logger: Logger;
  store: Store;
  presence: Presence;
  doorKeeper: DoorKeeper;
  gateway: Gateway;
  delivery: DeliveryService;
  retention: Retention;
  scheduler: CronScheduler;
  agent: Pick<Agent, 'modelStatus'>;
  adapters: readonly Adapter[];
  /** Each door's log lines while the doors open (the log then reads door by door). */
  doorLogs?: DoorLogs;
  /** Whether start() runs the cron scheduler. */
  cron: boolean;
  /** Work made on first use that is worth making once the doors are up, before a first message. */
  warmUp?: () => void;
  /**
   * The MCP servers (ARCHITECTURE.md §16): started first, without waiting for them (the first session
   * waits for their tools, the agent's ToolSource.settled); closed last.
   */
  mcp?: { begin(): void; close(): Promise<void> };
}

export class Lifecycle {
  private phase: AppState = 'new';
  private stopping: Promise<void> | null = null;
  private stopSweeping: () => void = () => undefined;
  private delivering = false;
  /** presence.start() while it runs: a stop that comes meanwhile waits for it before stopping presence. */
  private registering: Promise<unknown> = Promise.resolve();

  constructor(private readonly parts: LifecycleParts) {}

  get state(): AppState {
    return this.phase;
  }

  /**
   * Starts everything in order and resolves with what the ready line says; null when stop() came
   * while it was starting (what was up is stopped by that stop). A start that fails rejects with one
   * line (a SwitchboardError) once the doors that came up are stopped and the store is closed.
   */
  async start(): Promise<Ready | null> {
    if (this.phase !== 'new') throw new Error(`the app cannot start twice (it is ${this.phase})`);
    this.phase = 'starting';
    const { presence, doorKeeper, gateway, delivery, retention, scheduler, adapters, settings, logger } = this.parts;
    try {
      const registering = presence.start();
      this.registering = registering.catch(() => undefined);
      this.parts.mcp?.begin();
      await registering;
      if (this.stopping) return null;
      await doorKeeper.open(adapters, gateway.handle, this.parts.doorLogs);
    } catch (error) {
      if (this.stopping) return null; // a door that fails while a signal stops the start is no news
      await this.stop('start failed').catch(() => undefined);
      throw error instanceof SwitchboardError ? error : new SwitchboardError('platform_api', oneLine(error));
    }
    if (this.stopping) return null;
    delivery.start();
    this.delivering = true;
    await this.sweep(true);
    if (this.stopping) return null;
    this.stopSweeping = presence.onTick(() => void this.sweep(false));
    void retention.start(); // prunes in the background; failures are logged by retention itself
    if (this.parts.cron) scheduler.start().catch((error: unknown) => logger.error('cron', `scheduler failed to start: ${oneLine(error)}`));
    const model = await this.parts.agent.modelStatus();
    const standby = new Set((await doorKeeper.status()).filter((d) => d.state === 'standby').map((d) => d.platform));
    if (this.stopping) return null;
    this.phase = 'running';
    if (this.parts.warmUp) setImmediate(this.parts.warmUp);
    return {
      doors: adapters.map((a) => ({ platform: a.platform, standby: standby.has(a.platform) })),
      // The scheduler arms its jobs in the background: until it has, the config file's count stands in.
      cronJobs: this.parts.cron ? scheduler.nextRuns().size || settings.config.cron.length : null,
      model,
    };
  }

  /**
   * The ordered stop (see the header); the same promise for every call. Works in any state: during
   * start() it stops what has come up so far; on an app never started it releases what it holds.
   */
  stop(reason: string, options: StopOptions = {}): Promise<void> {
    if (this.stopping) return this.stopping;
    const never = this.phase === 'new';
    this.phase = 'stopping'; // from here start() refuses, and a start in progress goes no further
    this.stopping = never ? this.release().then(() => void (this.phase = 'stopped')) : this.shutdown(reason, options);
    return this.stopping;
  }

  /**
   * Releases everything without the ordered stop: the doors are closed, delivery stops where it
   * is, the leases go and the store is closed. For an app whose parts were used one by one (a
   * command that only sends, tests driving the gateway); a started app is stopped instead.
   */
  close(): Promise<void> {
    return this.stop('closed');
  }

  /** Pending messages nobody answers are taken up under their session's lease (ARCHITECTURE.md §9). */
  private sweep(first: boolean): Promise<void> {
    const { gateway, logger, adapters } = this.parts;
    // The terminal's lines are never journaled: each is answered in its own run or not at all.
    const journaled = adapters.map((a) => a.platform).filter((p) => p !== 'cli');
    return gateway.sweep(journaled).then(
      (n) => {
        if (n) logger.info('gateway', first ? `answering ${n} message(s) kept from before the last stop` : `took up ${n} pending message(s) nobody was answering`);
      },
      (error: unknown) => logger.warn('gateway', `sweep failed: ${oneLine(error)}`),
    );
  }

  private async shutdown(reason: string, options: StopOptions): Promise<void> {
    const { logger, settings, scheduler, doorKeeper, gateway, delivery, adapters, doorLogs } = this.parts;
    this.stopSweeping();
    // What the doors said while opening, when the stop came before the door keeper told it.
    for (const a of adapters) doorLogs?.release(a.platform);
    // A failed start is reported by its one error line; the stop around it is not news.
    const note = reason === 'start failed' ? logger.debug : logger.info;
    logger.debug('switchboard', `stopping (${reason})`);
    const began = Date.now();
    const grace = settings.config.gateway.shutdown_grace_seconds * 1000;
    const schedulerStopped = this.parts.cron ? scheduler.stop(grace) : Promise.resolve();
    await doorKeeper.close().catch(() => undefined);
    await Promise.all([gateway.shutdown(options.finishTurns ? FINISH_TURNS_MS : grace), schedulerStopped]);
    if (this.delivering) {
      delivery.kick();
      const flushMs = Math.max(500, Math.min(3000, exitDeadlineMs(settings.config.gateway.shutdown_grace_seconds) - 1000 - (Date.now() - began)));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([delivery.idle(), new Promise((resolve) => (timer = setTimeout(resolve, flushMs)))]);
      clearTimeout(timer);
    }
    await this.release();
    this.phase = 'stopped';
    note('switchboard', `stopped (${reason})`);
  }

  /** The last steps of every stop: the doors' sending side, retention, delivery, presence, the store. */
  private async release(): Promise<void> {
    const { adapters, retention, delivery, presence, store } = this.parts;
    await Promise.allSettled(adapters.map((a) => a.close()));
    await retention.stop();
    delivery.stop();
    await delivery.idle();
    await this.registering;
    await presence.stop(); // also: this instance's remaining leases released, its row removed
    await this.parts.mcp?.close();
    await store.close();
  }
}
