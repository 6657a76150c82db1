/**
 * Benchmark for long-lived conversations (issue 9):
 * - `session_search` latency (p50, p95) over 100,000 stored messages from 1,000 users;
 * - compression's effect on request size and prefix-cache breaks over a 200-turn conversation
 *   against the model fake (with vs. without compression).
 *
 * Standalone: `node --import tsx bench/search.ts` prints the result as JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadSettings, type Settings } from '../src/core/settings.js';
import type { Store } from '../src/core/store/types.js';
import { openSqliteStore, sqlitePath } from '../src/store/sqlite/index.js';
import { createOpenAIProvider } from '../src/core/providers/openai.js';
import type { Provider } from '../src/core/providers/provider.js';
import { createApp, type App } from '../src/app.js';
import { formatSessionKey, type SessionAddress } from '../src/platform/address.js';
import { silentLogger } from '../src/core/logger.js';
import { createSessionSearchTool } from '../src/core/tools/session-search.js';
import type { Tool, ToolContext } from '../src/core/tools/types.js';
import { createCompressionMaintainer, FLUSH_INSTRUCTION } from '../src/core/compression/index.js';
import { startModelFake, lastUserText, systemText, type RecordedRequest, type FakeReply } from '../test/fakes/model.js';
import { recordingMemoryTool, testPromptFactory, type MemoryBook } from '../test/core/search/harness.js';

const USERS = 1000;
const SESSIONS_PER_USER = 5;
const MESSAGES_PER_SESSION = 20;
const SEARCHES = 300;
const BROAD_SEARCHES = 20;
const TURNS = 200;

export interface CompressionRun {
  turns: number;
  requests: number;
  /** Bytes of every request body sent to the model, summed. */
  requestBytes: number;
  /** Body bytes of the last turn's request. */
  lastRequestBytes: number;
  maxRequestBytes: number;
  compressions: number;
  /** Stored prompt rebuilds = recorded prefix-cache breaks. */
  promptRebuilds: number;
  /** Share of input tokens the fake served from its prefix cache. */
  cacheHitRate: number;
}

export interface SearchBenchResult {
  p50Ms: number;
  p95Ms: number;
  messages: number;
  users: number;
  searches: number;
  /** Broad questions, end to end with the summary request to the fake model. */
  broadP50Ms: number;
  buildMs: number;
  compression: {
    withCompression: CompressionRun;
    withoutCompression: CompressionRun;
    /** withCompression.requestBytes / withoutCompression.requestBytes. */
    requestBytesRatio: number;
  };
}

/** Small deterministic PRNG so every run stores the same corpus. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ner', 'tu', 'vos', 'pa', 'rin', 'del', 'sha', 'quo', 'bex', 'fi', 'gar', 'hul', 'zen'];

function vocabulary(random: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function settingsFor(home: string, baseURL: string, yaml: string): Settings {
  writeFileSync(join(home, 'config.yaml'), yaml);
  return loadSettings({ SWITCHBOARD_HOME: home, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: baseURL, MODEL: 'bench-model' });
}

async function buildCorpus(store: Store): Promise<{ words: string[]; sessions: string[][] }> {
  const random = rng(42);
  const words = vocabulary(random, 4000);
  const sessions: string[][] = [];
  const day = Date.parse('2025-01-01T00:00:00Z');
  await store.transaction(async (tx) => {
    for (let u = 0; u < USERS; u++) {
      const person = `telegram-${100000 + u}`;
      const ids: string[] = [];
      for (let s = 0; s < SESSIONS_PER_USER; s++) {
        const id = `b${u}-${s}`;
        const at = day + s * 86_400_000 + u * 1000;
        await tx.sessions.create({
          id,
          address: { platform: 'telegram', chatId: String(100000 + u), userId: String(100000 + u) },
          personKey: person,
          startedAt: at,
          promptLayers: [{ name: 'identity', text: 'bench' }],
          prompt: 'bench',
          promptSha256: 'bench',
          toolsSignature: '',
        });
        if (s < SESSIONS_PER_USER - 1) await tx.sessions.end(id, 'idle', at + 3_600_000);
        const messages = Array.from({ length: MESSAGES_PER_SESSION }, (_, i) => {
          const length = 12 + Math.floor(random() * 14);
          const content = Array.from({ length }, () => words[Math.floor(random() * words.length)]).join(' ');
          return i % 2 ? { role: 'assistant' as const, content } : { role: 'user' as const, content };
        });
        await tx.messages.append(id, person, messages, at);
        ids.push(id);
      }
      sessions.push(ids);
    }
  });
  return { words, sessions };
}

function toolContext(settings: Settings, store: Store, provider: Provider, personKey: string, sessionId: string): ToolContext {
  return {
    settings,
    store,
    logger: silentLogger,
    provider,
    platform: 'telegram',
    session: { platform: 'telegram', chatId: 'x', userId: personKey },
    sessionKey: `telegram:x:${personKey}`,
    sessionId,
    personKey,
    replyAddress: { platform: 'telegram', chatId: 'x' },
    signal: new AbortController().signal,
    now: () => new Date(),
  };
}

/**
 * session_search latency over the 100,000-message corpus; on SQLite in a temp home, or on the store
 * `open` gives (the PostgreSQL run of bench/instances.ts).
 */
