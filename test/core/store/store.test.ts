/**
 * The SQLite engine through the `Store` interface (src/core/store/types.ts): repositories, one
 * transaction at a time with everything it wrote committed together or not at all, callers outside
 * a transaction kept out of it, and the upgrade of a round-1 database to address columns.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import { MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import type { NewSession, Repositories, Store } from '../../../src/core/store/types.js';
import type { InboundMessage } from '../../../src/core/types.js';
import { cronSessionAddress, formatSessionKey, type SessionAddress } from '../../../src/platform/address.js';

let home: string;
let store: Store;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sb-engine-'));
  store = openSqliteStore({ path: sqlitePath(home), home });
});
afterEach(async () => {
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

const T0 = Date.parse('2025-03-10T10:00:00Z');

function newSession(id: string, address: SessionAddress, personKey = 'alice'): NewSession {
  return { id, address, personKey, startedAt: T0, promptLayers: [{ name: 'identity', text: 'x' }], prompt: 'x', promptSha256: 'h', toolsSignature: 's' };
}

function inbound(updateId: string): InboundMessage {
  return {
    platform: 'telegram',
    chatId: '1001',
    userId: '1001',
    text: 'hello',
    isDirect: true,
    mentionsBot: false,
    messageId: updateId,
    updateId,
    receivedAt: new Date(T0),
    replyTarget: { platform: 'telegram', chatId: '1001' },
  };
}

/** Resolves after other pending callbacks (microtasks and due timers) have run. */
const settle = () => new Promise<void>((r) => setTimeout(r, 5));

