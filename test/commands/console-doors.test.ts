/**
 * `switchboard console` alone takes no messages in; its overview shows the doors as the gateway
 * instances on the same database run them (ARCHITECTURE.md §9, §12): an exclusive door where its lease is
 * held, the others on every live instance.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/store/types.js';
import type { Adapter } from '../../src/core/types.js';
import { gatewayDoors } from '../../src/commands/console.js';
import { ENGINES, storeForEachTest, reportSkips } from '../helpers/engines.js';

reportSkips();

const T0 = Date.parse('2026-03-10T10:00:00Z');
const door = (platform: Adapter['platform'], exclusiveIntake: boolean) => ({ platform, exclusiveIntake }) as Adapter;
const DOORS = [door('telegram', true), door('slack', false)];

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`console doors on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
    let store: Store;
    storeForEachTest(engine, (opened) => ({ store } = opened));

    it('says stopped when no gateway instance runs, then who holds the exclusive door and where the others run', async () => {
      expect(await gatewayDoors(store, DOORS, T0)).toEqual([
        { platform: 'telegram', state: 'stopped', detail: 'no gateway instance is running on this database' },
        { platform: 'slack', state: 'stopped', detail: 'no gateway instance is running on this database' },
      ]);
      await store.instances.heartbeat({ id: 'gw-a', host: 'h', pid: 1, startedAt: T0 }, T0, 15_000);
      await store.instances.heartbeat({ id: 'gw-b', host: 'h', pid: 2, startedAt: T0 }, T0, 15_000);
      expect((await gatewayDoors(store, DOORS, T0 + 1000))[0]).toEqual({ platform: 'telegram', state: 'standby', detail: 'no instance holds it right now' });
      await store.leases.acquire('door:telegram', 'gw-b', T0, 15_000);
      expect(await gatewayDoors(store, DOORS, T0 + 1000)).toEqual([
        { platform: 'telegram', state: 'running', detail: 'held by gw-b' },
        { platform: 'slack', state: 'running', detail: 'on 2 gateway instance(s)' },
      ]);
      // the holder died: its lease and heartbeat run out
      expect((await gatewayDoors(store, DOORS, T0 + 20_000))[0]).toMatchObject({ state: 'stopped' });
    });
  });
}
