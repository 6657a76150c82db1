/**
 * The composition root: the one place where Switchboard's parts are built and wired, and the
 * object that starts and stops them (app-lifecycle.ts has the order). `start` and `chat` open it
 * with `openApp` (app-open.ts: the doors and the store the settings name); the fault harness, the
 * tests and the benchmark call `createApp` with what they have (a store, a provider, the doors
 * they run, a clock) and start it with the same `start()`.
 *
 *   adapter ─▶ gateway (journal → authorize → command → turn) ─▶ agent ─▶ replies (render → outbox)
 *           ◀─ delivery (outbox → adapter.deliver)
 */
import { join } from 'node:path';
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
import { createSendFileTool } from './core/tools/send-file.js';
import { createCronTool } from './core/tools/cron.js';
import { createCompressionMaintainer } from './core/compression/index.js';
import { createCronScheduler } from './core/cron/bridge.js';
import type { CronScheduler } from './core/cron/scheduler.js';
import { buildPrompt } from './core/prompt/builder.js';
import type { Guard } from './core/guard.js';
import { threatGuard } from './guard/index.js';
import { settingsRedactor } from './core/secrets/known.js';
import { redactingProvider } from './core/secrets/provider.js';
import { secondOpinionFor } from './guard/index.js';
import type { SecondOpinion } from './core/guard.js';
import { createRenderService } from './app-render.js';
import { Retention } from './core/retention.js';
import { MediaIntake } from './core/media/intake.js';
import { MediaDataCache } from './core/media/data.js';
import { mediaReaders, transcriberFor, transcriptionMissing } from './media/index.js';
import { leaseTiming, Presence } from './core/presence.js';
import { DoorKeeper, type DoorLogs } from './core/doors.js';
import { Lifecycle, type AppState, type Ready, type StopOptions } from './app-lifecycle.js';
import { graphemeSplit } from './render/text.js';
import { McpHub } from './mcp/hub.js';
import { createWebFetchTool } from './core/tools/web-fetch.js';
import { hostname } from 'node:os';
import type { Telemetry } from './core/telemetry.js';
import { createBudgetCheck } from './core/cost/budgets.js';
import { pricesOf } from './core/cost/pricing.js';

export type { AppState, Ready, StopOptions } from './app-lifecycle.js';
export { exitDeadlineMs } from './app-lifecycle.js';

export interface AppOptions {
  settings: Settings;
  logger: Logger;
  /** Workspace folder for context files (`--cwd`, else the current folder). */
  cwd: string;
  /** The opened store (`openData(settings)`: the engine the settings name); the app closes it. */
  store: Store;
  /** The model provider; default: from the settings. */
  provider?: Provider;
  /** The doors this process runs: start() opens them through the door keeper, stop() closes them. */
  adapters?: readonly Adapter[];
  /** Each door's log lines while they open (`start`: the log reads door by door). */
  doorLogs?: DoorLogs;
  /** Whether start() runs the cron scheduler (default true; `chat` runs none). */
  cron?: boolean;
  /** Told the outbox id of each cron report queued (`cron run` waits for its delivery). */
  onCronQueued?: (jobId: string, outboxId: number) => void;
  /** The injection guard for prompt files, memory and skills; default: the threat scan (src/guard). */
  guard?: Guard;
  /** The second opinion (`guard.model`); default: from the settings, none when unset. */
  secondOpinion?: SecondOpinion;
  /** Replaces the layered prompt builder (tests). */
  buildPrompt?: PromptFactory;
  /** Replaces the agent's tools (tests, benchmark); default: memory, skill_view, session_search, cron, web_fetch. */
  tools?: readonly Tool[];
  /** The environment `${VAR}` in `mcp_servers:` headers and env is read from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Replaces context compression (tests, benchmark). */
  maintainSession?: SessionMaintainer;
  /** Replaces the renderer (tests). */
  render?: Renderer;
  /** Colour the terminal channel's answers (only when stdout is a terminal). */
  terminalColor?: boolean;
  /** Replaces what reads attachments (tests, benchmark: another transcriber); default from the settings (src/media). */
  media?: MediaIntake;
  /** Outbox tuning (tests; `cron run` retries quickly within its window). */
  outbox?: { backoffMs?: (attempt: number) => number; pollMs?: number; maxAttempts?: number };
  now?: () => Date;
  /** Where the core reports messages, turns, model calls and errors (the Prometheus metrics, src/ops). */
  telemetry?: Telemetry;
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
  /** The retention policy; start() applies it now and then periodically. */
  readonly retention: Retention;
  /** This instance on the database: heartbeat and leases (start() registers it). */
  readonly presence: Presence;
  /** Opens the doors (exclusive ones under a lease) and tells their state (`doors.status()`). */
  readonly doors: DoorKeeper;
  /** The doors this app runs, in the order they open. */
  readonly adapters: readonly Adapter[];
  /** The MCP servers of `mcp_servers:` (ARCHITECTURE.md §16); null when none is configured. */
  readonly mcp: McpHub | null;
  adapter(platform: PlatformId): Adapter | undefined;
  /** Where the app is in its lifecycle. */
  readonly state: AppState;
  /**
   * Starts presence, the doors, delivery, the sweep, retention and the scheduler, in that order
   * (app-lifecycle.ts); resolves with what the ready line says, or null when stop() came first. A
   * failed start rejects with one line, the doors that came up stopped.
   */
  start(): Promise<Ready | null>;
  /** Stops in the reverse order: intake, running turns (the grace period), the outbox flush, the rest. */
  stop(reason: string, options?: StopOptions): Promise<void>;
  /** Releases what the app holds (doors, delivery, leases, the store); a started app is stopped. */
  close(): Promise<void>;
}

