import type { Settings } from './settings.js';
import type { Logger } from './logger.js';
import { openStore, storePath, type Store } from './store/store.js';
import { createProvider } from './providers/index.js';
import type { Provider } from './providers/provider.js';
import { Agent, type PromptFactory, type SessionMaintainer } from './agent.js';
import { DeliveryService } from './delivery.js';
import { Gateway, type Renderer } from './gateway.js';
import { Pairing } from './pairing.js';
import type { Adapter } from './types.js';
import type { PlatformId } from '../platform/ids.js';
import type { Tool } from './tools/types.js';
import { promptFactory } from './prompt-factory.js';
import { memoryTool } from './tools/memory.js';
import { skillViewTool } from './tools/skill-view.js';
import { sessionSearchTool } from './tools/session-search.js';
import { createCompressionMaintainer } from './compression/index.js';
import { renderFor } from '../render/index.js';

export interface RuntimeOptions {
  settings: Settings;
  logger: Logger;
  /** Workspace folder for context files (`--cwd`, else the current folder). */
  cwd: string;
  /** Override the model provider (tests, benchmark). */
  provider?: Provider;
  /** Extra tools (cron, session_search) added by the features that own them. */
  tools?: Tool[];
  maintainSession?: SessionMaintainer;
  /** Colour the terminal channel's answers (only when stdout is a terminal). */
  terminalColor?: boolean;
  now?: () => Date;
}

/** Everything the gateway needs, wired once. Adapters are attached afterwards (they need the gateway's handler). */
export interface Runtime {
  settings: Settings;
  logger: Logger;
  store: Store;
  provider: Provider;
  agent: Agent;
  delivery: DeliveryService;
  gateway: Gateway;
  pairing: Pairing;
  adapters: Map<PlatformId, Adapter>;
  buildPrompt: PromptFactory;
  render: Renderer;
  close(): void;
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const { settings, logger } = options;
  const store = openStore(storePath(settings.home));
  const provider = options.provider ?? createProvider(settings, logger);
  const adapters = new Map<PlatformId, Adapter>();
  const build = promptFactory(settings, options.cwd, logger);
  const tools: Tool[] = [memoryTool, skillViewTool, sessionSearchTool, ...(options.tools ?? [])];
  // Compression needs the agent (to rebuild prompts) and the agent runs compression: bound late.
  let agent: Agent | null = null;
  const maintainSession =
    options.maintainSession ??
    createCompressionMaintainer(() => ({ settings, store, provider, logger, tools, rebuildPrompt: (s) => agent!.rebuildPrompt(s) }));
  agent = new Agent({ settings, store, provider, tools, buildPrompt: build, logger, now: options.now, maintainSession });
  const delivery = new DeliveryService({
    store,
    adapter: (p) => adapters.get(p),
    logger,
    maxAttempts: settings.config.gateway.outbox_max_attempts,
    now: options.now ? () => options.now!().getTime() : undefined,
  });
  const pairing = new Pairing(store.db);
  const render: Renderer = (platform, markdown) => renderFor(platform, markdown, { color: platform === 'cli' && (options.terminalColor ?? false) });
  const gateway = new Gateway({ settings, store, agent, delivery, pairing, render, logger, adapter: (p) => adapters.get(p), now: options.now });
  return {
    settings,
    logger,
    store,
    provider,
    agent,
    delivery,
    gateway,
    pairing,
    adapters,
    buildPrompt: build,
    render,
    close: () => {
      delivery.stop();
      store.close();
    },
  };
}
