/**
 * Retention (src/core/retention.ts over the SQLite engine): finished rows past their age go, in
 * batches; pending inbound events, undelivered or failed replies, running cron runs and (by default)
 * sessions stay; dedup still refuses a recent redelivery.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore, sqlitePath } from '../../src/store/sqlite/index.js';
import { applyRetention, cutoffs, formatTableSizes, Retention, type RetentionConfig } from '../../src/core/retention.js';
import { parseConfig } from '../../src/core/config.js';
import type { Store } from '../../src/core/store/types.js';
import type { InboundMessage } from '../../src/core/types.js';
import type { SessionAddress } from '../../src/platform/address.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-06-01T12:00:00Z');
const DEFAULTS: RetentionConfig = parseConfig('{}', 'test.yaml').retention;

let home: string;
let store: Store;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sb-retention-'));
  store = openSqliteStore({ path: sqlitePath(home), home });
});
afterEach(async () => {
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

function event(updateId: string, at: number): InboundMessage {
  return {
    platform: 'telegram',
    chatId: '1001',
    userId: '1001',
    text: 'hello',
    isDirect: true,
    mentionsBot: false,
    isReplyToBot: false,
    messageId: updateId,
    updateId,
    receivedAt: new Date(at),
    replyTarget: { platform: 'telegram', chatId: '1001' },
  };
}

const rows = async (name: string) => (await store.retention.tableSizes()).tables.find((t) => t.name === name)!.rows;

describe('retention config', () => {
  it('keeps journal and sent replies 7 days, cron runs 90, sessions until told otherwise', () => {
    expect(DEFAULTS).toEqual({ inbound_days: 7, outbox_sent_days: 7, cron_runs_days: 90, sessions_days: null, media_days: 30, interval_minutes: 60 });
    const c = cutoffs(DEFAULTS, NOW);
    expect(c.inboundBefore).toBe(NOW - 7 * DAY);
    expect(c.cronRunsBefore).toBe(NOW - 90 * DAY);
    expect(c.sessionsBefore).toBeUndefined();
  });

  it('refuses a journal shorter than a day (redelivered updates would be answered twice)', () => {
    expect(() => parseConfig('retention: { inbound_days: 0.5 }', 'x.yaml')).toThrow(/retention\.inbound_days/);
    expect(() => parseConfig('retention: { keep: 1 }', 'x.yaml')).toThrow(/unknown setting 'retention\.keep'/);
    expect(parseConfig('retention: { inbound_days: null }', 'x.yaml').retention.inbound_days).toBeNull();
  });
});

describe('applyRetention', () => {
  it('removes handled journal rows past the age, keeps pending ones, and still deduplicates recent ones', async () => {
    for (const [id, age] of [['old-done', 8], ['old-pending', 30], ['old-refused', 9], ['new-done', 1]] as const) {
      expect(await store.inbound.claim(event(id, NOW - age * DAY), 'k')).toBe(true);
    }
    await store.inbound.mark('telegram', 'old-done', 'done');
    await store.inbound.mark('telegram', 'old-refused', 'refused');
    await store.inbound.mark('telegram', 'new-done', 'done');
    const r = await applyRetention(store, DEFAULTS, NOW);
    expect(r.inbound).toBe(2);
    expect((await store.inbound.pending()).map((m) => m.updateId)).toEqual(['old-pending']);
    expect(await store.inbound.claim(event('new-done', NOW), 'k')).toBe(false);
    expect(await rows('inbound')).toBe(2);
  });

  it('removes sent replies past the age; pending and failed ones stay for delivery and the operator', async () => {
    const to = { platform: 'telegram' as const, chatId: '1001' };
    const oldSent = await store.outbox.enqueue(to, { chunks: ['a'] }, NOW - 10 * DAY);
    await store.outbox.sent(oldSent, NOW - 10 * DAY, 1);
    const newSent = await store.outbox.enqueue(to, { chunks: ['b'] }, NOW - DAY);
    await store.outbox.sent(newSent, NOW - DAY, 1);
    const failed = await store.outbox.enqueue(to, { chunks: ['c'] }, NOW - 20 * DAY);
    await store.outbox.failed(failed, 'chat not found');
    const pending = await store.outbox.enqueue(to, { chunks: ['d'] }, NOW - 20 * DAY);
    const r = await applyRetention(store, DEFAULTS, NOW);
    expect(r.outbox).toBe(1);
    expect(await store.outbox.get(oldSent)).toBeUndefined();
    expect(await store.outbox.get(newSent)).toBeDefined();
    expect((await store.outbox.get(failed))?.status).toBe('failed');
    expect((await store.outbox.pending()).map((i) => i.id)).toEqual([pending]);
  });

  it('removes finished cron runs past the age; a running one and the job’s last result stay', async () => {
    await store.cron.syncConfig([{ id: 'report', schedule: '0 9 * * *', prompt: 'Report.', deliver: { platform: 'email', chatId: 'a@example.com' }, enabled: true }], NOW - 200 * DAY);
    const old = await store.cron.claim('report', NOW - 100 * DAY, NOW - 100 * DAY, false);
    if (old.kind !== 'claimed') throw new Error('not claimed');
    await store.cron.finish(old.runId, 'report', 'ok', 'sent', NOW - 100 * DAY);
    const running = await store.cron.claim('report', NOW - 95 * DAY, NOW - 95 * DAY, false);
    const recent = await store.cron.claim('report', NOW - DAY, NOW - DAY, false);
    if (recent.kind !== 'claimed') throw new Error('not claimed');
    await store.cron.finish(recent.runId, 'report', 'ok', 'sent', NOW - DAY);
    const r = await applyRetention(store, DEFAULTS, NOW);
    expect(r.cronRuns).toBe(1);
    const left = await store.cron.runs('report', 10);
    expect(left.map((x) => x.status).sort()).toEqual(['ok', 'running']);
    expect(running.kind).toBe('claimed');
    expect((await store.cron.get('report'))?.lastStatus).toBe('ok');
    // A removed slot is never claimed again: the watermark stays on the job.
    expect((await store.cron.get('report'))?.lastSlot).toBe(NOW - DAY);
  });

  it('keeps sessions by default; with sessions_days it removes ended ones with their messages and index entries', async () => {
    const address = (u: string): SessionAddress => ({ platform: 'telegram', chatId: u, userId: u });
    const make = async (id: string, u: string) => {
      await store.sessions.create({ id, address: address(u), personKey: 'alice', startedAt: NOW - 60 * DAY, promptLayers: [], prompt: 'p', promptSha256: 'h', toolsSignature: '' });
      await store.messages.append(id, 'alice', [{ role: 'user', content: `zebra ${id}` }, { role: 'assistant', content: 'ok' }], NOW - 60 * DAY);
    };
    await make('ended-old', '1');
    await store.sessions.end('ended-old', 'idle', NOW - 40 * DAY);
    await make('open-old', '2');
    await make('ended-new', '3');
    await store.sessions.end('ended-new', 'idle', NOW - DAY);
    expect((await applyRetention(store, DEFAULTS, NOW)).sessions).toBe(0);
    expect(await store.sessions.count()).toBe(3);

    const r = await applyRetention(store, { ...DEFAULTS, sessions_days: 30 }, NOW);
    expect(r).toMatchObject({ sessions: 1, messages: 2 });
    expect(await store.sessions.get('ended-old')).toBeUndefined();
    expect((await store.messages.search('alice', 'zebra')).map((h) => h.sessionId).sort()).toEqual(['ended-new', 'open-old']);
    expect(await store.messages.count('open-old')).toBe(2);
  });

  it('works through a backlog larger than one batch', async () => {
    for (let i = 0; i < 4500; i++) await store.inbound.claim(event(`u${i}`, NOW - 30 * DAY), null);
    for (let i = 0; i < 4500; i++) await store.inbound.mark('telegram', `u${i}`, 'done');
    expect((await applyRetention(store, DEFAULTS, NOW)).inbound).toBe(4500);
    expect(await rows('inbound')).toBe(0);
  });
});

describe('Retention', () => {
  it('applies the policy at start, reports what it removed, and stops cleanly', async () => {
    await store.inbound.claim(event('x', NOW - 10 * DAY), null);
    await store.inbound.mark('telegram', 'x', 'done');
    const lines: string[] = [];
    const logger = { debug() {}, info: (_s: string, m: string) => lines.push(m), warn: (_s: string, m: string) => lines.push(m), error() {} };
    const retention = new Retention({ store, config: DEFAULTS, logger, now: () => new Date(NOW) });
    await retention.start();
    expect(lines).toEqual(['removed 1 inbound']);
    await retention.runOnce();
    expect(lines).toHaveLength(1);
    await retention.stop();
  });

  it('logs a failed pass instead of throwing', async () => {
    const lines: string[] = [];
    const broken = { retention: { prune: async () => Promise.reject(new Error('disk I/O error')), tableSizes: store.retention.tableSizes } };
    const logger = { debug() {}, info() {}, warn: (_s: string, m: string) => lines.push(m), error() {} };
    const retention = new Retention({ store: broken, config: { ...DEFAULTS, interval_minutes: 0 }, logger, now: () => new Date(NOW) });
    await retention.start();
    expect(lines[0]).toMatch(/pass failed.*disk I\/O error/);
  });

  it('gives doctor one line of table sizes', async () => {
    const line = formatTableSizes(await store.retention.tableSizes());
    expect(line).toMatch(/^sessions 0, messages 0, inbound 0, outbox 0, cron_jobs 0, cron_runs 0, pairing_codes 0, paired_users 0; \d+\.\d MB on disk$/);
  });
});
