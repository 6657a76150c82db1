/**
 * The whole Switchboard pipeline in this process — settings from an environment, createApp (store,
 * prompt builder, agent, gateway, outbox, renderer) and the real Telegram adapter on grammY — pointed
 * at the loopback Telegram and model fakes. The provider is wrapped to time every model call, so the
 * benchmark can subtract the model's time from the gateway's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadSettings } from '../src/core/settings.js';
import { silentLogger, type Logger } from '../src/core/logger.js';
import { createApp, type App } from '../src/app.js';
import { openData } from '../src/app-open.js';
import { createProvider } from '../src/core/providers/index.js';
import type { Provider } from '../src/core/providers/provider.js';
import { createTelegramAdapter, type TelegramAdapter } from '../src/adapters/telegram/index.js';

/** A provider that adds up the wall time of its calls. */
export interface TimedProvider extends Provider {
  readonly calls: number;
  readonly totalMs: number;
  /** Duration of each call, ms, in order. */
  readonly durations: number[];
}

export function timed(inner: Provider): TimedProvider {
  let calls = 0;
  let totalMs = 0;
  const durations: number[] = [];
  return {
    durations,
    name: inner.name,
    get calls() {
      return calls;
    },
    get totalMs() {
      return totalMs;
    },
    async complete(request) {
      const start = performance.now();
      try {
        return await inner.complete(request);
      } finally {
        const ms = performance.now() - start;
        calls++;
        totalMs += ms;
        durations.push(ms);
      }
    },
    check: () => inner.check(),
  };
}

export interface Pipeline {
  app: App;
  adapter: TelegramAdapter;
  provider: TimedProvider;
  home: string;
  stop(): Promise<void>;
}

/** Where the fakes listen. */
export interface Endpoints {
  telegram: { url: string; token: string };
  modelUrl: string;
}

/** Starts Switchboard with only Telegram, every user allowed, in a fresh temp home. */
export async function startPipeline(fakes: Endpoints, options: { logger?: Logger; yaml?: string } = {}): Promise<Pipeline> {
  const root = mkdtempSync(join(tmpdir(), 'sb-bench-'));
  const home = join(root, 'home');
  const cwd = join(root, 'workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  if (options.yaml) writeFileSync(join(home, 'config.yaml'), options.yaml);
  const settings = loadSettings({
    SWITCHBOARD_HOME: home,
    OPENAI_BASE_URL: fakes.modelUrl,
    OPENAI_API_KEY: 'sk-bench',
    MODEL: 'fake-model',
    TELEGRAM_BOT_TOKEN: fakes.telegram.token,
    TELEGRAM_API_ROOT: fakes.telegram.url,
    TELEGRAM_ALLOWED_USERS: '*',
  });
  const logger = options.logger ?? silentLogger;
  const provider = timed(createProvider(settings, logger));
  const adapter = createTelegramAdapter(settings.telegram!, { config: settings.config, logger, home, stopGraceMs: 1000 });
  const app = createApp({ settings, logger, cwd, store: await openData(settings), provider, adapters: [adapter] });
  await app.start(); // as `switchboard start` does: presence, the door under its lease, delivery, the sweep, …
  return {
    app,
    adapter,
    provider,
    home,
    async stop() {
      await app.stop('bench over');
      rmSync(root, { recursive: true, force: true });
    },
  };
}
