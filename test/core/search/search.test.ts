import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store/types.js';
import { ENGINES, reportSkips, skipNote, type EngineDb } from '../../helpers/engines.js';
import { analyzeQuery } from '../../../src/core/search/query.js';
import { searchSessions, BROAD_MIN_SESSIONS } from '../../../src/core/search/search.js';
import { excerpt } from '../../../src/core/search/summarize.js';
import type { PlatformId } from '../../../src/platform/ids.js';

let store: Store;
let n = 0;

async function session(person: string, platform: PlatformId, lines: string[], at = Date.parse('2025-02-01T09:00:00Z') + n * 3_600_000): Promise<string> {
  const id = `s${++n}`;
  await store.sessions.create({
    id,
    address: { platform, chatId: `c${n}`, userId: person },
    personKey: person,
    startedAt: at,
    promptLayers: [{ name: 'identity', text: 'x' }],
    prompt: 'x',
    promptSha256: 'h',
    toolsSignature: '',
  });
  await store.messages.append(
    id,
    person,
    lines.map((content, i) => (i % 2 ? { role: 'assistant' as const, content } : { role: 'user' as const, content })),
    at,
  );
  return id;
}

reportSkips();

describe('analyzeQuery', () => {
  it('drops function words and keeps the topic', () => {
    expect(analyzeQuery('what is the name of my cat?')).toEqual({ terms: ['name', 'cat'], asksOverview: false });
  });
  it('recognises overview questions and drops their meta words', () => {
    expect(analyzeQuery('What did we talk about regarding the invoice?')).toEqual({ terms: ['regarding', 'invoice'], asksOverview: true });
    expect(analyzeQuery('summarize our conversations')).toEqual({ terms: [], asksOverview: true });
  });
  it('keeps common words when nothing else is left', () => {
    expect(analyzeQuery('is it the one?')).toEqual({ terms: ['one'], asksOverview: false });
    expect(analyzeQuery('what is it?')).toEqual({ terms: ['what', 'is', 'it'], asksOverview: false });
  });
});

// The same cases on both engines (FTS5 on SQLite, tsvector on PostgreSQL).
for (const engine of ENGINES) {
  describe.skipIf(Boolean(engine.skip))(`searchSessions on ${engine.name}${skipNote(engine)}`, () => {
    let db: EngineDb;
    beforeEach(async () => {
      db = await engine.create();
      store = await db.open();
      n = 0;
    });
    afterEach(async () => {
      await store.close();
      await db.cleanup();
    });

    it("ranks this person's matches and never returns another person's, even with the same words", async () => {
      const alice = await session('alice', 'telegram', ['The deploy password rotation is every Tuesday', 'Noted: Tuesday rotation']);
      await session('bob', 'slack', ['The deploy password rotation is every Friday', 'Noted: Friday rotation']);
      const current = await session('alice', 'slack', ['hello']);
      const r = await searchSessions(store, 'alice', 'deploy password rotation', { excludeSessionId: current });
      expect(r.hits.length).toBeGreaterThan(0);
      expect(new Set(r.hits.map((h) => h.sessionId))).toEqual(new Set([alice]));
      expect(r.hits.map((h) => h.snippet).join(' ')).not.toContain('Friday');
      expect(r.hits[0].snippet).toContain('[deploy] [password] [rotation]');
      expect((await searchSessions(store, 'alice', 'Friday')).hits).toEqual([]);
      expect((await searchSessions(store, 'carol', 'deploy')).hits).toEqual([]);
    });

    it('leaves out the current session', async () => {
      const only = await session('alice', 'cli', ['remember the blue folder']);
      expect((await searchSessions(store, 'alice', 'blue folder', { excludeSessionId: only })).hits).toEqual([]);
      expect((await searchSessions(store, 'alice', 'blue folder')).hits).toHaveLength(1);
    });

    it('keeps ended and compressed sessions searchable', async () => {
      const old = await session('alice', 'telegram', ['the invoice number is 4471', 'ok']);
      await store.sessions.end(old, 'idle', Date.now());
      const rows = await store.messages.historyRows(old);
      await store.messages.compress(old, rows.map((r) => r.id), 'summary');
      const hits = (await searchSessions(store, 'alice', 'invoice 4471')).hits;
      expect(hits.map((h) => h.sessionId)).toEqual([old]);
    });

    it(`is broad when matches spread over more than ${BROAD_MIN_SESSIONS} sessions or an overview is asked`, async () => {
      for (let i = 0; i < BROAD_MIN_SESSIONS; i++) await session('alice', 'telegram', [`garden note ${i}`]);
      expect((await searchSessions(store, 'alice', 'garden')).broad).toBe(false);
      expect((await searchSessions(store, 'alice', 'recap the garden')).broad).toBe(true);
      await session('alice', 'slack', ['garden again']);
      const r = await searchSessions(store, 'alice', 'garden', { limit: 2 });
      expect(r.broad).toBe(true);
      expect(r.hits).toHaveLength(2);
      expect(r.sessions).toHaveLength(BROAD_MIN_SESSIONS + 1);
    });

    it('answers a topic-less overview question with the most recent other sessions that have messages', async () => {
      const a = await session('alice', 'telegram', ['one']);
      const b = await session('alice', 'slack', ['two']);
      const current = await session('alice', 'cli', ['three']);
      await session('bob', 'cli', ['four']);
      const r = await searchSessions(store, 'alice', 'what did we talk about?', { excludeSessionId: current });
      expect(r.broad).toBe(true);
      expect(r.recent.map((s) => s.sessionId)).toEqual([b, a]);
    });
  });
}

describe('excerpt', () => {
  const rows = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, role: i % 2 ? 'assistant' : 'user', content: `message ${i + 1} ${'x'.repeat(200)}` }));
  it('sends everything that fits', () => {
    expect(excerpt(rows.slice(0, 3), [], 10_000).split('\n')).toHaveLength(3);
  });
  it('centres on the matches when the session is long, marking gaps', () => {
    const text = excerpt(rows, [20], 2000);
    expect(text).toContain('message 20 ');
    expect(text).toContain('message 18 ');
    expect(text).toContain('message 22 ');
    expect(text).not.toContain('message 1 ');
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
  });
});