export async function benchSearchLatency(open?: (home: string) => Promise<Store>): Promise<Omit<SearchBenchResult, 'compression'>> {
  const home = mkdtempSync(join(tmpdir(), 'sb-bench-search-'));
  const fake = await startModelFake({ script: () => ({ text: 'A short summary of the earlier sessions.' }) });
  const store = open ? await open(home) : openSqliteStore({ path: sqlitePath(home), home });
  try {
    const settings = settingsFor(home, fake.openaiUrl, '{}\n');
    const provider = createOpenAIProvider({ apiKey: 'k', baseURL: fake.openaiUrl, timeoutMs: 5000, maxRetries: 0 });
    const t0 = performance.now();
    const { words, sessions } = await buildCorpus(store);
    const buildMs = performance.now() - t0;
    const random = rng(7);
    const lookup = createSessionSearchTool({ summarise: false });
    const times: number[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const u = Math.floor(random() * USERS);
      const query = Array.from({ length: 1 + Math.floor(random() * 2) }, () => words[Math.floor(random() * words.length)]).join(' ');
      const ctx = toolContext(settings, store, provider, `telegram-${100000 + u}`, sessions[u][SESSIONS_PER_USER - 1]);
      const start = performance.now();
      await lookup.run({ query }, ctx);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const broad = createSessionSearchTool();
    const broadTimes: number[] = [];
    for (let i = 0; i < BROAD_SEARCHES; i++) {
      const u = Math.floor(random() * USERS);
      const ctx = toolContext(settings, store, provider, `telegram-${100000 + u}`, sessions[u][SESSIONS_PER_USER - 1]);
      const start = performance.now();
      const out = await broad.run({ query: `summarize what we discussed about ${words[Math.floor(random() * words.length)]}` }, ctx);
      broadTimes.push(performance.now() - start);
      if (!out.includes('Summary') && !out.startsWith('No earlier')) throw new Error(`broad search gave no summary: ${out.slice(0, 120)}`);
    }
    broadTimes.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      p50Ms: round(percentile(times, 50)),
      p95Ms: round(percentile(times, 95)),
      messages: USERS * SESSIONS_PER_USER * MESSAGES_PER_SESSION,
      users: USERS,
      searches: SEARCHES,
      broadP50Ms: round(percentile(broadTimes, 50)),
      buildMs: Math.round(buildMs),
    };
  } finally {
    await store.close();
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const isFlush = (req: RecordedRequest) => {
  const messages = req.body.messages as Array<{ role: string; content: string }>;
  return messages[messages.length - 1]?.content === FLUSH_INSTRUCTION;
};
const isSummary = (req: RecordedRequest) => systemText(req).startsWith('You compress the older part');

function conversationScript(req: RecordedRequest): FakeReply {
  if (isFlush(req)) return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Works on the bench project' } }] };
  if (isSummary(req)) return { text: '- The person and the assistant went through many turns about the bench project and its numbers.' };
  return { text: `Here is my answer to "${lastUserText(req).slice(0, 60)}". ${'It depends on the details, and here they are. '.repeat(6)}` };
}

async function runConversation(compress: boolean): Promise<CompressionRun> {
  const home = mkdtempSync(join(tmpdir(), 'sb-bench-compress-'));
  const fake = await startModelFake({ script: conversationScript });
  const store = openSqliteStore({ path: sqlitePath(home), home });
  try {
    const settings = settingsFor(
      home,
      fake.openaiUrl,
      'model: { context_window: 16000 }\nsessions: { compress_at: 0.5, keep_recent_turns: 6, idle_reset_minutes: 0 }\n',
    );
    const provider = createOpenAIProvider({ apiKey: 'k', baseURL: fake.openaiUrl, timeoutMs: 5000, maxRetries: 0 });
    const book: MemoryBook = new Map();
    const tools: Tool[] = [recordingMemoryTool(book)];
    const app: App = createApp({
      settings,
      logger: silentLogger,
      cwd: home,
      store,
      provider,
      tools,
      buildPrompt: testPromptFactory(book),
      maintainSession: compress
        ? createCompressionMaintainer({ settings, store, provider, tools, logger: silentLogger, rebuildPrompt: (s) => app.prompts.rebuild(s) })
        : async (session) => session,
    });
    const { agent } = app;
    const address: SessionAddress = { platform: 'cli', chatId: 'bench', userId: 'local' };
    let sessionId = '';
    for (let i = 1; i <= TURNS; i++) {
      const result = await agent.turn({
        session: address,
        sessionKey: formatSessionKey(address),
        personKey: 'cli-local',
        chat: undefined,
        userContent: `Turn ${i}: ${'please look at the next item of the bench project and tell me what you think. '.repeat(3)}`,
        replyAddress: { platform: 'cli', chatId: 'bench' },
        signal: new AbortController().signal,
      });
      // Committed as the gateway does: history and usage in one transaction.
      const at = Date.now();
      await store.transaction((tx) => agent.commit(tx, result, 'cli-local', at));
      sessionId = result.session.id;
    }
    const requests = fake.completions();
    const sizes = requests.map((r) => Buffer.byteLength(r.raw));
    const session = (await store.sessions.get(sessionId))!;
    return {
      turns: TURNS,
      requests: requests.length,
      requestBytes: sizes.reduce((a, b) => a + b, 0),
      lastRequestBytes: sizes[sizes.length - 1],
      maxRequestBytes: Math.max(...sizes),
      compressions: requests.filter(isSummary).length,
      promptRebuilds: session.promptRebuilds,
      cacheHitRate: session.usage.inputTokens ? Math.round((1000 * session.usage.cachedTokens) / session.usage.inputTokens) / 1000 : 0,
    };
  } finally {
    await store.close();
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchSearch(): Promise<SearchBenchResult> {
  const latency = await benchSearchLatency();
  const withCompression = await runConversation(true);
  const withoutCompression = await runConversation(false);
  return {
    ...latency,
    compression: {
      withCompression,
      withoutCompression,
      requestBytesRatio: Math.round((1000 * withCompression.requestBytes) / withoutCompression.requestBytes) / 1000,
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const result = await benchSearch();
  process.stdout.write(`${JSON.stringify({ ...result, totalMs: Math.round(performance.now() - started) }, null, 2)}\n`);
}
