import { describe, expect, it } from 'vitest';
import { createTask } from 'node-cron';
import { CronSchedule, lateWindowMs, validateJobSchedule } from '../../../src/core/cron/schedule.js';
import { ConfigError } from '../../../src/core/errors.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('schedule validation', () => {
  it.each([
    ['61 * * * *', "cron job 'daily-report': invalid schedule '61 * * * *' (bad minute field '61')"],
    ['0 25 * * *', "cron job 'daily-report': invalid schedule '0 25 * * *' (bad hour field '25')"],
    ['* * * *', "cron job 'daily-report': invalid schedule '* * * *' (has 4 fields; expected 5 (minute hour day month weekday) or 6 (a leading second))"],
    ['0 9 * * funday', "cron job 'daily-report': invalid schedule '0 9 * * funday' (bad day of week field 'funday')"],
  ])('rejects %s naming the job', (schedule, message) => {
    expect(() => validateJobSchedule('daily-report', schedule)).toThrow(ConfigError);
    expect(() => validateJobSchedule('daily-report', schedule)).toThrow(message);
  });

  it('rejects an unknown time zone naming the job', () => {
    expect(() => new CronSchedule('0 9 * * *', 'Europe/Atlantis', 'daily-report')).toThrow(
      "cron job 'daily-report': unknown time zone 'Europe/Atlantis' (use an IANA name such as Europe/Berlin or UTC)",
    );
  });

  it('accepts 5 and 6 fields, names, steps and IANA zones', () => {
    for (const s of ['0 9 * * 1-5', '*/5 * * * * *', '0 0 9 * * MON-FRI', '@daily', '0 12 L * *', '0 8 * * 1#1']) {
      expect(() => validateJobSchedule('ok', s, 'Europe/Berlin')).not.toThrow();
    }
  });
});