/** A promise and its resolver, to hold a transaction open. */
function latch(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** Whether `p` has settled, without waiting for it. */
function tracked<T>(p: Promise<T>): { done: () => boolean; promise: Promise<T> } {
  let done = false;
  const promise = p.finally(() => (done = true));
  return { done: () => done, promise };
}

/** Every kind of row a transaction can write, through the transaction's repositories. */
async function writeOneOfEach(tx: Repositories): Promise<void> {
  await tx.sessions.create(newSession('s-tx', { platform: 'telegram', chatId: '1001', userId: '1001' }));
  await tx.messages.append('s-tx', 'alice', [{ role: 'user', content: 'rolled back words' }], T0);
  await tx.inbound.claim(inbound('u-tx'), 'telegram:1001:1001');
  await tx.outbox.enqueue({ platform: 'telegram', chatId: '1001' }, { chunks: ['reply'] }, T0);
  await tx.cron.insertChatJob({ id: 'job-tx', owner: 'alice', schedule: '0 9 * * *', timezone: null, prompt: 'p', deliver: { platform: 'telegram', chatId: '1001' } }, T0);
  await tx.pairing.request('slack', 'U9', 'D9', T0);
}

async function countAll(s: Store) {
  return {
    sessions: await s.sessions.count(),
    messages: (await s.messages.searchAll('rolled back words')).length,
    inboundPending: (await s.inbound.pending()).length,
    outbox: (await s.outbox.pending()).length,
    cron: (await s.cron.list()).length,
    pairing: (await s.pairing.list(T0)).length,
  };
}

const NOTHING = { sessions: 0, messages: 0, inboundPending: 0, outbox: 0, cron: 0, pairing: 0 };

describe('repositories', () => {
  it('keeps a session’s address as given and finds it by that address only', async () => {
    const threaded: SessionAddress = { platform: 'slack', chatId: 'C1', threadId: '1700000000.000100', userId: 'U1' };
    const created = await store.sessions.create(newSession('s1', threaded));
    expect(created.address).toEqual(threaded);
    expect(created.key).toBe(formatSessionKey(threaded));
    expect((await store.sessions.findOpen(threaded))?.id).toBe('s1');
    expect(await store.sessions.findOpen({ ...threaded, userId: 'U2' })).toBeUndefined();
    expect(await store.sessions.findOpen({ platform: 'slack', chatId: 'C1', userId: 'U1' })).toBeUndefined();
    // Parts holding ':' do not collide with a longer address.
    await store.sessions.create(newSession('s2', { platform: 'email', chatId: 'a:b', userId: 'c' }));
    expect(await store.sessions.findOpen({ platform: 'email', chatId: 'a', threadId: 'b', userId: 'c' })).toBeUndefined();
    expect((await store.sessions.findOpen({ platform: 'email', chatId: 'a:b', userId: 'c' }))?.id).toBe('s2');
    expect((await store.sessions.findOpen(cronSessionAddress('daily'))) ?? null).toBeNull();
  });

  it('searches and reads only the owner’s messages', async () => {
    await store.sessions.create(newSession('a1', { platform: 'telegram', chatId: '1', userId: '1' }, 'alice'));
    await store.sessions.create(newSession('b1', { platform: 'telegram', chatId: '2', userId: '2' }, 'bob'));
    await store.messages.append('a1', 'alice', [{ role: 'user', content: 'the cat is called Miso' }, { role: 'assistant', content: 'noted' }], T0);
    await store.messages.append('b1', 'bob', [{ role: 'user', content: 'the cat is called Rex' }], T0);
    expect((await store.messages.search('alice', 'cat')).map((h) => h.sessionId)).toEqual(['a1']);
    expect(await store.messages.search('alice', 'Rex')).toEqual([]);
    expect(await store.messages.transcript('b1', 'alice')).toEqual([]);
    expect((await store.messages.transcript('a1', 'alice')).map((l) => l.content)).toEqual(['the cat is called Miso', 'noted']);
    expect((await store.messages.searchAll('cat')).map((h) => h.personKey).sort()).toEqual(['alice', 'bob']);
  });

  it('keeps an outbox target’s address and details, ordered per chat', async () => {
    const target = { platform: 'telegram' as const, chatId: '-100123', threadId: '42', replyToMessageId: '7' };
    const first = await store.outbox.enqueue(target, { chunks: ['one'] }, T0, 'telegram:-100123:42:1001');
    await store.outbox.enqueue(target, { chunks: ['two'] }, T0 + 1);
    expect((await store.outbox.get(first))?.target).toEqual(target);
    expect((await store.outbox.headOf({ platform: 'telegram', chatId: '-100123', threadId: '42' }))?.id).toBe(first);
    expect(await store.outbox.headOf({ platform: 'telegram', chatId: '-100123' })).toBeUndefined();
    expect((await store.outbox.heads()).map((i) => i.id)).toEqual([first]);
  });

  it('claims an inbound update once', async () => {
    expect(await store.inbound.claim(inbound('u1'), null)).toBe(true);
    expect(await store.inbound.claim(inbound('u1'), null)).toBe(false);
    await store.inbound.mark('telegram', 'u1', 'done');
    expect(await store.inbound.pending()).toEqual([]);
  });

  it('reads and writes memory per person and file', async () => {
    await store.memory.write('alice', 'memory', ['Likes tea.']);
    expect(await store.memory.read('alice', 'memory')).toEqual(['Likes tea.']);
    expect(await store.memory.read('alice', 'user')).toEqual([]);
    expect(await store.memory.read('bob', 'memory')).toEqual([]);
  });
});

describe('transactions', () => {
  it('commits everything a transaction wrote together', async () => {
    const value = await store.transaction(async (tx) => {
      await writeOneOfEach(tx);
      return 'done';
    });
    expect(value).toBe('done');
    expect(await countAll(store)).toEqual({ sessions: 1, messages: 1, inboundPending: 1, outbox: 1, cron: 1, pairing: 1 });
  });

  it('rolls back everything a transaction wrote when it throws, and passes the error on', async () => {
    const boom = new Error('boom');
    await expect(
      store.transaction(async (tx) => {
        await writeOneOfEach(tx);
        await settle();
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await countAll(store)).toEqual(NOTHING);
    // The store is usable afterwards.
    await store.transaction(async (tx) => writeOneOfEach(tx));
    expect((await countAll(store)).sessions).toBe(1);
  });

  it('makes a call on the store wait while a transaction is open, then see all of it', async () => {
    const hold = latch();
    const inside = latch();
    const tx = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['a'] }, T0);
      inside.open();
      await hold.promise;
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['b'] }, T0);
    });
    await inside.promise;
    const read = tracked(store.outbox.pending());
    await settle();
    expect(read.done()).toBe(false);
    hold.open();
    await tx;
    expect((await read.promise).map((i) => i.message.chunks[0])).toEqual(['a', 'b']);
  });

  it('keeps a write made outside an open transaction out of it (it survives the rollback)', async () => {
    const hold = latch();
    const inside = latch();
    const tx = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['inside'] }, T0);
      inside.open();
      await hold.promise;
      throw new Error('rolled back');
    });
    await inside.promise;
    const outside = store.outbox.enqueue({ platform: 'telegram', chatId: '2' }, { chunks: ['outside'] }, T0);
    hold.open();
    await expect(tx).rejects.toThrow('rolled back');
    await outside;
    expect((await store.outbox.pending()).map((i) => i.message.chunks[0])).toEqual(['outside']);
  });

  it('does not run a call made just before a transaction inside it', async () => {
    const outside = store.outbox.enqueue({ platform: 'telegram', chatId: '2' }, { chunks: ['outside'] }, T0);
    const tx = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['inside'] }, T0);
      await settle();
      throw new Error('rolled back');
    });
    await expect(tx).rejects.toThrow('rolled back');
    await outside;
    expect((await store.outbox.pending()).map((i) => i.message.chunks[0])).toEqual(['outside']);
  });

  it('keeps a waiting call out of the next waiting transaction too', async () => {
    const hold = latch();
    const inside = latch();
    const first = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['first'] }, T0);
      inside.open();
      await hold.promise;
    });
    await inside.promise;
    const second = store.transaction(async (t) => {
      await t.outbox.enqueue({ platform: 'telegram', chatId: '1' }, { chunks: ['second'] }, T0);
      await settle();
      throw new Error('second rolled back');
    });
    const outside = store.outbox.enqueue({ platform: 'telegram', chatId: '2' }, { chunks: ['outside'] }, T0);
    hold.open();
    await first;
    await expect(second).rejects.toThrow('second rolled back');
    await outside;
    expect((await store.outbox.pending()).map((i) => i.message.chunks[0]).sort()).toEqual(['first', 'outside']);
  });

  it('runs concurrent transactions one after the other', async () => {
    const order: string[] = [];
    const run = (name: string) =>
      store.transaction(async (t) => {
        order.push(`${name} start`);
        await t.outbox.enqueue({ platform: 'telegram', chatId: name }, { chunks: [name] }, T0);
        await settle();
        order.push(`${name} end`);
      });
    await Promise.all([run('a'), run('b'), run('c')]);
    expect(order).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect((await store.outbox.pending()).length).toBe(3);
  });
});

