/**
 * Schedule validation and slot math, on croner (issue #37 item 9: the slot walker this replaces,
 * node-cron's matcher driven over candidate local times, cost about the same CPU per slot — see
 * docs/bespoke.md — and was ~200 lines to own).
 *
 * The syntax stays node-cron's, which the config and the cron tool document: 5 fields, or 6 with a
 * leading seconds field (croner's `5-or-6-parts` mode), names, steps, `L`, `W`, `#`, nicknames such as
 * `@daily`; a day-of-month and a weekday must both match (`domAndDow`, node-cron's rule; croner's
 * default is either). Slots are computed from any instant, so the scheduler works against an
 * injectable clock (catch-up after a restart, the late-run window, tests with a fake clock).
 *
 * Daylight saving time, in the job's zone: a local time that does not exist (spring forward) has no
 * slot that day — croner would run a fixed-time job at the first time after the gap, node-cron skips
 * it, and we keep node-cron's rule (every slot is one `match` accepts). A local time that occurs twice
 * (fall back) is croner's (Vixie cron's) rule: a fixed-time job runs once, at the first occurrence; a
 * job with a step, range or list in its time fields runs on both, so "every 20 minutes" keeps going
 * through the repeated hour.
 */
import { Cron } from 'croner';
import { ConfigError } from '../errors.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Late-run window bounds (ARCHITECTURE.md §4b): half a period, at least 2 minutes, at most 2 hours. */
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

/** A croner job used only for its arithmetic: never started. Throws croner's error for a bad pattern. */
const cronOf = (expression: string, timezone?: string): Cron => new Cron(expression, { paused: true, timezone, domAndDow: true, mode: '5-or-6-parts' });

const FIELDS = ['minute', 'hour', 'day of month', 'month', 'day of week'];
/** Whether a date can match at all: from a leap year's start croner finds any day that ever comes. */
const EVER = new Date(Date.UTC(2000, 0, 1));

/** Why a pattern is invalid, in words a user can act on; null when it is valid. */
export function scheduleProblem(expression: string): string | null {
  const pattern = expression.trim();
  if (!pattern) return 'not a cron pattern';
  const parts = pattern.split(/\s+/);
  if (!pattern.startsWith('@') && parts.length !== 5 && parts.length !== 6) {
    return `has ${parts.length} fields; expected 5 (minute hour day month weekday) or 6 (a leading second)`;
  }
  let cron: Cron;
  try {
    cron = cronOf(pattern);
  } catch (error) {
    if (pattern.startsWith('@')) return `unknown shorthand '${pattern}'`;
    // croner names the field only sometimes: find it by trying each field alone.
    const names = parts.length === 6 ? ['second', ...FIELDS] : FIELDS;
    for (let i = 0; i < parts.length; i++) {
      try {
        cronOf(parts.map((p, k) => (k === i ? p : '*')).join(' '));
      } catch {
        return `bad ${names[i]} field '${parts[i]}'`;
      }
    }
    return (error instanceof Error ? error.message : String(error)).replace(/^CronPattern: /, '').split('\n')[0];
  }
  return cron.nextRun(EVER) ? null : 'no date matches it (such as 30 February)';
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

const wholeSecond = (date: Date): number => Math.floor(date.getTime() / SECOND) * SECOND;

/**
 * A validated schedule with slot arithmetic. Slots are whole seconds; `next` is strictly after the
 * given instant, `previous` at or before it.
 */
export class CronSchedule {
  readonly expression: string;
  readonly timezone: string | undefined;
  private readonly cron: Cron;

  /** Throws ConfigError naming `jobId` when the pattern or zone is invalid. */
  constructor(expression: string, timezone?: string | null, jobId = 'schedule') {
    validateJobSchedule(jobId, expression, timezone);
    this.expression = expression;
    this.timezone = timezone ?? undefined;
    this.cron = cronOf(expression.trim(), this.timezone);
  }

  /** Does this instant (to the second) fire? */
  matches(date: Date): boolean {
    return this.cron.match(new Date(wholeSecond(date)));
  }

  /** The first slot strictly after `after`, or null if there is none. */
  next(after: Date): Date | null {
    let slot = this.cron.nextRun(new Date(wholeSecond(after)));
    // croner moves a fixed-time job out of a DST gap to the first time after it: not a slot here.
    while (slot && !this.cron.match(slot)) slot = this.cron.nextRun(slot);
    return slot;
  }

  /** The latest slot at or before `atOrBefore` and not before `notBefore` (default: none), or null. */
  previous(atOrBefore: Date, notBefore?: Date): Date | null {
    const floor = notBefore?.getTime() ?? -Infinity;
    // previousRuns looks strictly before its reference: one second on, to include `atOrBefore` itself.
    let reference = new Date(wholeSecond(atOrBefore) + SECOND);
    for (;;) {
      const slot = this.cron.previousRuns(1, reference)[0] ?? null;
      if (!slot || slot.getTime() < floor) return null;
      if (this.cron.match(slot)) return slot;
      reference = slot;
    }
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
}
