import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';
import type { CronRepo, Store } from '../../../src/core/store/types.js';
import { CronScheduler } from '../../../src/core/cron/scheduler.js';
import { parseDeliverableAddress } from '../../../src/platform/address.js';
import type { CronJob } from '../../../src/core/cron/types.js';
import type { CronJobConfig } from '../../../src/core/config.js';
import type { Logger } from '../../../src/core/logger.js';
import { ConfigError, UsageError } from '../../../src/core/errors.js';

interface Harness {
  scheduler: CronScheduler;
  repo: CronRepo;
  /** Slots the runner was called for (ISO). */
  ran: string[];
  /** Answers handed to the deliverer. */
  delivered: Array<{ job: string; answer: string }>;
  /** The run's status in the store at the moment the deliverer's `recorded` promise resolved. */
  statusWhenRecorded: string[];
  logs: string[];
}

let dir: string;
let stores: Store[];
let schedulers: CronScheduler[];
let clock: Date;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-cron-'));
  stores = [];
  schedulers = [];
});
afterEach(async () => {
  for (const s of schedulers) await s.stop(0);
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function job(id: string, schedule: string, extra: Partial<CronJobConfig> = {}): CronJobConfig {
  return { id, schedule, prompt: `Report for ${id}`, deliver: parseDeliverableAddress('email:alice@example.com'), enabled: true, ...extra };
}

/** A scheduler on its own store (connection) to the shared database file, as a second process would have. */
function harness(
  jobs: CronJobConfig[],
  options: {
    answer?: (job: CronJob, slot: Date) => Promise<string> | string;
    now?: () => Date;
    ran?: string[];
    /** Wraps the store's cron repository (slow or failing claims). */
    repo?: (repo: CronRepo) => CronRepo;
  } = {},
): Harness {
  const store = openSqliteStore({ path: join(dir, 'state.db'), home: dir });
  stores.push(store);
  const repo = options.repo ? options.repo(store.cron) : store.cron;
  const ran = options.ran ?? [];
  const delivered: Harness['delivered'] = [];
  const statusWhenRecorded: string[] = [];
  const logs: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (_s, m) => logs.push(`warn ${m}`),
    error: (_s, m) => logs.push(`error ${m}`),
  };
  const scheduler = new CronScheduler({
    repo,
    jobs,
    logger,
    now: options.now ?? (() => clock),
    runner: async (j, slot) => {
      ran.push(slot.toISOString());
      return { answer: await (options.answer ?? (() => `# Report ${slot.toISOString()}\n\nAll quiet.`))(j, slot) };
    },
    deliverer: async (j, answer, recorded) => {
      delivered.push({ job: j.id, answer });
      void recorded.then(async () => {
        statusWhenRecorded.push((await repo.runs(j.id, 1))[0]?.status ?? 'none');
      });
    },
  });
  schedulers.push(scheduler);
  return { scheduler, repo, ran, delivered, statusWhenRecorded, logs };
}

/** The repository with some methods replaced (the rest still reach the real one). */
function withRepo(repo: CronRepo, overrides: Partial<CronRepo>): CronRepo {
  return Object.assign(Object.create(repo) as CronRepo, overrides);
}

async function settle(promises: Array<Promise<unknown>>): Promise<void> {
  await Promise.all(promises);
}

describe('config jobs', () => {
  it('rejects an invalid schedule naming the job', () => {
    expect(() => harness([job('daily-report', '61 * * * *')])).toThrow(ConfigError);
    expect(() => harness([job('daily-report', '61 * * * *')])).toThrow("cron job 'daily-report': invalid schedule '61 * * * *'");
  });

  it('syncs config jobs into SQLite beside chat jobs; a job removed from config is removed', async () => {
    clock = new Date('2026-01-05T08:00:00Z');
    const first = harness([job('a', '0 9 * * *'), job('b', '0 10 * * *')]);
    await first.repo.insertChatJob({ id: 'mine', owner: 'alice', schedule: '0 8 * * 1', timezone: null, prompt: 'x', deliver: parseDeliverableAddress('telegram:1') }, clock.getTime());
    await first.scheduler.start();
    await first.scheduler.stop(0);
    expect((await first.repo.list()).map((j) => `${j.id}:${j.source}`)).toEqual(['a:config', 'b:config', 'mine:chat']);

    const second = harness([job('a', '30 9 * * *', { timezone: 'Europe/Berlin', enabled: false })]);
    await second.scheduler.start();
    const jobs = await second.repo.list();
    expect(jobs.map((j) => j.id)).toEqual(['a', 'mine']);
    expect(jobs[0]).toMatchObject({ schedule: '30 9 * * *', timezone: 'Europe/Berlin', paused: true });
    expect(second.scheduler.nextRuns().has('a')).toBe(false);
    expect(second.scheduler.nextRuns().get('mine')).toBe(new Date('2026-01-12T08:00:00').getTime());
  });
});

describe('firing', () => {
  it('fires once per slot of a second-level schedule, driven by a fake clock', async () => {
    clock = new Date('2026-01-05T08:00:05.000Z');
    const h = harness([job('tick', '*/10 * * * * *')]);
    await h.scheduler.start();
    expect(h.scheduler.nextRuns().get('tick')).toBe(Date.parse('2026-01-05T08:00:10.000Z'));
    clock = new Date('2026-01-05T08:00:09.999Z');
    expect(h.scheduler.tick()).toHaveLength(0);
    clock = new Date('2026-01-05T08:00:10.003Z');
    await settle(h.scheduler.tick());
    await settle(h.scheduler.tick());
    clock = new Date('2026-01-05T08:00:20.500Z');
    await settle(h.scheduler.tick());
    expect(h.ran).toEqual(['2026-01-05T08:00:10.000Z', '2026-01-05T08:00:20.000Z']);
    expect(h.delivered.map((d) => d.answer)).toEqual(['# Report 2026-01-05T08:00:10.000Z\n\nAll quiet.', '# Report 2026-01-05T08:00:20.000Z\n\nAll quiet.']);
    const stored = (await h.repo.get('tick'))!;
    expect(stored).toMatchObject({ lastStatus: 'ok', lastResult: 'Report 2026-01-05T08:00:20.000Z', lastSlot: Date.parse('2026-01-05T08:00:20.000Z') });
    expect((await h.repo.runs('tick')).map((r) => r.status)).toEqual(['ok', 'ok']);
  });

  it('after a briefly blocked process, the due seconds collapse into one run of the latest', async () => {
    clock = new Date('2026-01-05T08:59:59.500Z');
    const h = harness([job('tick', '* * * * * *')]);
    await h.scheduler.start();
    clock = new Date('2026-01-05T09:00:03.200Z');
    await settle(h.scheduler.tick());
    clock = new Date('2026-01-05T09:00:04.000Z');
    await settle(h.scheduler.tick());
    expect(h.ran).toEqual(['2026-01-05T09:00:03.000Z', '2026-01-05T09:00:04.000Z']);
  });

  it('runs a slot exactly once across two schedulers sharing one database', async () => {
    clock = new Date('2026-01-05T08:59:59.000Z');
    const ran: string[] = [];
    const a = harness([job('report', '0 9 * * *', { timezone: 'UTC' })], { ran });
    const b = harness([job('report', '0 9 * * *', { timezone: 'UTC' })], { ran });
    await a.scheduler.start();
    await b.scheduler.start();
    clock = new Date('2026-01-05T09:00:00.001Z');
    await settle([...a.scheduler.tick(), ...b.scheduler.tick(), ...a.scheduler.tick()]);
    expect(ran).toEqual(['2026-01-05T09:00:00.000Z']);
    expect(a.delivered.length + b.delivered.length).toBe(1);
    expect(await a.repo.runs('report')).toHaveLength(1);
  });

  it('does not run a slot again after a restart within the same slot', async () => {
    clock = new Date('2026-01-05T08:59:59.000Z');
    const ran: string[] = [];
    const a = harness([job('report', '0 9 * * *', { timezone: 'UTC' })], { ran });
    await a.scheduler.start();
    clock = new Date('2026-01-05T09:00:00.002Z');
    await settle(a.scheduler.tick());
    await a.scheduler.stop(0);
    clock = new Date('2026-01-05T09:00:30.000Z');
    const b = harness([job('report', '0 9 * * *', { timezone: 'UTC' })], { ran });
    await b.scheduler.start();
    await b.scheduler.idle();
    expect(ran).toEqual(['2026-01-05T09:00:00.000Z']);
  });

  it('an answer of exactly [SILENT] delivers nothing', async () => {
    clock = new Date('2026-01-05T08:59:59.000Z');
    const answers = ['  [SILENT]\n', '[SILENT] but there is news'];
    const h = harness([job('quiet', '* * * * * *')], { answer: () => answers.shift()! });
    await h.scheduler.start();
    clock = new Date('2026-01-05T09:00:00.000Z');
    await settle(h.scheduler.tick());
    expect(h.delivered).toEqual([]);
    expect(await h.repo.get('quiet')).toMatchObject({ lastStatus: 'silent', lastResult: 'nothing to report ([SILENT])' });
    clock = new Date('2026-01-05T09:00:01.000Z');
    await settle(h.scheduler.tick());
    expect(h.delivered.map((d) => d.answer)).toEqual(['[SILENT] but there is news']);
  });

  it('records a failed run with its reason and keeps going', async () => {
    clock = new Date('2026-01-05T08:59:59.000Z');
    let calls = 0;
    const h = harness([job('flaky', '* * * * * *')], {
      answer: () => {
        calls += 1;
        if (calls === 1) throw new Error('model unreachable: ECONNREFUSED');
        return 'Fine now';
      },
    });
    await h.scheduler.start();
    clock = new Date('2026-01-05T09:00:00.000Z');
    await settle(h.scheduler.tick());
    expect(await h.repo.get('flaky')).toMatchObject({ lastStatus: 'error', lastResult: 'model unreachable: ECONNREFUSED' });
    expect(h.logs.some((l) => l.includes("job 'flaky': model unreachable"))).toBe(true);
    clock = new Date('2026-01-05T09:00:01.000Z');
    await settle(h.scheduler.tick());
    expect(await h.repo.get('flaky')).toMatchObject({ lastStatus: 'ok', lastResult: 'Fine now' });
  });

  it('does not start an overlapping run of the same job', async () => {
    clock = new Date('2026-01-05T08:59:59.000Z');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const h = harness([job('slow', '* * * * * *')], {
      answer: async () => {
        await gate;
        return 'done';
      },
    });
    await h.scheduler.start();
    clock = new Date('2026-01-05T09:00:00.000Z');
    const first = h.scheduler.tick();
    clock = new Date('2026-01-05T09:00:01.000Z');
    const second = h.scheduler.tick();
    expect(await Promise.all(second)).toMatchObject([{ status: 'skipped', detail: 'the previous run was still going' }]);
    const manual = await h.scheduler.runNow('slow');
    expect(manual.status).toBe('skipped');
    release();
    await settle(first);
    expect(h.ran).toEqual(['2026-01-05T09:00:00.000Z']);
    expect((await h.repo.runs('slow')).map((r) => `${new Date(r.slot).toISOString().slice(11, 19)} ${r.status}`).slice(-2)).toEqual([
      '09:00:01 skipped',
      '09:00:00 ok',
    ]);
  });

  it('a second fire while the first claim is still being awaited sees the job as busy', async () => {
    clock = new Date('2026-01-05T08:59:59.000Z');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const h = harness([job('slow-claim', '* * * * * *')], {
      repo: (repo) => withRepo(repo, { claim: async (...args) => (await gate, repo.claim(...args)) }),
    });
    await h.scheduler.start();
    clock = new Date('2026-01-05T09:00:00.000Z');
    const first = h.scheduler.tick();
    clock = new Date('2026-01-05T09:00:01.000Z');
    const second = h.scheduler.tick();
    const manual = h.scheduler.runNow('slow-claim');
    await new Promise((r) => setImmediate(r)); // runNow has read the job; every claim still waits
    expect(h.ran).toEqual([]);
    open();
    expect(await Promise.all([...first, ...second, manual])).toMatchObject([
      { status: 'ok' },
      { status: 'skipped', detail: 'the previous run was still going' },
      { status: 'skipped' },
    ]);
    expect(h.ran).toEqual(['2026-01-05T09:00:00.000Z']);
    expect(h.delivered).toHaveLength(1);
  });

  it('two runNow calls at once run the job once', async () => {
    clock = new Date('2026-01-05T12:00:00.000Z');
    const h = harness([job('report', '0 9 * * *')]);
    const results = await Promise.all([h.scheduler.runNow('report'), h.scheduler.runNow('report')]);
    expect(results.map((r) => r.status).sort()).toEqual(['ok', 'skipped']);
    expect(h.ran).toHaveLength(1);
  });

  it('a claim the store refuses is logged and not run; the next slot runs', async () => {
    clock = new Date('2026-01-05T08:59:59.000Z');
    let failures = 1;
    const h = harness([job('locked', '* * * * * *')], {
      repo: (repo) =>
        withRepo(repo, {
          claim: async (...args) => {
            if (failures-- > 0) throw new Error('SQLITE_BUSY: database is locked');
            return repo.claim(...args);
          },
        }),
    });
    await h.scheduler.start();
    clock = new Date('2026-01-05T09:00:00.000Z');
    expect(await Promise.all(h.scheduler.tick())).toMatchObject([
      { status: 'error', detail: 'cannot claim the run of 2026-01-05T09:00:00.000Z: SQLITE_BUSY: database is locked' },
    ]);
    expect(h.ran).toEqual([]);
    expect(h.logs).toContain("error job 'locked': cannot claim the run of 2026-01-05T09:00:00.000Z: SQLITE_BUSY: database is locked");
    clock = new Date('2026-01-05T09:00:01.000Z');
    await settle(h.scheduler.tick());
    expect(h.ran).toEqual(['2026-01-05T09:00:01.000Z']);
  });

  it('tells the deliverer once the run is recorded, so a later delivery failure is not overwritten', async () => {
    clock = new Date('2026-01-05T08:59:59.000Z');
    const h = harness([job('report', '* * * * * *')]);
    await h.scheduler.start();
    clock = new Date('2026-01-05T09:00:00.000Z');
    await settle(h.scheduler.tick());
    await new Promise((r) => setImmediate(r));
    expect(h.statusWhenRecorded).toEqual(['ok']);
  });

  it('runNow runs and delivers without start(); an unknown id is a UsageError', async () => {
    clock = new Date('2026-01-05T12:34:56.789Z');
    const h = harness([job('report', '0 9 * * *')]);
    await expect(h.scheduler.runNow('nope')).rejects.toThrow(UsageError);
    const result = await h.scheduler.runNow('report');
    expect(result).toMatchObject({ status: 'ok', detail: 'Report 2026-01-05T12:34:56.789Z' });
    expect(h.delivered).toHaveLength(1);
  });

  it('picks up a chat job created while running, and a paused job does not fire', async () => {
    clock = new Date('2026-01-05T08:59:58.000Z');
    const h = harness([]);
    await h.scheduler.start();
    await h.repo.insertChatJob({ id: 'chatty', owner: 'alice', schedule: '* * * * * *', timezone: null, prompt: 'p', deliver: parseDeliverableAddress('telegram:1') }, clock.getTime());
    await h.scheduler.refresh();
    clock = new Date('2026-01-05T08:59:59.000Z');
    await settle(h.scheduler.tick());
    expect(h.ran).toEqual(['2026-01-05T08:59:59.000Z']);
    await h.repo.setPaused('chatty', true, clock.getTime());
    await h.scheduler.refresh();
    clock = new Date('2026-01-05T09:00:00.000Z');
    expect(h.scheduler.tick()).toHaveLength(0);
    expect(h.ran).toHaveLength(1);
  });
});

describe('catch-up at start (ARCHITECTURE.md §4b)', () => {
  async function ranAt(schedule: string, lastRun: string, restart: string, timezone = 'UTC'): Promise<{ ran: string[]; second: Harness }> {
    clock = new Date(new Date(lastRun).getTime() - 1000);
    const ran: string[] = [];
    const first = harness([job('report', schedule, { timezone })], { ran });
    await first.scheduler.start();
    clock = new Date(lastRun);
    await settle(first.scheduler.tick());
    await first.scheduler.stop(0);
    expect(ran).toEqual([new Date(lastRun).toISOString()]);
    ran.length = 0;
    clock = new Date(restart);
    const second = harness([job('report', schedule, { timezone })], { ran });
    await second.scheduler.start();
    await second.scheduler.idle();
    return { ran, second };
  }

  it('a backlog late within half a period collapses into one run of the latest slot', async () => {
    const { ran, second } = await ranAt('0 * * * *', '2026-01-05T06:00:00Z', '2026-01-05T09:10:00Z');
    expect(ran).toEqual(['2026-01-05T09:00:00.000Z']);
    expect((await second.repo.runs('report')).map((r) => new Date(r.slot).toISOString())).toEqual(['2026-01-05T09:00:00.000Z', '2026-01-05T06:00:00.000Z']);
    // The regular schedule goes on from there.
    expect(second.scheduler.nextRuns().get('report')).toBe(Date.parse('2026-01-05T10:00:00Z'));
  });

  it('a run later than half its period is skipped and logged', async () => {
    const { ran, second } = await ranAt('0 * * * *', '2026-01-05T06:00:00Z', '2026-01-05T09:40:00Z');
    expect(ran).toEqual([]);
    expect(await second.repo.get('report')).toMatchObject({ lastStatus: 'skipped' });
    expect((await second.repo.get('report'))!.lastResult).toContain('missed run of 2026-01-05T09:00:00.000Z skipped');
    expect(second.logs.some((l) => l.startsWith("warn job 'report': missed run of 2026-01-05T09:00:00.000Z skipped"))).toBe(true);
  });

  it('the window is at most 2 hours for a daily job', async () => {
    expect((await ranAt('0 9 * * *', '2026-01-05T09:00:00Z', '2026-01-06T10:59:00Z')).ran).toEqual(['2026-01-06T09:00:00.000Z']);
  });

  it('…and a daily run 2 h 1 min late is skipped', async () => {
    expect((await ranAt('0 9 * * *', '2026-01-05T09:00:00Z', '2026-01-06T11:01:00Z')).ran).toEqual([]);
  });

  it('the window is at least 2 minutes for a per-minute job', async () => {
    // Down from 09:00:00 to 09:01:59.5: the latest missed slot (09:01) is 59.5 s late → run once.
    expect((await ranAt('* * * * *', '2026-01-05T09:00:00Z', '2026-01-05T09:01:59.500Z')).ran).toEqual(['2026-01-05T09:01:00.000Z']);
  });

  it('a new job does not catch up slots from before it existed', async () => {
    clock = new Date('2026-01-05T09:10:00Z');
    const h = harness([job('fresh', '0 * * * *')]);
    await h.scheduler.start();
    await h.scheduler.idle();
    expect(h.ran).toEqual([]);
  });
});

describe('real timers', () => {
  it('a per-second job fires on consecutive seconds, once each, even with two schedulers on one database', async () => {
    const ran: string[] = [];
    const fired: number[] = [];
    const jobs = [job('every-second', '* * * * * *')];
    const answer = (_j: CronJob, slot: Date) => {
      fired.push(Date.now() - slot.getTime());
      return 'ok';
    };
    const a = harness(jobs, { ran, now: () => new Date(), answer });
    const b = harness(jobs, { ran, now: () => new Date(), answer });
    await a.scheduler.start();
    await b.scheduler.start();
    await new Promise((r) => setTimeout(r, 3300));
    await a.scheduler.stop();
    await b.scheduler.stop();
    const slots = ran.map((s) => Date.parse(s));
    expect(new Set(slots).size).toBe(slots.length);
    expect(slots.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < slots.length; i++) expect(slots[i] - slots[i - 1]).toBe(1000);
    // Fired at (not before) its second, and well within it.
    for (const lag of fired) {
      expect(lag).toBeGreaterThanOrEqual(0);
      expect(lag).toBeLessThan(500);
    }
  });
});
