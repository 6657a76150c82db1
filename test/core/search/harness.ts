/**
 * A small gateway for long-conversation tests: the real app (createApp: gateway, agent, store, outbox)
 * and OpenAI provider against the loopback model fake, with a simple prompt factory whose `memory` layer shows what a
 * recording `memory` tool saved (so a rebuilt prompt visibly carries a fresh memory snapshot).
 * Replies are read from the outbox (no platform adapter runs).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256, type Agent, type PromptFactory, type SessionMaintainer } from '../../../src/core/agent.js';
import type { Gateway } from '../../../src/core/gateway/index.js';
import { createApp, type App } from '../../../src/app.js';
import { loadSettings, type Settings } from '../../../src/core/settings.js';
import type { SessionRecord, Store } from '../../../src/core/store/types.js';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import { createOpenAIProvider } from '../../../src/core/providers/openai.js';
import type { Provider } from '../../../src/core/providers/provider.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { Tool } from '../../../src/core/tools/types.js';
import type { PlatformId } from '../../../src/platform/ids.js';
import type { SessionAddress } from '../../../src/platform/address.js';
import type { InboundMessage } from '../../../src/core/types.js';
import { startModelFake, type ModelFake } from '../../fakes/model.js';

/** The session address of a direct chat (`chatId` defaults to the user, as say() does). */
export function dm(platform: PlatformId, userId: string, chatId = userId): SessionAddress {
  return { platform, chatId, userId };
}

/** Facts saved per person by the recording memory tool. */
export type MemoryBook = Map<string, string[]>;

/** A `memory` tool that records saves per person (the real one lives in src/core/tools/memory.ts). */
export function recordingMemoryTool(book: MemoryBook): Tool & { calls: Array<{ personKey: string; args: unknown }> } {
  const calls: Array<{ personKey: string; args: unknown }> = [];
  return {
    name: 'memory',
    description: 'Save a durable fact.',
    parameters: { type: 'object', properties: { action: { type: 'string' }, target: { type: 'string' }, content: { type: 'string' } }, required: ['action'] },
    calls,
    async run(args, ctx) {
      calls.push({ personKey: ctx.personKey, args });
      const content = (args as { content?: string }).content ?? '';
      book.set(ctx.personKey, [...(book.get(ctx.personKey) ?? []), content]);
      return `Saved to ${ctx.personKey}'s memory.`;
    },
  };
}

/** Layers: identity, memory snapshot (frozen at build time), session info. */
export function testPromptFactory(book: MemoryBook): PromptFactory {
  return async ({ address, personKey, sessionId, startedAt }) => {
    const platform = address.platform;
    const layers = [
      { name: 'identity', text: 'You are Switchboard, a test assistant.\n\n' },
      { name: 'memory', text: `# Memory of ${personKey}\n${(book.get(personKey) ?? []).map((f) => `- ${f}`).join('\n') || '(empty)'}\n\n` },
      { name: 'session_info', text: `Conversation started: ${startedAt.toDateString()}, session ${sessionId}, platform ${platform}\n` },
    ];
    const text = layers.map((l) => l.text).join('');
    return { layers, text, sha256: sha256(text) };
  };
}

export interface Harness {
  home: string;
  env: NodeJS.ProcessEnv;
  settings: Settings;
  store: Store;
  fake: ModelFake;
  provider: Provider;
  app: App;
  agent: Agent;
  gateway: Gateway;
  book: MemoryBook;
  memory: Tool & { calls?: Array<{ personKey: string; args: unknown }> };
  clock: { now: number };
  /** Sends one message and returns the reply text that went to the outbox. */
  say(platform: PlatformId, userId: string, text: string, chatId?: string): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  configYaml?: string;
  extraTools?: (h: { book: MemoryBook }) => Tool[];
  /** Builds the session maintainer; `rebuildPrompt` rebuilds a session's stored prompt (the app's SessionPrompts). */
  maintainer?: (h: {
    settings: Settings;
    store: Store;
    provider: Provider;
    tools: Tool[];
    rebuildPrompt: (session: SessionRecord) => Promise<void>;
  }) => SessionMaintainer;
  /** The real memory tool and prompt builder instead of the recording ones (`memory` is then that tool). */
  real?: { memoryTool: Tool; buildPrompt: (settings: Settings, store: Store) => PromptFactory };
  /** Model base URL to use instead of the fake's (a recording proxy). */
  baseURL?: (fake: ModelFake) => Promise<string> | string;
  start?: number;
}

let updates = 0;

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = await startModelFake();
  const home = mkdtempSync(join(tmpdir(), 'sb-search-'));
  writeFileSync(join(home, 'config.yaml'), options.configYaml ?? '{}\n');
  const baseURL = options.baseURL ? await options.baseURL(fake) : fake.openaiUrl;
  const env: NodeJS.ProcessEnv = {
    SWITCHBOARD_HOME: home,
    OPENAI_API_KEY: 'k',
    OPENAI_BASE_URL: baseURL,
    MODEL: 'main-model',
    TELEGRAM_BOT_TOKEN: '123:test',
    TELEGRAM_ALLOWED_USERS: '*',
    SLACK_BOT_TOKEN: 'xoxb-test',
    SLACK_ALLOWED_USERS: '*',
  };
  const settings = loadSettings(env);
  const store = openSqliteStore({ path: sqlitePath(home), home });
  const provider = createOpenAIProvider({ apiKey: 'k', baseURL, timeoutMs: 5000, maxRetries: 0 });
  const book: MemoryBook = new Map();
  const memory = options.real?.memoryTool ?? recordingMemoryTool(book);
  const tools: Tool[] = [memory, ...(options.extraTools?.({ book }) ?? [])];
  const clock = { now: options.start ?? Date.parse('2025-03-10T10:00:00Z') };
  const now = () => new Date(clock.now);
  // Called only once the app exists (a turn's maintenance).
  const rebuildPrompt = (session: SessionRecord) => app.prompts.rebuild(session);
  // No door runs: replies stay pending in the outbox, where say() reads them.
  const app: App = createApp({
    settings,
    logger: silentLogger,
    cwd: home,
    store,
    provider,
    adapters: [],
    tools,
    buildPrompt: options.real ? options.real.buildPrompt(settings, store) : testPromptFactory(book),
    maintainSession: options.maintainer?.({ settings, store, provider, tools, rebuildPrompt }) ?? (async (session) => session),
    render: (_platform, markdown) => ({ chunks: [markdown] }),
    outbox: { maxAttempts: 3 },
    now,
  });
  const { agent, gateway, delivery } = app;

  const say = async (platform: PlatformId, userId: string, text: string, chatId = userId): Promise<string> => {
    const before = (await store.outbox.pending()).length;
    const id = String(++updates);
    const message: InboundMessage = {
      platform,
      chatId,
      userId,
      text,
      isDirect: true,
      mentionsBot: false,
      isReplyToBot: false,
      messageId: id,
      updateId: id,
      receivedAt: new Date(clock.now),
      replyTarget: { platform, chatId },
    };
    await gateway.handle(message);
    await gateway.idle();
    await delivery.idle();
    const items = await store.outbox.pending();
    if (items.length === before) throw new Error(`no reply to "${text}"`);
    return items[items.length - 1].message.chunks.join('');
  };

  return {
    home,
    env,
    settings,
    store,
    fake,
    provider,
    app,
    agent,
    gateway,
    book,
    memory,
    clock,
    say,
    async close() {
      await gateway.idle();
      await app.close();
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
