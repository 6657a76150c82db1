/**
 * Attachments in the console's transcripts (ARCHITECTURE.md §12, §15), through Hono's `app.request` on a real
 * store (both engines): each message lists what it carried — a user's photo with a thumbnail the console
 * serves itself (behind its login, made by sharp), a voice note and a document as facts, the files a
 * reply sent — and the reply that is only a file still shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createConsoleApp } from '../../src/console/app.js';
import type { ConsoleDeps } from '../../src/console/types.js';
import type { Store } from '../../src/core/store/types.js';
import { Agent } from '../../src/core/agent.js';
import { sentFiles } from '../../src/core/outbound-files.js';
import { thumbnailImage } from '../../src/media/image.js';
import { ENGINES, reportSkips, skipNote, type EngineDb } from '../helpers/engines.js';
import { jpeg } from '../media/files.js';

reportSkips();
const TOKEN = 'console-attachments-token-0123456789';

describe.each(ENGINES)('attachments in transcripts on $name', (engine) => {
  let db: EngineDb;
  let store: Store;
  let app: ReturnType<typeof createConsoleApp>;
  let photoId = '';
  let chartId = '';

  beforeAll(async () => {
    if (engine.skip) return;
    db = await engine.create();
    store = await db.open();
    const now = Date.parse('2026-11-20T12:00:00Z');
    const session = await store.sessions.create({
      id: 'm1',
      address: { platform: 'telegram', chatId: '7', userId: '7' },
      personKey: 'telegram:7',
      startedAt: now,
      promptLayers: [{ name: 'identity', text: 'You are Switchboard.' }],
      prompt: 'You are Switchboard.',
      promptSha256: 'ab'.repeat(32),
      toolsSignature: '',
    });
    const photo = await store.media.put(await jpeg(1200, 800), 'image/jpeg');
    photoId = photo.id;
    const chart = await store.media.put(await jpeg(640, 480), 'image/jpeg');
    chartId = chart.id;
    const csv = await store.media.put(new TextEncoder().encode('a,b\n1,2\n'), 'text/csv');
    await store.messages.append(session.id, 'telegram:7', [
      {
        role: 'user',
        content: 'what is this? [voice note 0:04, transcribed] …',
        media: [{ id: photo.id, mime: 'image/jpeg', name: 'photo.jpg', bytes: photo.bytes }],
        files: [
          { kind: 'voice', name: 'voice.ogg', mime: 'audio/ogg', bytes: 9_120 },
          { kind: 'document', name: 'report.pdf', mime: 'application/pdf', bytes: 48_213 },
        ],
      },
      { role: 'assistant', content: 'A cat. Here is the chart.' },
    ], now);
    // A reply that is only files, stored as the gateway stores it (Agent.commit with the reply's outbox refs).
    const refs = [
      { media: chart.id, name: 'chart.jpg', mime: 'image/jpeg', size: chart.bytes },
      { media: csv.id, name: 'figures.csv', mime: 'text/csv', size: csv.bytes },
    ];
    const agent = Object.create(Agent.prototype) as Agent;
    await store.transaction((tx) =>
      agent.commit(tx, { answer: '', session, newMessages: [{ role: 'user', content: 'send the files' }, { role: 'assistant', content: '' }], usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0 }, requests: 1 }, 'telegram:7', now + 1000, refs),
    );
    expect(sentFiles(refs).map((f) => f.kind)).toEqual(['image', 'document']);
    const deps: ConsoleDeps = {
      store,
      token: TOKEN,
      secrets: [],
      doors: () => [],
      model: () => 'fake-model (openai)',
      cron: { nextRuns: () => new Map(), runNow: async () => ({ ok: true, detail: 'ran' }), changed: () => undefined },
      kickDelivery: () => undefined,
      thumbnail: (bytes) => thumbnailImage(bytes),
    };
    app = createConsoleApp(deps);
  });
  afterAll(async () => {
    await store?.close();
    await db?.cleanup();
  });

  const auth = { headers: { Authorization: `Bearer ${TOKEN}` } };

  it.skipIf(Boolean(engine.skip))(`lists each message's attachments, received and sent, with thumbnails of stored images${skipNote(engine)}`, async () => {
    const detail = (await (await app.request('/api/sessions/m1', auth)).json()) as {
      transcript: { items: Array<{ role: string; content: string; attachments: Array<{ kind: string; name: string; type: string; bytes: number; direction: string; thumbnail: string | null }> }> };
    };
    const items = detail.transcript.items;
    expect(items.map((m) => [m.role, m.attachments.map((a) => `${a.direction} ${a.kind} ${a.name} ${a.type}`)])).toEqual([
      ['user', ['in image photo.jpg image/jpeg', 'in voice voice.ogg audio/ogg', 'in document report.pdf application/pdf']],
      ['assistant', []],
      ['user', []],
      ['assistant', ['out image chart.jpg image/jpeg', 'out document figures.csv text/csv']],
    ]);
    expect(items[0].attachments.map((a) => a.thumbnail)).toEqual([`/media/${photoId}/thumbnail`, null, null]);
    expect(items[3].attachments.map((a) => a.thumbnail)).toEqual([`/media/${chartId}/thumbnail`, null]);

    const page = await (await app.request('/sessions/m1', auth)).text();
    expect(page).toContain(`<img src="/media/${photoId}/thumbnail" alt="photo.jpg"`);
    expect(page).toMatch(/received voice<\/span> <span class="name">voice.ogg<\/span> <small>audio\/ogg, 9 KB<\/small>/);
    expect(page).toMatch(/received document<\/span> <span class="name">report.pdf<\/span> <small>application\/pdf, 47 KB<\/small>/);
    expect(page).toMatch(/sent document<\/span> <span class="name">figures.csv<\/span> <small>text\/csv, 8 bytes<\/small>/);
    expect(page).not.toMatch(/<img src="http/);
  });

  it.skipIf(Boolean(engine.skip))(`serves the thumbnail itself, behind its login, and nothing for other files${skipNote(engine)}`, async () => {
    expect((await app.request(`/media/${photoId}/thumbnail`)).status).toBe(401);
    const res = await app.request(`/media/${photoId}/thumbnail`, auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 213]);
    expect((await app.request(`/media/${'0'.repeat(64)}/thumbnail`, auth)).status).toBe(404);
    const csv = await store.media.put(new TextEncoder().encode('a,b\n1,2\n'), 'text/csv');
    expect((await app.request(`/media/${csv.id}/thumbnail`, auth)).status).toBe(404);
  });
});