describe('migration from a round-1 database', () => {
  /** A database at schema version 1 as round 1 wrote it: "where" as strings. */
  function roundOne(path: string): void {
    const db = new Database(path);
    try {
      db.pragma('journal_mode = WAL');
      db.exec(MIGRATIONS[0] as string);
      db.pragma('user_version = 1');
      const session = db.prepare(
        `INSERT INTO sessions (id, key, platform, person_key, started_at, last_active_at, prompt, prompt_sha256, prompt_layers)
         VALUES (?, ?, ?, ?, ?, ?, 'stored prompt', 'h', '[{"name":"identity","text":"stored prompt"}]')`,
      );
      session.run('s-thread', 'telegram:-100123:42:1001', 'telegram', 'alice', T0, T0);
      session.run('s-dm', 'slack:D1:U1', 'slack', 'alice', T0, T0 + 1);
      session.run('s-cron', 'cron:daily-report', 'cron', 'cron-daily-report', T0, T0);
      const outbox = db.prepare(
        `INSERT INTO outbox (session_key, chat_key, target, message, created_at, next_attempt_at) VALUES (?, ?, ?, '{"chunks":["pending reply"]}', ?, ?)`,
      );
      outbox.run('telegram:-100123:42:1001', 'telegram:-100123:42', '{"platform":"telegram","chatId":"-100123","threadId":"42","replyToMessageId":"77"}', T0, T0);
      outbox.run('slack:D1:U1', 'slack:D1:', '{"platform":"slack","chatId":"D1"}', T0, T0);
      const job = db.prepare(
        `INSERT INTO cron_jobs (id, source, owner, schedule, timezone, prompt, deliver, created_at) VALUES (?, ?, ?, '0 9 * * 1-5', NULL, 'Report.', ?, ?)`,
      );
      job.run('daily-report', 'config', null, 'email:alice@example.com', T0);
      job.run('standup', 'chat', 'alice', 'telegram:-100123:42', T0);
    } finally {
      db.close();
    }
  }

  it('fills the address columns and reaches the latest schema version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-round1-'));
    try {
      roundOne(sqlitePath(dir));
      const old = openSqliteStore({ path: sqlitePath(dir), home: dir });
      try {
        expect(await old.schemaVersion()).toBe(MIGRATIONS.length);

        const thread: SessionAddress = { platform: 'telegram', chatId: '-100123', threadId: '42', userId: '1001' };
        expect((await old.sessions.get('s-thread'))?.address).toEqual(thread);
        expect((await old.sessions.get('s-dm'))?.address).toEqual({ platform: 'slack', chatId: 'D1', userId: 'U1' });
        expect((await old.sessions.get('s-cron'))?.address).toEqual(cronSessionAddress('daily-report'));
        expect((await old.sessions.findOpen(thread))?.prompt).toBe('stored prompt');
        expect((await old.sessions.findOpen(cronSessionAddress('daily-report')))?.id).toBe('s-cron');
        expect((await old.sessions.findOpenForUser('telegram', '1001')).map((s) => s.id)).toEqual(['s-thread']);
        expect((await old.sessions.findOpenForUser('slack', 'U1')).map((s) => s.id)).toEqual(['s-dm']);

        const pending = await old.outbox.pending();
        expect(pending.map((i) => i.target)).toEqual([
          { platform: 'telegram', chatId: '-100123', threadId: '42', replyToMessageId: '77' },
          { platform: 'slack', chatId: 'D1' },
        ]);
        // Still delivered in order after the upgrade: found by the chat's address, ahead of new replies.
        expect((await old.outbox.headOf({ platform: 'telegram', chatId: '-100123', threadId: '42' }))?.id).toBe(pending[0].id);
        await old.outbox.enqueue({ platform: 'slack', chatId: 'D1' }, { chunks: ['new reply'] }, T0 + 10);
        expect((await old.outbox.headOf({ platform: 'slack', chatId: 'D1' }))?.id).toBe(pending[1].id);
        expect((await old.outbox.heads()).map((i) => i.id)).toEqual([pending[0].id, pending[1].id]);

        expect((await old.cron.get('daily-report'))?.deliver).toEqual({ platform: 'email', chatId: 'alice@example.com' });
        expect((await old.cron.get('standup'))?.deliver).toEqual({ platform: 'telegram', chatId: '-100123', threadId: '42' });
      } finally {
        await old.close();
      }
      // Opening again migrates nothing more.
      const again = openSqliteStore({ path: sqlitePath(dir), home: dir });
      expect(await again.schemaVersion()).toBe(MIGRATIONS.length);
      expect((await again.sessions.get('s-thread'))?.address.threadId).toBe('42');
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