describe('slot math', () => {
  it('walks second-level schedules without skipping or doubling a second', () => {
    const s = new CronSchedule('*/5 * * * * *');
    expect(iso(s.next(new Date('2026-01-01T00:00:03.500Z')))).toBe('2026-01-01T00:00:05.000Z');
    // Strictly after: a slot is never returned twice.
    expect(iso(s.next(new Date('2026-01-01T00:00:05.000Z')))).toBe('2026-01-01T00:00:10.000Z');
    expect(iso(s.next(new Date('2026-01-01T00:00:04.999Z')))).toBe('2026-01-01T00:00:05.000Z');
    expect(iso(s.previous(new Date('2026-01-01T00:00:05.000Z')))).toBe('2026-01-01T00:00:05.000Z');
    expect(iso(s.previous(new Date('2026-01-01T00:00:09.999Z')))).toBe('2026-01-01T00:00:05.000Z');
    const every = new CronSchedule('* * * * * *');
    const slots = every.upcoming(new Date('2026-01-01T23:59:58.400Z'), 4).map(iso);
    expect(slots).toEqual(['2026-01-01T23:59:59.000Z', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:01.000Z', '2026-01-02T00:00:02.000Z']);
  });

  it('computes slots in the job time zone, across DST', () => {
    const s = new CronSchedule('0 9 * * 1-5', 'Europe/Berlin');
    // Friday 27 March 2026 (CET, +1) → Monday 30 March (CEST, +2).
    expect(iso(s.next(new Date('2026-03-27T10:00:00Z')))).toBe('2026-03-30T07:00:00.000Z');
    expect(iso(s.previous(new Date('2026-03-30T06:59:59Z')))).toBe('2026-03-27T08:00:00.000Z');
    const ny = new CronSchedule('30 8 * * *', 'America/New_York');
    expect(iso(ny.next(new Date('2026-07-01T00:00:00Z')))).toBe('2026-07-01T12:30:00.000Z');
    const india = new CronSchedule('0 * * * *', 'Asia/Kolkata');
    expect(iso(india.next(new Date('2026-01-01T00:00:00Z')))).toBe('2026-01-01T00:30:00.000Z');
    // 02:30 does not exist on the spring-forward day: node-cron's matcher skips it, so do we.
    const gap = new CronSchedule('30 2 * * *', 'Europe/Berlin');
    expect(gap.upcoming(new Date('2026-03-28T00:00:00Z'), 2).map(iso)).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
  });

  it('runs a fixed-time job once when its local time occurs twice (DST fall back): at the first occurrence', () => {
    // 25 October 2026, Berlin: 02:30 CEST (00:30Z), then 02:30 CET (01:30Z).
    const s = new CronSchedule('30 2 * * *', 'Europe/Berlin');
    expect(s.upcoming(new Date('2026-10-24T12:00:00Z'), 2).map(iso)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    expect(iso(s.previous(new Date('2026-10-25T12:00:00Z')))).toBe('2026-10-25T00:30:00.000Z');
    // Auckland falls back on 5 April 2026: 02:30 NZDT (13:30Z on the 4th), then 02:30 NZST.
    expect(iso(new CronSchedule('30 2 * * *', 'Pacific/Auckland').next(new Date('2026-04-04T01:54:43Z')))).toBe('2026-04-04T13:30:00.000Z');
  });

  it('keeps an interval job going through the repeated hour (DST fall back)', () => {
    const s = new CronSchedule('*/30 * * * *', 'Europe/Berlin');
    // 02:00 CEST, 02:30 CEST, then the hour again in CET: 02:00, 02:30, then 03:00.
    expect(s.upcoming(new Date('2026-10-24T23:59:00Z'), 5).map(iso)).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T01:30:00.000Z',
      '2026-10-25T02:00:00.000Z',
    ]);
    expect(iso(s.previous(new Date('2026-10-25T01:10:00Z')))).toBe('2026-10-25T01:00:00.000Z');
  });

  it('rejects a pattern that matches no date, and checks a seconds field', () => {
    expect(() => validateJobSchedule('feb', '0 0 30 2 *')).toThrow("cron job 'feb': invalid schedule '0 0 30 2 *' (no date matches it (such as 30 February))");
    expect(() => validateJobSchedule('s', '61 0 9 * * *')).toThrow("(bad second field '61')");
    expect(() => validateJobSchedule('y', '0 0 0 1 1 * 2030')).toThrow('(has 7 fields; expected 5');
  });

  it('handles L, W and nth-weekday tokens through node-cron', () => {
    expect(iso(new CronSchedule('0 0 L 2 *', 'UTC').next(new Date('2028-01-01T00:00:00Z')))).toBe('2028-02-29T00:00:00.000Z');
    expect(iso(new CronSchedule('0 9 * * 1#2', 'UTC').next(new Date('2026-06-01T10:00:00Z')))).toBe('2026-06-08T09:00:00.000Z');
  });

  it('agrees with node-cron getNextRuns for the same instant', () => {
    const patterns = ['*/7 * * * * *', '0 9 * * 1-5', '15 */3 * * *', '0 0 12 L * *', '0 30 6 * * sat,sun', '0 0 1 jan,jul *'];
    for (const p of patterns) {
      for (const zone of [undefined, 'Europe/Berlin', 'Pacific/Auckland']) {
        const task = createTask(p, () => undefined, { timezone: zone });
        let library: string[] = [];
        let from = 0;
        // getNextRuns reads the real clock: retry if a second boundary fell between the two reads.
        for (let i = 0; i < 5; i++) {
          const before = Date.now();
          library = task.getNextRuns(5).map((d) => d.toISOString());
          if (Math.floor(Date.now() / 1000) === Math.floor(before / 1000)) {
            from = before;
            break;
          }
        }
        void task.destroy();
        const ours = new CronSchedule(p, zone).upcoming(new Date(from), 5).map(iso);
        expect(ours, `${p} ${zone ?? 'local'}`).toEqual(library);
      }
    }
  });

  it('every slot from next/previous is one node-cron matches', () => {
    const s = new CronSchedule('0 */20 8-18 * * 1-5', 'Europe/Berlin');
    for (const slot of s.upcoming(new Date('2026-10-20T00:00:00Z'), 50)) {
      expect(s.matches(slot)).toBe(true);
      expect(iso(s.previous(slot))).toBe(iso(slot));
      expect(iso(s.previous(new Date(slot.getTime() - 1)))).not.toBe(iso(slot));
    }
  });

  it('previous() respects the lower bound', () => {
    const s = new CronSchedule('0 0 * * *', 'UTC');
    expect(s.previous(new Date('2026-01-10T12:00:00Z'), new Date('2026-01-10T00:00:01Z'))).toBeNull();
    expect(iso(s.previous(new Date('2026-01-10T12:00:00Z'), new Date('2026-01-10T00:00:00Z')))).toBe('2026-01-10T00:00:00.000Z');
  });

  it('period and the late-run window (half a period, 2 min – 2 h)', () => {
    const hourly = new CronSchedule('0 * * * *', 'UTC');
    expect(hourly.periodAfter(new Date('2026-01-01T05:00:00Z'))).toBe(3600_000);
    expect(lateWindowMs(3600_000)).toBe(1800_000);
    expect(lateWindowMs(1000)).toBe(120_000);
    expect(lateWindowMs(24 * 3600_000)).toBe(7200_000);
    const weekdays = new CronSchedule('0 9 * * 1-5', 'UTC');
    // Friday → Monday: three days.
    expect(weekdays.periodAfter(new Date('2026-01-02T09:00:00Z'))).toBe(3 * 24 * 3600_000);
  });
});
