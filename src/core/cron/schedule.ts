/**
 * Schedule validation and slot math on top of node-cron's own parser and matcher.
 *
 * node-cron 4 decides what a pattern means: `validateDetailed`/`parse` expand the fields and a
 * task's `match(date)` says whether an instant fires (seconds field, names, steps, `L`, `W`, `#`,
 * time zones). What it lacks is slot arithmetic from an arbitrary instant: `getNextRuns` always
 * starts at the real `new Date()`, and there is no "previous slot" at all. The scheduler needs both
 * against an injectable clock (catch-up after a restart, the late-run window, tests with a fake
 * clock), so the walk below visits candidate local times built from the parsed fields and accepts
 * one only when node-cron's `match` agrees — the library stays the judge of every slot.
 */
import { createTask, validateDetailed, type ParsedFields, type ScheduledTask } from 'node-cron';
import { ConfigError } from '../errors.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** How far the walk looks for a matching day (a 29 Feb on a Monday comes round within 28 years). */
const MAX_DAYS = 366 * 30;

/** Late-run window bounds (DESIGN §4b): half a period, at least 2 minutes, at most 2 hours. */
export const MIN_LATE_WINDOW_MS = 2 * MINUTE;
export const MAX_LATE_WINDOW_MS = 2 * HOUR;

/** How late a slot may be run: half its period, clamped to [2 min, 2 h]. */
export function lateWindowMs(periodMs: number): number {
  return Math.min(MAX_LATE_WINDOW_MS, Math.max(MIN_LATE_WINDOW_MS, Math.floor(periodMs / 2)));
}

/** True if `zone` is an IANA time zone this runtime knows. */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Why a pattern is invalid, in words a user can act on; null when it is valid. */
export function scheduleProblem(expression: string): string | null {
  const result = validateDetailed(expression);
  if (result.valid) return null;
  const first = result.errors[0];
  if (!first) return 'not a cron pattern';
  if (first.field === 'expression') {
    const got = /got (\d+)/.exec(first.message);
    return got
      ? `has ${got[1]} fields; expected 5 (minute hour day month weekday) or 6 (a leading second)`
      : first.message;
  }
  const field = first.field.replace(/([A-Z])/g, ' $1').toLowerCase();
  return first.message.includes('impossible') ? first.message : `bad ${field} field '${first.value ?? ''}'`;
}

/**
 * Checks a job's schedule and zone. Throws ConfigError naming the job, e.g.
 * `cron job 'daily-report': invalid schedule '61 * * * *' (bad minute field '61')`.
 */
export function validateJobSchedule(jobId: string, expression: string, timezone?: string | null): void {
  const problem = scheduleProblem(expression);
  if (problem) throw new ConfigError(`cron job '${jobId}': invalid schedule '${expression}' (${problem})`);
  if (timezone && !isValidTimeZone(timezone)) {
    throw new ConfigError(`cron job '${jobId}': unknown time zone '${timezone}' (use an IANA name such as Europe/Berlin or UTC)`);
  }
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string | undefined): Intl.DateTimeFormat {
  const key = zone ?? '';
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(key, f);
  }
  return f;
}

function localParts(ms: number, zone: string | undefined): LocalParts {
  const out: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return { year: out.year, month: out.month, day: out.day, hour: out.hour % 24, minute: out.minute, second: out.second };
}

