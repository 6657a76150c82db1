/**
 * Doors under leases (ARCHITECTURE.md §9) on both engines: of two instances, one runs an exclusive door and
 * the other stands by (status says who holds it); a clean stop finishes the holder's last poll
 * before the lease goes, and the standby takes over at its next heartbeat — never two polling at
 * once; when the holder dies (no more renewals) the standby takes over once the lease expires.
 * A door that is not exclusive runs on both.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store/types.js';
import type { Adapter } from '../../../src/core/types.js';
import { DoorKeeper } from '../../../src/core/doors.js';
import { heldDoorLogs } from '../../../src/app-door-logs.js';
import type { Logger } from '../../../src/core/logger.js';
import { leaseTiming, Presence } from '../../../src/core/presence.js';
import { silentLogger } from '../../../src/core/logger.js';
import { PLATFORM_HINTS } from '../../../src/core/prompt/hints.js';
import { ENGINES, reportSkips, type EngineDb } from '../../helpers/engines.js';
import type { PlatformId } from '../../../src/platform/ids.js';

reportSkips();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Shared {
  log: string[];
  polling: Set<string>;
  maxPolling: number;
}

/** A door whose intake is a poll loop: stop() takes a while (its last poll) and records who held the lease then. */
function pollingDoor(instance: string, shared: Shared, store: Store, exclusive = true, platform: PlatformId = 'telegram'): Adapter {
  return {
    platform,
    profile: PLATFORM_HINTS[platform],
    exclusiveIntake: exclusive,
    async start() {
      if (exclusive) shared.polling.add(instance);
      shared.maxPolling = Math.max(shared.maxPolling, shared.polling.size);
      shared.log.push(`start ${platform} ${instance}`);
    },
    async stop() {
      await sleep(150); // the last poll, confirming what was handled
      const lease = await store.leases.get(`door:${platform}`);
      shared.log.push(`stopped ${platform} ${instance} (lease held by ${lease?.holder ?? 'nobody'})`);
      shared.polling.delete(instance);
    },
    async close() {},
    async deliver() {},
  };
}

