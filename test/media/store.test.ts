import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { ENGINES, reportSkips, skipNote, storeForEachTest, type EngineDb } from '../helpers/engines.js';
import { sweepMedia } from '../../src/core/retention.js';
import type { Store } from '../../src/core/store/types.js';

reportSkips();

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const DAY = 24 * 60 * 60 * 1000;

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`media store on ${engine.name}${skipNote(engine)}`, () => {
    let db: EngineDb;
    let store: Store;
    storeForEachTest(engine, (o) => ({ db, store } = o));

    it('keeps bytes under their SHA-256, once, and gives them back byte for byte', async () => {
      const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 251);
      const ref = await store.media.put(bytes, 'image/jpeg');
      expect(ref).toEqual({ id: sha(bytes), mime: 'image/jpeg', bytes: 70_000 });
      const again = await store.media.put(bytes.slice(), 'image/jpeg');
      expect(again.id).toBe(ref.id);
      expect(Buffer.from((await store.media.get(ref.id))!).equals(Buffer.from(bytes))).toBe(true);
      expect(await store.media.stat(ref.id)).toEqual(ref);
      if (engine.name === 'sqlite') {
        expect(readdirSync(join(db.home, 'media'))).toEqual([ref.id]);
      }
    });

    it('another instance on the same database sees what one stored', async () => {
      const ref = await store.media.put(new TextEncoder().encode('hello'), 'text/plain');
      const second = await db.open();
      try {
        expect(new TextDecoder().decode(await second.media.get(ref.id))).toBe('hello');
      } finally {
        await second.close();
      }
    });

    it('answers nothing for an unknown or malformed id (never a path outside the store)', async () => {
      expect(await store.media.get('0'.repeat(64))).toBeUndefined();
      expect(await store.media.get('../state.db')).toBeUndefined();
      expect(await store.media.stat('../state.db')).toBeUndefined();
      expect(await store.media.delete('../state.db')).toBe(false);
    });

    it('deletes, and retention sweeps files past media_days (kept with null)', async () => {
      const old = await store.media.put(new Uint8Array([1, 2, 3]), 'application/octet-stream');
      const gone = await store.media.put(new Uint8Array([9]), 'application/octet-stream');
      expect(await store.media.delete(gone.id)).toBe(true);
      expect(await store.media.get(gone.id)).toBeUndefined();
      const config = { inbound_days: 7, outbox_sent_days: 7, cron_runs_days: 90, sessions_days: null, media_days: 30, interval_minutes: 0 };
      expect(await sweepMedia(store, { ...config, media_days: null }, Date.now() + 365 * DAY)).toBe(0);
      expect(await sweepMedia(store, config, Date.now() + 29 * DAY)).toBe(0);
      expect(await store.media.get(old.id)).toBeDefined();
      expect(await sweepMedia(store, config, Date.now() + 31 * DAY)).toBe(1);
      expect(await store.media.get(old.id)).toBeUndefined();
      if (engine.name === 'sqlite') expect(existsSync(join(db.home, 'media', old.id))).toBe(false);
    });
  });
}
