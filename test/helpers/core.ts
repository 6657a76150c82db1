/**
 * Builds the real core (store, agent, gateway, outbox) on a temp home against the fake model
 * server, with a recording door standing in for a platform. Used by the core tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/core/config.js';
import type { Settings } from '../../src/core/settings.js';
import { parseAllowList } from '../../src/core/settings.js';
import type { Store } from '../../src/core/store/types.js';
import { openSqliteStore, sqlitePath } from '../../src/store/sqlite/index.js';
import { sha256, type Agent, type PromptFactory } from '../../src/core/agent.js';
import type { DeliveryService } from '../../src/core/delivery.js';
import type { Gateway, Renderer } from '../../src/core/gateway/index.js';
import { createApp, type App } from '../../src/app.js';
import { silentLogger } from '../../src/core/logger.js';
import { createOpenAIProvider } from '../../src/core/providers/openai.js';
import type { Provider } from '../../src/core/providers/provider.js';
import type { Adapter, Delivery, InboundMessage, PlatformCommand } from '../../src/core/types.js';
import { PLATFORM_HINTS } from '../../src/core/prompt/hints.js';
import type { PlatformId } from '../../src/platform/ids.js';
import type { Tool } from '../../src/core/tools/types.js';

export interface Sent {
  chatId: string;
  threadId?: string;
  text: string;
  ephemeral?: boolean;
}

/** A platform door that records what it delivers; `failNext` makes the next deliveries throw. */
export function recordingAdapter(platform: PlatformId = 'telegram') {
  const sent: Sent[] = [];
  let failures = 0;
  const adapter: Adapter & { sent: Sent[]; failNext(n: number): void } = {
    platform,
    profile: PLATFORM_HINTS[platform],
    sent,
    failNext(n: number) {
      failures = n;
    },
    async start() {},
    async stop() {},
    async close() {},
    async deliver(d: Delivery) {
      for (let i = d.firstChunk; i < d.message.chunks.length; i++) {
        if (failures > 0) {
          failures--;
          throw new Error('network down');
        }
        sent.push({ chatId: d.target.chatId, threadId: d.target.threadId, text: d.message.chunks[i], ephemeral: d.target.ephemeral });
        d.onChunkSent(i);
      }
    },
  };
  return adapter;
}

export const simplePrompt: PromptFactory = async ({ address, personKey, sessionId, startedAt }) => {
  const platform = address.platform;
  const layers = [
    { name: 'identity', text: 'You are a test bot.\n\n' },
    { name: 'platform_hint', text: `Platform: ${platform}.\n\n` },
    { name: 'memory', text: `Person: ${personKey}.\n\n` },
    { name: 'session_info', text: `Conversation started: ${startedAt.toDateString()}. Session ${sessionId}.` },
  ];
  const text = layers.map((l) => l.text).join('');
  return { layers, text, sha256: sha256(text) };
};

export function testSettings(home: string, modelUrl: string, yaml = '', allowed = '*'): Settings {
  const config = parseConfig(yaml, 'test.yaml');
  return {
    home,
    configPath: 'test.yaml',
    config,
    model: { provider: 'openai', name: 'fake-model', apiKey: 'k', baseURL: modelUrl },
    telegram: { token: '1:x', allowed: parseAllowList(allowed) },
    email: { from: 'bot@example.com', allowed: parseAllowList('') },
    secrets: [],
  };
}

export interface CoreHarness {
  home: string;
  app: App;
  store: Store;
  agent: Agent;
  gateway: Gateway;
  delivery: DeliveryService;
  door: ReturnType<typeof recordingAdapter>;
  close(): Promise<void>;
}

export function makeCore(options: {
  home?: string;
  modelUrl: string;
  yaml?: string;
  allowed?: string;
  tools?: Tool[];
  door?: ReturnType<typeof recordingAdapter>;
  provider?: Provider;
  /** The store to run on (closed with the core); SQLite in `home` when not given. */
  store?: Store;
  /** Markdown → chunks; default: the Markdown as one chunk. */
  render?: Renderer;
}): CoreHarness {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'sb-core-'));
  const settings = testSettings(home, options.modelUrl, options.yaml, options.allowed);
  const store = options.store ?? openSqliteStore({ path: sqlitePath(home), home });
  const provider = options.provider ?? createOpenAIProvider({ apiKey: 'k', baseURL: options.modelUrl, timeoutMs: 5000, maxRetries: 0 });
  const door = options.door ?? recordingAdapter('telegram');
  const app = createApp({
    settings,
    logger: silentLogger,
    cwd: home,
    store,
    provider,
    adapters: [door],
    tools: options.tools ?? [],
    buildPrompt: simplePrompt,
    maintainSession: async (session) => session,
    render: options.render ?? ((_p, md) => ({ chunks: md.trim() ? [md] : [] })),
    outbox: { maxAttempts: 5, backoffMs: () => 20, pollMs: 20 },
  });
  app.delivery.start();
  return {
    home,
    app,
    store,
    agent: app.agent,
    gateway: app.gateway,
    delivery: app.delivery,
    door,
    close: () => app.close(),
  };
}

let seq = 0;
export function inbound(text: string, opts: { user?: string; chat?: string; direct?: boolean; mention?: boolean; replyToBot?: boolean; command?: PlatformCommand; updateId?: string } = {}): InboundMessage {
  const user = opts.user ?? '1001';
  const chat = opts.chat ?? user;
  seq++;
  return {
    platform: 'telegram',
    chatId: chat,
    userId: user,
    text,
    isDirect: opts.direct ?? true,
    mentionsBot: opts.mention ?? false,
    isReplyToBot: opts.replyToBot ?? false,
    ...(opts.command ? { command: opts.command } : {}),
    messageId: String(seq),
    updateId: opts.updateId ?? `u${process.pid}-${seq}`,
    receivedAt: new Date(),
    replyTarget: { platform: 'telegram', chatId: chat },
  };
}

export async function until(cond: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function cleanup(home: string): void {
  rmSync(home, { recursive: true, force: true });
}
