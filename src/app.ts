/**
 * The composition root: the one place where Switchboard's parts are built and wired. `start`,
 * `chat`, `cron run`, the other commands, the tests and the benchmark all call `createApp` with what
 * they have (settings, a store opened with `openStore`, a provider, the adapters they run, a clock)
 * and get the same wiring.
 *
 *   adapter ─▶ gateway (journal → authorize → command → turn) ─▶ agent ─▶ replies (render → outbox)
 *           ◀─ delivery (outbox → adapter.deliver)
 */
import type { Settings } from './core/settings.js';
import type { Logger } from './core/logger.js';
import type { Store } from './core/store/types.js';
import type { Provider } from './core/providers/provider.js';
import type { Adapter } from './core/types.js';
import type { Tool } from './core/tools/types.js';
import type { PlatformId } from './platform/ids.js';
import { Agent, type SessionMaintainer } from './core/agent.js';
import { SessionPrompts, type PromptFactory } from './core/session-prompts.js';
import { DeliveryService, SEND_LEASE_MS } from './core/delivery.js';
import { Gateway } from './core/gateway/index.js';
import { Replies, type Renderer } from './core/gateway/replies.js';
import { createProvider } from './core/providers/index.js';
import { createMemoryTool } from './core/tools/memory.js';
import { createSkillViewTool } from './core/tools/skill-view.js';
import { sessionSearchTool } from './core/tools/session-search.js';
import { createCronTool } from './core/tools/cron.js';
import { createCompressionMaintainer } from './core/compression/index.js';
import { createCronScheduler } from './core/cron/bridge.js';
import type { CronScheduler } from './core/cron/scheduler.js';
import { buildPrompt } from './core/prompt/builder.js';
import type { Guard } from './core/guard.js';
import { threatGuard } from './guard/index.js';
import { renderFor } from './render/index.js';
import { Retention } from './core/retention.js';
import { leaseTiming, Presence } from './core/presence.js';
import { DoorKeeper } from './core/doors.js';
import { hostname } from 'node:os';

export interface AppOptions {
  settings: Settings;
  logger: Logger;
  /** Workspace folder for context files (`--cwd`, else the current folder). */
  cwd: string;
  /** The opened store (`openStore(settings)`: the engine the settings name). */
  store: Store;
  /** The model provider; default: from the settings. */
  provider?: Provider;
  /** The doors this process runs (they are started by the caller with `app.gateway.handle`). */
  adapters?: readonly Adapter[];
  /** The injection guard for prompt files, memory and skills; default: the threat scan (src/guard). */
  guard?: Guard;
  /** Replaces the layered prompt builder (tests). */
  buildPrompt?: PromptFactory;
  /** Replaces the agent's tools (tests, benchmark); default: memory, skill_view, session_search, cron. */
  tools?: readonly Tool[];
  /** Replaces context compression (tests, benchmark). */
  maintainSession?: SessionMaintainer;
  /** Replaces the renderer (tests). */
  render?: Renderer;
  /** Colour the terminal channel's answers (only when stdout is a terminal). */
  terminalColor?: boolean;
  /** Outbox tuning (tests; `cron run` retries quickly within its window). */
  outbox?: { backoffMs?: (attempt: number) => number; pollMs?: number; maxAttempts?: number };
  now?: () => Date;
}

export interface App {
  readonly settings: Settings;
  readonly logger: Logger;
  readonly store: Store;
  readonly provider: Provider;
  readonly agent: Agent;
  readonly prompts: SessionPrompts;
  readonly delivery: DeliveryService;
  readonly replies: Replies;
  readonly gateway: Gateway;
  readonly scheduler: CronScheduler;
  readonly render: Renderer;
  /** The retention policy; `start()` applies it now and then periodically (the gateway process). */
  readonly retention: Retention;
  /** This instance on the database: heartbeat and leases (`start()` by the gateway process). */
  readonly presence: Presence;
  /** Starts the doors (exclusive ones under a lease) and tells their state (`doors.status()`). */
  readonly doors: DoorKeeper;
  adapter(platform: PlatformId): Adapter | undefined;
  /** Stops delivery and closes the store (adapters are the caller's to stop and close). */
  close(): Promise<void>;
}

