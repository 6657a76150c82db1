/**
 * Files in the outbox (ARCHITECTURE.md §15) on both engines: a reply's files are parts after its text
 * chunks, stored as media references (never bytes or paths), read from the media store when sent,
 * resumed from the first unconfirmed part, and parked with the file's name when its bytes are gone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, reportSkips, skipNote, storeForEachTest } from '../helpers/engines.js';
import { DeliveryService } from '../../src/core/delivery.js';
import { Replies } from '../../src/core/gateway/replies.js';
import { TurnFiles } from '../../src/core/outbound-files.js';
import { silentLogger } from '../../src/core/logger.js';
import { PlatformApiError } from '../../src/core/errors.js';
import { PLATFORM_HINTS } from '../../src/core/prompt/hints.js';
import type { Store } from '../../src/core/store/types.js';
import type { Adapter, Delivery } from '../../src/core/types.js';
import { pdfFile, pngFile } from '../helpers/media-files.js';

reportSkips();

const chat = { platform: 'telegram' as const, chatId: '1001' };

/** A door that records each part it is handed (text or file bytes); `failAt` fails that part once, retryably. */
function door(failAt?: number) {
  const parts: Array<string | Buffer> = [];
  let failed = false;
  const adapter: Adapter = {
    platform: 'telegram',
    profile: PLATFORM_HINTS.telegram,
    start: async () => undefined,
    stop: async () => undefined,
    close: async () => undefined,
    async deliver(d: Delivery) {
      const total = d.message.chunks.length + (d.message.files?.length ?? 0);
      for (let i = d.firstChunk; i < total; i++) {
        if (i === failAt && !failed) {
          failed = true;
          throw new PlatformApiError({ platform: 'telegram', method: 'sendDocument', message: 'network down', retryable: true });
        }
        const j = i - d.message.chunks.length;
        parts.push(j < 0 ? d.message.chunks[i] : Buffer.from(d.files![j].data));
        await d.onChunkSent(i);
      }
    },
  };
  return { adapter, parts };
}

for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`files in the outbox (${engine.name})${skipNote(engine)}`, () => {
    let store: Store;
    storeForEachTest(engine, (o) => ({ store } = o));
    const services: DeliveryService[] = [];
    afterEach(async () => {
      for (const s of services.splice(0)) {
        s.stop();
        await s.idle();
      }
    });

    function deliveryFor(adapter: Adapter): DeliveryService {
      const s = new DeliveryService({ store, adapter: () => adapter, logger: silentLogger, maxAttempts: 3, backoffMs: () => 10, pollMs: 20 });
      services.push(s);
      s.start();
      return s;
    }

    async function replyWithFiles(text: string, files: Buffer[]): Promise<number> {
      const turn = new TurnFiles(store.media);
      for (const [i, data] of files.entries()) await turn.attach({ data, name: `file-${i}.${i ? 'pdf' : 'png'}`, caption: i ? undefined : 'first' });
      const replies = new Replies({ store, render: (_p, md) => ({ chunks: md ? [md] : [] }), kick: () => undefined, now: () => new Date() });
      const id = await replies.send(chat, text, null, { files: turn.refs });
      return id!;
    }

    it('keeps only references in the outbox and sends text, then each file, byte-identical; a failed upload resumes at that file', async () => {
      const png = pngFile(40, 30);
      const pdf = pdfFile('outbox');
      const id = await replyWithFiles('Two files.', [png, pdf]);
      const item = await store.outbox.get(id);
      expect(item?.message.files?.map((f) => [f.name, f.mime, f.size, f.caption])).toEqual([
        ['file-0.png', 'image/png', png.length, 'first'],
        ['file-1.pdf', 'application/pdf', pdf.length, undefined],
      ]);
      expect(JSON.stringify(item?.message)).not.toContain(pdf.toString('base64').slice(0, 32));
      const d = door(2); // the second file fails once
      const service = deliveryFor(d.adapter);
      service.kick(chat);
      expect(await service.waitFor(id)).toBe(true);
      expect(d.parts[0]).toBe('Two files.');
      expect((d.parts[1] as Buffer).equals(png)).toBe(true);
      expect((d.parts[2] as Buffer).equals(pdf)).toBe(true);
      expect(d.parts).toHaveLength(3); // nothing twice: the retry resumed at the failed file
      expect((await store.outbox.get(id))?.nextChunk).toBe(3);
    });

    it('a reply of files only is stored and sent; a file whose bytes are gone is parked naming it, never sent as text', async () => {
      const png = pngFile(10, 10);
      const id = await replyWithFiles('', [png]);
      expect((await store.outbox.get(id))?.message.chunks).toEqual([]);
      const ref = (await store.outbox.get(id))!.message.files![0];
      await store.media.delete(ref.media);
      const d = door();
      const service = deliveryFor(d.adapter);
      service.kick(chat);
      expect(await service.waitFor(id)).toBe(false);
      expect(d.parts).toEqual([]);
      const parked = await store.outbox.get(id);
      expect(parked?.status).toBe('failed');
      expect(parked?.lastError).toMatch(/file-0\.png is no longer in the media store/);
    });
  });
}
