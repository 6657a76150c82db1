/** The live stream rows (ARCHITECTURE.md §10) on both engines: saved as messages are posted, cleared with the reply's transaction, kept by a rollback. */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store/types.js';
import { ENGINES, storeForEachTest, reportSkips, type EngineDb } from '../../helpers/engines.js';

reportSkips();

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`live streams on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
    let db: EngineDb;
    let store: Store;
    storeForEachTest(engine, (opened) => ({ db, store } = opened));

    it('keeps the ids per session across a reopen, replaces them as messages are added, and forgets them when cleared in a transaction', async () => {
      expect(await store.streams.get('telegram:-1:7')).toEqual([]);
      await store.streams.save('telegram:-1:7', ['11'], 1);
      await store.streams.save('telegram:-1:7', ['11', '12'], 2);
      await store.streams.save('telegram:-2:8', ['90'], 2);
      await store.close();
      store = await db.open();
      expect(await store.streams.get('telegram:-1:7')).toEqual(['11', '12']);
      await expect(
        store.transaction(async (tx) => {
          await tx.streams.clear('telegram:-1:7');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await store.streams.get('telegram:-1:7')).toEqual(['11', '12']);
      await store.transaction((tx) => tx.streams.clear('telegram:-1:7'));
      expect(await store.streams.get('telegram:-1:7')).toEqual([]);
      expect(await store.streams.get('telegram:-2:8')).toEqual(['90']);
    });
  });
}
