/**
 * What only the shared engine has (ARCHITECTURE.md §9): several instances on one PostgreSQL database. Each
 * `open()` is its own pool, like a second `switchboard start` process.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ENGINES, postgresUrl, reportSkips, skipNote, type EngineDb } from '../../helpers/engines.js';
import { openPostgresStore } from '../../../src/store/postgres/index.js';
import { MIGRATIONS } from '../../../src/store/postgres/migrations.js';
import { redactUrl } from '../../../src/store/postgres/db.js';
import type { Store } from '../../../src/core/store/types.js';

const engine = ENGINES.find((e) => e.name === 'postgres')!;
reportSkips();

const T0 = Date.parse('2025-03-10T10:00:00Z');

describe.skipIf(Boolean(engine.skip))(`postgres: many instances on one database${skipNote(engine)}`, () => {
  let db: EngineDb;
  let a: Store;
  let b: Store;
  beforeEach(async () => {
    db = await engine.create();
    [a, b] = await Promise.all([db.open(), db.open()]);
  });
  afterEach(async () => {
    await Promise.all([a.close(), b.close()]);
    await db.cleanup();
  });

  it('migrates once when several instances start at once, and all of them work', async () => {
    const more = await Promise.all([db.open(), db.open(), db.open()]);
    try {
      for (const s of [a, b, ...more]) expect(await s.schemaVersion()).toBe(MIGRATIONS.length);
      const c = new pg.Client({ connectionString: db.location });
      await c.connect();
      try {
        const rows = (await c.query('SELECT version FROM switchboard_schema ORDER BY version')).rows.map((r) => r.version);
        expect(rows).toEqual(MIGRATIONS.map((_, i) => i + 1));
      } finally {
        await c.end();
      }
      await more[2].outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['x'] }, T0);
      expect((await a.outbox.pending()).length).toBe(1);
    } finally {
      await Promise.all(more.map((s) => s.close()));
    }
  });

  it('gives a chat’s due head to exactly one of two instances taking it at once', async () => {
    const chats = Array.from({ length: 20 }, (_, i) => ({ platform: 'telegram' as const, chatId: String(i) }));
    const ids = await Promise.all(chats.map((c) => a.outbox.enqueue(c, { chunks: ['x'] }, T0)));
    for (const chat of chats) {
      const got = await Promise.all([a.outbox.takeHead(chat, T0, 30_000), b.outbox.takeHead(chat, T0, 30_000), b.outbox.takeHead(chat, T0 + 1, 30_000)]);
      expect(got.filter((g) => g !== undefined)).toHaveLength(1);
    }
    // Once the lease ran out, the other instance may take it over.
    expect((await b.outbox.takeHead(chats[0], T0 + 30_000, 30_000))?.id).toBe(ids[0]);
  });

  it('never lets an instance pass over a head another one holds: the next reply of that chat waits', async () => {
    const chat = { platform: 'telegram' as const, chatId: '7' };
    const first = await a.outbox.enqueue(chat, { chunks: ['one'] }, T0);
    await a.outbox.enqueue(chat, { chunks: ['two'] }, T0);
    const got = await Promise.all([a.outbox.takeHead(chat, T0, 30_000), b.outbox.takeHead(chat, T0, 30_000)]);
    expect(got.filter((g) => g !== undefined).map((g) => g?.id)).toEqual([first]);
    expect(await b.outbox.takeHead(chat, T0 + 1, 30_000)).toBeUndefined();
  });

  it('runs a cron slot on exactly one instance', async () => {
    await a.cron.insertChatJob({ id: 'daily', owner: 'alice', schedule: '* * * * *', timezone: null, prompt: 'p', deliver: { platform: 'telegram', chatId: '1' } }, T0);
    for (let k = 0; k < 10; k++) {
      const slot = T0 + k * 60_000;
      const outcomes = await Promise.all([a.cron.claim('daily', slot, slot, false), b.cron.claim('daily', slot, slot, false), b.cron.claim('daily', slot, slot + 1, false)]);
      expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'taken')).toHaveLength(2);
    }
    expect((await b.cron.runs('daily')).length).toBe(10);
  });

  it('answers an inbound update once whichever instance received it', async () => {
    const message = {
      platform: 'telegram' as const, chatId: '1', userId: '1', text: 'hi', isDirect: true, mentionsBot: false, isReplyToBot: false,
      messageId: 'm1', updateId: 'u1', receivedAt: new Date(T0), replyTarget: { platform: 'telegram' as const, chatId: '1' },
    };
    const claims = await Promise.all([a.inbound.claim(message, null), b.inbound.claim(message, null)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('shares memory between instances and keeps it per person', async () => {
    await a.memory.write('alice', 'user', ['Prefers short answers.', 'Lives in Lyon.']);
    expect(await b.memory.read('alice', 'user')).toEqual(['Prefers short answers.', 'Lives in Lyon.']);
    expect(await b.memory.read('bob', 'user')).toEqual([]);
    await b.memory.write('alice', 'user', []);
    expect(await a.memory.read('alice', 'user')).toEqual([]);
  });

  it('keeps search per person across instances', async () => {
    const session = (id: string, person: string, chat: string) =>
      a.sessions.create({ id, address: { platform: 'slack', chatId: chat, userId: person }, personKey: person, startedAt: T0, promptLayers: [], prompt: 'x', promptSha256: 'h', toolsSignature: 's' });
    await session('sa', 'alice', 'D1');
    await session('sb', 'bob', 'D2');
    await a.messages.append('sa', 'alice', [{ role: 'user', content: 'my passport number is X123' }], T0);
    await b.messages.append('sb', 'bob', [{ role: 'user', content: 'my passport expires in May' }], T0);
    expect((await b.messages.search('alice', 'passport')).map((h) => h.sessionId)).toEqual(['sa']);
    expect((await a.messages.search('bob', 'passport X123')).map((h) => h.sessionId)).toEqual(['sb']);
    expect(await a.messages.search('bob', 'X123')).toEqual([]);
  });

  it('shows another instance nothing of an open transaction, and nothing at all after its rollback', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const written = new Promise<void>((r) => (inside = r));
    const tx = a.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['inside'] }, T0);
      inside();
      await held;
      throw new Error('rolled back');
    });
    await written;
    expect(await b.outbox.pending()).toEqual([]);
    expect(await a.outbox.pending()).toEqual([]); // the store's own pool sees committed rows only
    release();
    await expect(tx).rejects.toThrow('rolled back');
    expect(await b.outbox.pending()).toEqual([]);
    // A failed statement inside a transaction rolls it back whole.
    await expect(
      b.transaction(async (t) => {
        await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['first'] }, T0);
        await t.sessions.create({ id: 'dup', address: { platform: 'cli', chatId: 'local', userId: 'local' }, personKey: 'p', startedAt: T0, promptLayers: [], prompt: 'x', promptSha256: 'h', toolsSignature: 's' });
        await t.sessions.create({ id: 'dup', address: { platform: 'cli', chatId: 'local', userId: 'local' }, personKey: 'p', startedAt: T0, promptLayers: [], prompt: 'x', promptSha256: 'h', toolsSignature: 's' });
      }),
    ).rejects.toThrow();
    expect(await a.outbox.pending()).toEqual([]);
    expect(await a.sessions.count()).toBe(0);
  });
});

describe.skipIf(Boolean(engine.skip))(`postgres: opening${skipNote(engine)}`, () => {
  it('refuses a server that is not there with one line naming DATABASE_URL, password hidden', async () => {
    const url = 'postgres://sb:s3cret-pass@127.0.0.1:1/switchboard';
    const error = await openPostgresStore({ url }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^cannot use the database DATABASE_URL=postgres:\/\/sb:\*\*\*@127\.0\.0\.1:1\/switchboard \(ECONNREFUSED/);
    expect((error as Error).message).not.toContain('s3cret-pass');
    expect((error as Error).message).not.toContain('\n');
  });

  it('refuses a wrong password and a missing database with a hint', async () => {
    const server = new URL(postgresUrl());
    const wrong = new URL(server);
    wrong.password = 'not-the-password';
    const e1 = await openPostgresStore({ url: wrong.toString() }).catch((e: Error) => e);
    expect((e1 as Error).message).toContain('28P01');
    expect((e1 as Error).message).not.toContain('not-the-password');
    const missing = new URL(server);
    missing.pathname = '/no_such_db';
    const e2 = await openPostgresStore({ url: missing.toString() }).catch((e: Error) => e);
    expect((e2 as Error).message).toMatch(/3D000.*does not exist/);
  });

  it('hides the password when showing a URL', () => {
    expect(redactUrl('postgresql://u:p%40ss@db.internal:5432/sb')).toBe('postgresql://u:***@db.internal:5432/sb');
    expect(redactUrl('postgres://u:pa ss@')).not.toContain('pa ss');
  });

  it('refuses a database whose schema is newer than this Switchboard', async () => {
    const db = await engine.create();
    try {
      const s = await db.open();
      await s.close();
      const c = new pg.Client({ connectionString: db.location });
      await c.connect();
      await c.query('INSERT INTO switchboard_schema (version, applied_at) VALUES ($1, 0)', [MIGRATIONS.length + 1]);
      await c.end();
      await expect(db.open()).rejects.toThrow(/newer than this Switchboard/);
    } finally {
      await db.cleanup();
    }
  });
});