import { openStore } from './store/open.js';
export { openStore, storeLocation } from './store/open.js';

/**
 * Opens the store the settings name for a process that has already made its doors: when the
 * database cannot be opened (one clear error line), the doors are closed first, so nothing they
 * hold keeps the process alive.
 */
export async function openStoreFor(settings: Settings, doors: readonly Adapter[], logger?: Logger): Promise<Store> {
  try {
    return await openStore(settings, { logger });
  } catch (error) {
    await Promise.allSettled(doors.map((a) => a.close()));
    throw error;
  }
}

/** A cron run's lease (`cron-run:<id>`) held through this instance's Presence, renewed by its heartbeat. */
export function cronRunLeases(presence: Presence) {
  return { acquire: (name: string) => presence.acquire(name), release: (name: string) => presence.release(name), ttlMs: presence.timing.ttlMs };
}

export function createApp(options: AppOptions): App {
  const { settings, logger, cwd } = options;
  const guard = options.guard ?? threatGuard;
  const now = options.now ?? (() => new Date());
  const store = options.store;
  const provider = options.provider ?? createProvider(settings, logger);
  const doors = new Map<PlatformId, Adapter>((options.adapters ?? []).map((a) => [a.platform, a]));
  const adapter = (platform: PlatformId) => doors.get(platform);

  const build: PromptFactory =
    options.buildPrompt ??
    ((input) =>
      buildPrompt({
        home: settings.home,
        config: settings.config,
        platform: input.address.platform,
        address: input.address,
        personKey: input.personKey,
        sessionId: input.sessionId,
        startedAt: input.startedAt,
        cwd,
        logger,
        memory: store.memory,
        guard,
      }));
  const prompts = new SessionPrompts(store, build, logger);
  const render: Renderer =
    options.render ?? ((platform, markdown) => renderFor(platform, markdown, { color: platform === 'cli' && (options.terminalColor ?? false) }));

  const delivery = new DeliveryService({
    store,
    adapter,
    logger,
    maxAttempts: options.outbox?.maxAttempts ?? settings.config.gateway.outbox_max_attempts,
    backoffMs: options.outbox?.backoffMs,
    pollMs: options.outbox?.pollMs,
    now: () => now().getTime(),
  });
  const replies = new Replies({ store, render, kick: (chat, at) => delivery.kick(chat, at), handOver: { leaseMs: SEND_LEASE_MS, deliver: (item) => delivery.handOver(item) }, now });

  // The cron tool tells the scheduler about jobs made from chat; the scheduler does not exist yet
  // when the tools are made, so the tool gets a notifier the scheduler subscribes to below.
  const cronChanged = new Set<() => void>();
  const tools: readonly Tool[] = options.tools ?? [
    createMemoryTool(guard),
    createSkillViewTool(guard),
    sessionSearchTool,
    createCronTool({ onChange: () => cronChanged.forEach((f) => f()) }),
  ];
  const maintainSession =
    options.maintainSession ?? createCompressionMaintainer({ settings, store, provider, logger, tools, rebuildPrompt: (s) => prompts.rebuild(s), now });
  const agent = new Agent({ settings, store, provider, tools, prompts, logger, now, maintainSession });
  const presence = new Presence({
    store,
    instanceId: settings.instanceId ?? `${hostname()}-${process.pid}`,
    timing: leaseTiming(settings.config.gateway.lease_seconds),
    logger,
    now,
  });
  const gateway = new Gateway({ settings, store, agent, replies, logger, adapter, leases: presence, now });
  const doorKeeper = new DoorKeeper({ store, presence, logger });
  const scheduler = createCronScheduler({ settings, store, agent, replies, delivery, logger, now, leases: cronRunLeases(presence) });
  cronChanged.add(() => scheduler.refresh());
  const retention = new Retention({ store, config: settings.config.retention, logger, now });

  return {
    settings,
    logger,
    store,
    provider,
    agent,
    prompts,
    delivery,
    replies,
    gateway,
    scheduler,
    render,
    retention,
    presence,
    doors: doorKeeper,
    adapter,
    async close() {
      await retention.stop();
      delivery.stop();
      await delivery.idle();
      await presence.stop();
      await store.close();
    },
  };
}