async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`doors under leases on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
    let db: EngineDb;
    const stores: Store[] = [];
    beforeEach(async () => {
      db = await engine.create();
    });
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await db.cleanup();
    });

    async function instance(id: string, shared: Shared, ttlSeconds = 0.6) {
      const store = await db.open();
      stores.push(store);
      const presence = new Presence({ store, instanceId: id, timing: leaseTiming(ttlSeconds), logger: silentLogger, now: () => new Date() });
      const doors = new DoorKeeper({ store, presence, logger: silentLogger });
      return { store, presence, doors };
    }

    it('runs an exclusive door on one instance; a clean stop ends its last poll before the standby takes over', async () => {
      const shared: Shared = { log: [], polling: new Set(), maxPolling: 0 };
      const a = await instance('inst-a', shared);
      const b = await instance('inst-b', shared);
      await a.presence.start();
      await b.presence.start();
      await a.doors.open([pollingDoor('inst-a', shared, a.store), pollingDoor('inst-a', shared, a.store, false, 'slack')], async () => 'accepted');
      await b.doors.open([pollingDoor('inst-b', shared, b.store), pollingDoor('inst-b', shared, b.store, false, 'slack')], async () => 'accepted');
      expect(await a.doors.status()).toEqual([
        { platform: 'telegram', exclusive: true, state: 'running', holder: 'inst-a', instance: 'inst-a' },
        { platform: 'slack', exclusive: false, state: 'running', holder: null, instance: 'inst-a' },
      ]);
      expect((await b.doors.status())[0]).toEqual({ platform: 'telegram', exclusive: true, state: 'standby', holder: 'inst-a', instance: 'inst-b' });
      await sleep(700); // past one TTL: the holder renews, the standby keeps waiting
      expect((await b.doors.status())[0].state).toBe('standby');

      await a.doors.close();
      await a.presence.stop();
      await until(async () => (await b.doors.status())[0].state === 'running', 2000, 'the standby to take the door over');
      expect(shared.log.filter((l) => l.includes('telegram'))).toEqual(['start telegram inst-a', 'stopped telegram inst-a (lease held by inst-a)', 'start telegram inst-b']);
      expect(shared.log).toContain('start slack inst-b'); // not exclusive: runs on both
      expect(shared.maxPolling).toBe(1);
      await b.doors.close();
      await b.presence.stop();
    });

    it('opens the doors together, the terminal once the others are up; a failed door fails open() with the first failure in order, and close() stops the doors that started', async () => {
      const { presence, doors } = await instance('inst-a', { log: [], polling: new Set(), maxPolling: 0 });
      await presence.start();
      const log: string[] = [];
      // What reaches the log: as a one-by-one start in door order would have written it.
      const written: string[] = [];
      const base: Logger = { debug() {}, info: (scope, m) => written.push(`${scope}: ${m}`), warn: (scope, m) => written.push(`${scope}: ${m}`), error() {} };
      const logs = heldDoorLogs(base);
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      const door = (platform: PlatformId, start: () => Promise<void>, exclusive = false): Adapter => ({
        platform,
        profile: PLATFORM_HINTS[platform],
        exclusiveIntake: exclusive,
        async start() {
          log.push(`starting ${platform}`);
          logs.loggerFor(platform).info(platform, 'connecting');
          await start();
          log.push(`up ${platform}`);
          logs.loggerFor(platform).info(platform, 'connected');
        },
        async stop() {
          log.push(`stopped ${platform}`);
        },
        async close() {},
        async deliver() {},
      });
      const opening = doors.open(
        [
          door('telegram', () => gate, true),
          door('slack', async () => {
            await sleep(30);
            throw new Error('slack: invalid_auth');
          }),
          door('discord', async () => {
            await sleep(10);
            throw new Error('discord: bad token');
          }),
          door('email', async () => undefined),
          door('cli', async () => undefined),
        ],
        async () => 'accepted',
        logs,
      );
      // Every network door is starting while Telegram still waits for its server.
      await until(() => log.filter((l) => l.startsWith('starting')).length === 4, 2000, 'the doors to start together');
      expect(log).not.toContain('starting cli');
      release();
      await expect(opening).rejects.toThrow('slack: invalid_auth');
      expect(log).not.toContain('starting cli'); // no terminal prompt before a failed start's error line
      // Telegram finished last but is told first; Discord failed first but comes after Slack, the first
      // failure in order, so it (and e-mail) never shows, as when the doors started one by one.
      expect(written).toEqual(['telegram: connecting', 'telegram: connected', 'slack: connecting']);
      await doors.close();
      expect(log.filter((l) => l.startsWith('stopped')).sort()).toEqual(['stopped email', 'stopped telegram']);
      await presence.stop();
    });

    it('takes the door over once a dead holder’s lease expires', async () => {
      const shared: Shared = { log: [], polling: new Set(), maxPolling: 0 };
      const a = await instance('inst-a', shared);
      const b = await instance('inst-b', shared);
      // inst-a never renews (its heartbeat is not running): like a process that was killed.
      await a.doors.open([pollingDoor('inst-a', shared, a.store)], async () => 'accepted');
      await b.presence.start();
      await b.doors.open([pollingDoor('inst-b', shared, b.store)], async () => 'accepted');
      expect((await b.doors.status())[0]).toMatchObject({ state: 'standby', holder: 'inst-a' });
      // The lease is 0.6 s here; how fast the takeover is with the default lease is measured by the bench.
      await until(async () => (await b.doors.status())[0].state === 'running', 5000, 'the takeover');
      expect((await b.doors.status())[0].holder).toBe('inst-b');
      expect(shared.log).toEqual(['start telegram inst-a', 'start telegram inst-b']);
      await b.doors.close();
      await b.presence.stop();
    });
  });
}