/** A cron run's lease (`cron-run:<id>`) held through this instance's Presence, renewed by its heartbeat. */
function cronRunLeases(presence: Presence) {
  return { acquire: (name: string) => presence.acquire(name), release: (name: string) => presence.release(name), ttlMs: presence.timing.ttlMs };
}

export function createApp(options: AppOptions): App {
  const { settings, logger, cwd } = options;
  const guard = options.guard ?? threatGuard;
  const now = options.now ?? (() => new Date());
  const store = options.store;
  // Every request passes the redactor, whatever provider (ARCHITECTURE.md §17): a test's fake provider too.
  const redactor = settingsRedactor(settings);
  const secondOpinion = options.secondOpinion ?? secondOpinionFor(settings, logger);
  const provider = redactingProvider(options.provider ?? createProvider(settings, logger), redactor, logger, secondOpinion);
  const adapters = options.adapters ?? [];
  const doors = new Map<PlatformId, Adapter>(adapters.map((a) => [a.platform, a]));
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
        redactor,
        secondOpinion,
      }));
  const prompts = new SessionPrompts(store, build, logger);
  // Long answers render on a worker thread, off the event loop every door shares (ARCHITECTURE.md §6d).
  const renderService = createRenderService({
    onFallback: (reason, r) => logger.warn('render', `a ${r.markdown.length}-character answer for ${r.platform} went out as written (render worker: ${reason})`),
  });
  const render: Renderer =
    options.render ?? ((platform, markdown) => renderService(platform, markdown, { color: platform === 'cli' && (options.terminalColor ?? false) }));

  const delivery = new DeliveryService({
    store,
    adapter,
    logger,
    maxAttempts: options.outbox?.maxAttempts ?? settings.config.gateway.outbox_max_attempts,
    backoffMs: options.outbox?.backoffMs,
    pollMs: options.outbox?.pollMs,
    now: () => now().getTime(),
    telemetry: options.telemetry,
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
    createWebFetchTool(),
    createSendFileTool({ workspace: cwd, maxBytes: settings.config.media.max_bytes }),
  ];
  // An unset ${VAR} in a server's headers or env is one ConfigError line here, before anything starts.
  const mcpServers = settings.config.mcp_servers;
  const mcp = Object.keys(mcpServers).length
    ? new McpHub({ servers: mcpServers, logger, env: options.env ?? process.env, reserved: tools.map((t) => t.name), cacheFile: join(settings.home, 'mcp-tools.json') })
    : null;
  const maintainSession =
    options.maintainSession ?? createCompressionMaintainer({ settings, store, provider, logger, tools, rebuildPrompt: (s) => prompts.rebuild(s), now });
  const budget = createBudgetCheck({ budgets: settings.config.budgets, store, prices: pricesOf(settings.config), defaultModel: settings.model.name, now });
  // The bytes of stored images as requests carry them: media intake puts a new photo in, the agent sends it.
  const imageData = new MediaDataCache();
  const agent = new Agent({
    mediaData: imageData,
    settings,
    store,
    provider,
    tools,
    ...(mcp ? { toolSource: mcp } : {}),
    prompts,
    logger,
    now,
    maintainSession,
    telemetry: options.telemetry,
    budget,
  });
  const presence = new Presence({
    store,
    instanceId: settings.instanceId ?? `${hostname()}-${process.pid}`,
    timing: leaseTiming(settings.config.gateway.lease_seconds),
    logger,
    now,
  });
  const media =
    options.media ??
    new MediaIntake({ config: settings.config, store: store.media, readers: mediaReaders, transcriber: transcriberFor(settings), transcriptionMissing: transcriptionMissing(settings), imageData, fetcher: (p) => adapter(p)?.attachments });
  const gateway = new Gateway({ settings, store, agent, replies, logger, adapter, leases: presence, now, media, telemetry: options.telemetry });
  const doorKeeper = new DoorKeeper({ store, presence, logger });
  const scheduler = createCronScheduler({ settings, store, agent, replies, delivery, logger, now, leases: cronRunLeases(presence) }, options.onCronQueued);
  cronChanged.add(() => scheduler.refresh());
  const retention = new Retention({ store, config: settings.config.retention, logger, now });
  const lifecycle = new Lifecycle({
    settings,
    logger,
    store,
    presence,
    doorKeeper,
    gateway,
    delivery,
    retention,
    scheduler,
    agent,
    adapters,
    doorLogs: options.doorLogs,
    cron: options.cron ?? true,
    ...(mcp ? { mcp } : {}),
    // What the injection defence and the renderer make on first use (the scan's keyword automaton,
    // about 90 Unicode-aware patterns and the confusables table; ICU's grapheme rules: some 50 ms in
    // all) is made once the doors are up, before a first message is likely; a scan or a render that
    // comes first makes it itself.
    warmUp: () => {
      guard.prepare?.();
      graphemeSplit('');
    },
  });

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
    adapters,
    mcp,
    adapter,
    get state() {
      return lifecycle.state;
    },
    start: () => lifecycle.start(),
    stop: (reason, stopOptions) => lifecycle.stop(reason, stopOptions),
    close: () => lifecycle.close(),
  };
}
