/**
 * A small gateway for long-conversation tests: the real Gateway, Agent, store and OpenAI provider
 * against the loopback model fake, with a simple prompt factory whose `memory` layer shows what a
 * recording `memory` tool saved (so a rebuilt prompt visibly carries a fresh memory snapshot).
 * Replies are read from the outbox (no platform adapter runs).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, sha256, type PromptFactory, type SessionMaintainer } from '../../../src/core/agent.js';
import { Gateway } from '../../../src/core/gateway.js';
import { DeliveryService } from '../../../src/core/delivery.js';
import { Pairing } from '../../../src/core/pairing.js';
import { loadSettings, type Settings } from '../../../src/core/settings.js';
import { openStore, storePath, type Store } from '../../../src/core/store/store.js';
import { createOpenAIProvider } from '../../../src/core/providers/openai.js';
import type { Provider } from '../../../src/core/providers/provider.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { Tool } from '../../../src/core/tools/types.js';
import type { PlatformId } from '../../../src/platform/ids.js';
import type { InboundMessage } from '../../../src/core/types.js';
import { startModelFake, type ModelFake } from '../../fakes/model.js';

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
  return ({ platform, personKey, sessionId, startedAt }) => {
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
  /** Builds the session maintainer once the agent exists. */
  maintainer?: (h: { settings: Settings; store: Store; provider: Provider; tools: Tool[]; agent: () => Agent }) => SessionMaintainer;
  /** The real memory tool and prompt builder instead of the recording ones (`memory` is then that tool). */
  real?: { memoryTool: Tool; buildPrompt: (settings: Settings) => PromptFactory };
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
  const store = openStore(storePath(home));
  const provider = createOpenAIProvider({ apiKey: 'k', baseURL, timeoutMs: 5000, maxRetries: 0 });
  const book: MemoryBook = new Map();
  const memory = options.real?.memoryTool ?? recordingMemoryTool(book);
  const tools: Tool[] = [memory, ...(options.extraTools?.({ book }) ?? [])];
  const clock = { now: options.start ?? Date.parse('2025-03-10T10:00:00Z') };
  const now = () => new Date(clock.now);
  let agent: Agent | undefined;
  const maintainSession = options.maintainer?.({ settings, store, provider, tools, agent: () => agent! });
  agent = new Agent({ settings, store, provider, tools, buildPrompt: options.real ? options.real.buildPrompt(settings) : testPromptFactory(book), logger: silentLogger, now, maintainSession });
  const delivery = new DeliveryService({ store, adapter: () => undefined, logger: silentLogger, maxAttempts: 3, now: () => clock.now });
  const gateway = new Gateway({
    settings,
    store,
    agent,
    delivery,
    pairing: new Pairing(store.db),
    render: (_platform, markdown) => ({ chunks: [markdown] }),
    logger: silentLogger,
    adapter: () => undefined,
    now,
  });

  const say = async (platform: PlatformId, userId: string, text: string, chatId = userId): Promise<string> => {
    const before = store.outbox.pending().length;
    const id = String(++updates);
    const message: InboundMessage = {
      platform,
      chatId,
      userId,
      text,
      isDirect: true,
      mentionsBot: false,
      messageId: id,
      updateId: id,
      receivedAt: new Date(clock.now),
      replyTarget: { platform, chatId },
    };
    await gateway.handle(message);
    await gateway.idle();
    await delivery.idle();
    const items = store.outbox.pending();
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
    agent,
    gateway,
    book,
    memory,
    clock,
    say,
    async close() {
      await gateway.idle();
      delivery.stop();
      await delivery.idle();
      store.close();
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