function asUtc(p: LocalParts): number {
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** Zone offset at `ms`, in ms (local wall time minus UTC). */
function offsetAt(ms: number, zone: string | undefined): number {
  const whole = Math.floor(ms / SECOND) * SECOND;
  return asUtc(localParts(whole, zone)) - whole;
}

/** The instant a local wall time names; for a time skipped by DST, an instant that does not read back (match() rejects it). */
function localToInstant(p: LocalParts, zone: string | undefined): number {
  const guess = asUtc(p);
  const first = guess - offsetAt(guess, zone);
  const second = guess - offsetAt(first, zone);
  if (first === second) return first;
  const readsBack = (ms: number) => asUtc(localParts(ms, zone)) === guess;
  if (readsBack(first)) return first;
  if (readsBack(second)) return second;
  return Math.max(first, second);
}

function shiftDay(y: number, m: number, d: number, by: number): { y: number; m: number; d: number } {
  const t = new Date(Date.UTC(y, m - 1, d + by));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

const noop = (): void => undefined;

/** A node-cron task used only for its matcher: never started, and dropped from node-cron's registry at once. */
function matcherTask(expression: string, timezone: string | undefined): ScheduledTask {
  const task = createTask(expression, noop, { timezone });
  void task.destroy();
  return task;
}

/**
 * A validated schedule with slot arithmetic. Slots are whole seconds; `next` is strictly after the
 * given instant, `previous` at or before it.
 */
export class CronSchedule {
  readonly expression: string;
  readonly timezone: string | undefined;
  private readonly fields: ParsedFields;
  private readonly task: ScheduledTask;
  /** Matches calendar days (month, day of month, weekday incl. L/W/#) evaluated at UTC midnight. */
  private readonly dayTask: ScheduledTask;
  private readonly seconds: number[];
  private readonly minutes: number[];
  private readonly hours: number[];

  /** Throws ConfigError naming `jobId` when the pattern or zone is invalid. */
  constructor(expression: string, timezone?: string | null, jobId = 'schedule') {
    validateJobSchedule(jobId, expression, timezone);
    this.expression = expression;
    this.timezone = timezone ?? undefined;
    const result = validateDetailed(expression);
    this.fields = result.fields!;
    this.seconds = [...this.fields.second].sort((a, b) => a - b);
    this.minutes = [...this.fields.minute].sort((a, b) => a - b);
    this.hours = [...this.fields.hour].sort((a, b) => a - b);
    this.task = matcherTask(expression, this.timezone);
    const list = (values: Array<number | string>) => values.join(',');
    this.dayTask = matcherTask(
      `0 0 0 ${list(this.fields.dayOfMonth)} ${list(this.fields.month)} ${list(this.fields.dayOfWeek)}`,
      'UTC',
    );
  }

  /** node-cron's verdict: does this instant (to the second) fire? */
  matches(date: Date): boolean {
    return this.task.match(new Date(Math.floor(date.getTime() / SECOND) * SECOND));
  }

  private dayMatches(y: number, m: number, d: number): boolean {
    return this.dayTask.match(new Date(Date.UTC(y, m - 1, d)));
  }

  /** The first slot strictly after `after`, or null if none within ~30 years. */
  next(after: Date): Date | null {
    const base = Math.floor(after.getTime() / SECOND) * SECOND;
    const bound = localParts(base, this.timezone);
    let { y, m, d } = { y: bound.year, m: bound.month, d: bound.day };
    for (let i = 0; i < MAX_DAYS; i++) {
      if (this.dayMatches(y, m, d)) {
        const found = this.scanDay(y, m, d, (ms) => ms > base, i === 0 ? bound : null, 'forward');
        if (typeof found === 'number') return new Date(found);
      }
      ({ y, m, d } = shiftDay(y, m, d, 1));
    }
    return null;
  }

  /** The latest slot at or before `atOrBefore` and not before `notBefore` (default: 30 years back), or null. */
  previous(atOrBefore: Date, notBefore?: Date): Date | null {
    const base = Math.floor(atOrBefore.getTime() / SECOND) * SECOND;
    const floor = notBefore?.getTime() ?? -Infinity;
    if (floor > base) return null;
    const bound = localParts(base, this.timezone);
    let { y, m, d } = { y: bound.year, m: bound.month, d: bound.day };
    // Local days overlap UTC by at most ~26 h, so two extra days cover the floor in any zone.
    const days = Number.isFinite(floor) ? Math.min(MAX_DAYS, Math.ceil((base - floor) / (24 * HOUR)) + 2) : MAX_DAYS;
    for (let i = 0; i < days; i++) {
      if (this.dayMatches(y, m, d)) {
        const found = this.scanDay(y, m, d, (ms) => ms <= base, i === 0 ? bound : null, 'backward', floor);
        if (found === 'exhausted') return null;
        if (found !== null) return new Date(found);
      }
      ({ y, m, d } = shiftDay(y, m, d, -1));
    }
    return null;
  }

  /** Gap from `slot` to the slot after it (ms); Infinity when there is none. */
  periodAfter(slot: Date): number {
    const following = this.next(slot);
    return following ? following.getTime() - slot.getTime() : Infinity;
  }

  /** The next `count` slots after `after`. */
  upcoming(after: Date, count: number): Date[] {
    const out: Date[] = [];
    let from: Date | null = after;
    while (out.length < count && from) {
      from = this.next(from);
      if (from) out.push(from);
    }
    return out;
  }

  /**
   * Walks the day's candidate times (hours × minutes × seconds from the parsed fields) in order,
   * skipping those on the wrong side of `bound` (local time of the search start), and returns the
   * first instant that `accept`s and that node-cron's matcher confirms. Walking backward, the first
   * candidate before `floor` ends the whole search ('exhausted'): local time maps to instants
   * monotonically, so everything further back is earlier still.
   */
  private scanDay(
    y: number,
    m: number,
    d: number,
    accept: (ms: number) => boolean,
    bound: LocalParts | null,
    direction: 'forward' | 'backward',
    floor = -Infinity,
  ): number | null | 'exhausted' {
    const order = <T>(values: T[]): T[] => (direction === 'forward' ? values : [...values].reverse());
    const limit = bound ? bound.hour * 3600 + bound.minute * 60 + bound.second : null;
    for (const hour of order(this.hours)) {
      if (limit !== null && (direction === 'forward' ? (hour + 1) * 3600 <= limit : hour * 3600 > limit)) continue;
      for (const minute of order(this.minutes)) {
        const minuteStart = hour * 3600 + minute * 60;
        if (limit !== null && (direction === 'forward' ? minuteStart + 60 <= limit : minuteStart > limit)) continue;
        for (const second of order(this.seconds)) {
          const at = minuteStart + second;
          if (limit !== null && (direction === 'forward' ? at < limit : at > limit)) continue;
          const ms = localToInstant({ year: y, month: m, day: d, hour, minute, second }, this.timezone);
          if (ms < floor) return 'exhausted';
          if (accept(ms) && this.task.match(new Date(ms))) return ms;
        }
      }
    }
    return null;
  }
}
