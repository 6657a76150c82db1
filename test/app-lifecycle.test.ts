/**
 * The app's own start and stop (src/app-lifecycle.ts), as `switchboard start` runs them: a fake door
 * under its lease, the real store, gateway, outbox, scheduler and presence, and the fake model. The
 * door writes down what happens to it, so the tests read the order.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../src/app.js';
import { openData } from '../src/app-open.js';
import { silentLogger } from '../src/core/logger.js';
import { createOpenAIProvider } from '../src/core/providers/openai.js';
import { PLATFORM_HINTS } from '../src/core/prompt/hints.js';
import type { Adapter, InboundHandler } from '../src/core/types.js';
import type { Store } from '../src/core/store/types.js';
import { startModelFake, lastUserText, type ModelFake } from './fakes/model.js';
import { cleanup, inbound, simplePrompt, testSettings, until } from './helpers/core.js';

let model: ModelFake;
beforeAll(async () => {
  model = await startModelFake({ script: (req) => ({ text: `Echo: ${lastUserText(req)}`, delayMs: lastUserText(req).startsWith('slow') ? 400 : 0 }) });
});
afterAll(() => model?.close());

const YAML = [
  'gateway: { shutdown_grace_seconds: 3 }',
  'cron:',
  '  - id: nightly',
  '    schedule: "0 3 * * *"',
  '    prompt: "Report."',
  '    deliver: telegram:1001',
].join('\n');

/**
 * A Telegram-like door with one consumer per bot (it runs under the `door:telegram` lease). `events`
 * gets a line per start, delivery, stop and close; at its stop (its last poll) it notes whether this
 * instance still held the lease.
 */
function door(store: () => Store, options: { failStart?: string; connected?: Promise<void> } = {}) {
  const events: string[] = [];
  let handler: InboundHandler | undefined;
  const adapter: Adapter = {
    platform: 'telegram',
    profile: PLATFORM_HINTS.telegram,
    exclusiveIntake: true,
    async start(h) {
      events.push('start');
      if (options.failStart) throw new Error(options.failStart);
      await options.connected;
      handler = h;
    },
    async stop() {
      const lease = await store().leases.get('door:telegram');
      events.push(`stop (lease ${lease ? 'held' : 'free'})`);
    },
    async close() {
      events.push('close');
    },
    async deliver(d) {
      events.push(`deliver ${d.message.chunks.join('')}`);
      for (let i = d.firstChunk; i < d.message.chunks.length; i++) await d.onChunkSent(i);
    },
  };
  return { adapter, events, handle: (text: string) => handler!(inbound(text, { user: '1001' })) };
}

async function makeApp(doorOptions: Parameters<typeof door>[1] = {}, extra: Adapter[] = []) {
  const home = mkdtempSync(join(tmpdir(), 'sb-lifecycle-'));
  const settings = testSettings(home, model.openaiUrl, YAML);
  const store = await openData(settings);
  const fake = door(() => store, doorOptions);
  const app: App = createApp({
    settings,
    logger: silentLogger,
    cwd: home,
    store,
    provider: createOpenAIProvider({ apiKey: 'k', baseURL: model.openaiUrl, timeoutMs: 5000, maxRetries: 0 }),
    adapters: [fake.adapter, ...extra],
    tools: [],
    buildPrompt: simplePrompt,
    maintainSession: async (session) => session,
    render: (_p, md) => ({ chunks: md.trim() ? [md] : [] }),
  });
  return { app, home, store, ...fake };
}

describe('app.start() and app.stop()', () => {
  it('starts presence, the door under its lease, delivery and the scheduler; answers through the door', async () => {
    const { app, home, store, events, handle } = await makeApp();
    try {
      expect(app.state).toBe('new');
      const ready = await app.start();
      expect(app.state).toBe('running');
      expect(ready).toEqual({ doors: [{ platform: 'telegram', standby: false }], cronJobs: 1, model: { ok: true, label: 'fake-model (openai)' } });
      expect((await store.leases.get('door:telegram'))?.holder).toBe(app.presence.id);
      expect((await store.instances.list()).map((i) => i.id)).toEqual([app.presence.id]);
      await until(() => app.scheduler.nextRuns().has('nightly'), 5000, 'the cron job armed');

      await handle('hello');
      await until(() => events.includes('deliver Echo: hello'), 5000, 'the answer');
      expect(events).toEqual(['start', 'deliver Echo: hello']);
    } finally {
      await app.stop('test over');
      cleanup(home);
    }
  });

  it('stops in reverse: intake first (the lease held through the last poll), the running turn finishes and is sent, then the door closes and everything is released', async () => {
    const { app, home, events, handle } = await makeApp();
    try {
      await app.start();
      const stopScheduler = vi.spyOn(app.scheduler, 'stop');
      await handle('slow question');
      await until(() => model.completions().some((r) => lastUserText(r) === 'slow question'), 5000, 'the turn running');
      await app.stop('SIGTERM');
      expect(app.state).toBe('stopped');
      // The door stopped taking messages in while it still held its lease; the answer of the turn
      // that was running went out after that (within the grace period), and the door closed last.
      expect(events).toEqual(['start', 'stop (lease held)', 'deliver Echo: slow question', 'close']);
      expect(stopScheduler).toHaveBeenCalledWith(3000);
      // The store is closed: look at what the stop left through a fresh connection.
      const after = await openData(app.settings);
      try {
        expect(await after.leases.list()).toEqual([]);
        expect(await after.instances.list()).toEqual([]);
        expect(await after.outbox.counts()).toMatchObject({ pending: 0 });
      } finally {
        await after.close();
      }
    } finally {
      cleanup(home);
    }
  });

  it('a failed start is one line; the doors that came up are stopped and closed, and nothing is held', async () => {
    const up: string[] = [];
    const other: Adapter = {
      platform: 'slack',
      profile: PLATFORM_HINTS.slack,
      start: async () => void up.push('start'),
      stop: async () => void up.push('stop'),
      close: async () => void up.push('close'),
      deliver: async () => undefined,
    };
    const { app, home, events } = await makeApp({ failStart: 'telegram: 401 Unauthorized\n    at somewhere' }, [other]);
    try {
      await expect(app.start()).rejects.toThrow(/^telegram: 401 Unauthorized$/);
      expect(app.state).toBe('stopped');
      expect(up).toEqual(['start', 'stop', 'close']);
      expect(events).toEqual(['start', 'close']);
      const after = await openData(app.settings);
      try {
        expect(await after.leases.list()).toEqual([]);
        expect(await after.instances.list()).toEqual([]);
      } finally {
        await after.close();
      }
    } finally {
      cleanup(home);
    }
  });

  it('a stop while a door is still connecting ends the start (it resolves null): nothing more is started, everything is released', async () => {
    let connect: () => void = () => undefined;
    const connected = new Promise<void>((resolve) => (connect = resolve));
    const { app, home, events } = await makeApp({ connected });
    try {
      const starting = app.start();
      await until(() => events.includes('start'), 5000, 'the door connecting');
      const stopping = app.stop('SIGTERM');
      connect(); // the door connects only once the stop has begun
      await stopping;
      expect(await starting).toBeNull();
      expect(app.state).toBe('stopped');
      expect(events).toEqual(['start', 'stop (lease held)', 'close']);
      // start() went no further than the doors: no scheduler armed, no retention pass, no ready line.
      expect(app.scheduler.nextRuns().size).toBe(0);
    } finally {
      cleanup(home);
    }
  });
});
