/**
 * `switchboard cron list` · `switchboard cron run ID` (ARCHITECTURE.md §3, §4b).
 *
 * `list` only reads: it merges the config file's jobs (the source of truth for them, even before a
 * gateway has synced them) with the chat jobs and run state in the store. `run` checks the id and
 * hands the run-and-deliver part to the core through `ctx.runJobNow`.
 */
import type { Settings } from '../core/settings.js';
import type { CronRepo, Store } from '../core/store/types.js';
import { formatAddress } from '../platform/address.js';
import { oneLine, SwitchboardError } from '../core/errors.js';
import { CronSchedule } from '../core/cron/schedule.js';
import { validateCronJobs } from '../core/cron/scheduler.js';
import { describeTime, effectiveZone } from '../core/cron/format.js';
import type { CronJob } from '../core/cron/types.js';

export interface CommandIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface CronCommandContext {
  settings: Settings;
  /** The store (its cron jobs and run state are read for `list` and to check an id for `run`). */
  store: Pick<Store, 'cron'>;
  /** Runs the job now and delivers (with retries), without a running gateway. */
  runJobNow(id: string): Promise<{ delivered: boolean; detail: string }>;
  now?: () => Date;
}

export const usage = `usage: switchboard cron list | switchboard cron run ID

  list      the scheduled jobs (from the config file and from chats) with their next and last run
  run ID    run that job now and deliver its report (no gateway needs to run)

options:
  -h, --help   show this help`;

/** Why `argv` is neither `list` nor `run ID`, in one line; null when it is one of them. */
export function cronMistake([sub, ...rest]: readonly string[]): string | null {
  if ((sub === 'list' && rest.length === 0) || (sub === 'run' && rest.length === 1)) return null;
  if (sub === undefined) return 'say list or run ID';
  if (sub === 'list') return `list takes no arguments, not '${rest.join(' ')}'`;
  if (sub === 'run') return rest.length ? `run takes one job id, not '${rest.join(' ')}'` : 'run: give the id of the job (see switchboard cron list)';
  return `unknown action '${sub}'`;
}

/** The jobs `list` shows: config jobs as the file has them (with stored run state), then chat jobs. */
export async function jobsForListing(settings: Settings, repo: CronRepo): Promise<CronJob[]> {
  const stored = new Map((await repo.list()).map((j) => [j.id, j]));
  const fromConfig = settings.config.cron.map((c): CronJob => {
    const s = stored.get(c.id);
    return {
      id: c.id,
      source: 'config',
      owner: null,
      schedule: c.schedule,
      timezone: c.timezone ?? null,
      prompt: c.prompt,
      deliver: c.deliver,
      paused: !c.enabled,
      createdAt: s?.createdAt ?? 0,
      lastSlot: s?.lastSlot ?? null,
      lastRunAt: s?.lastRunAt ?? null,
      lastStatus: s?.lastStatus ?? null,
      lastResult: s?.lastResult ?? null,
    };
  });
  const configIds = new Set(fromConfig.map((j) => j.id));
  const chat = [...stored.values()].filter((j) => j.source === 'chat' && !configIds.has(j.id));
  return [...fromConfig, ...chat];
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd()).join('\n') + '\n';
}

function listRows(jobs: CronJob[], now: Date): string[][] {
  const rows = [['ID', 'SCHEDULE', 'ZONE', 'NEXT RUN', 'LAST RUN', 'RESULT', 'DELIVER', 'SOURCE']];
  for (const job of jobs) {
    let next = 'paused';
    if (!job.paused) {
      const slot = new CronSchedule(job.schedule, job.timezone, job.id).next(now);
      next = slot ? describeTime(slot.getTime(), job.timezone) : 'never';
    }
    const last = job.lastRunAt !== null ? describeTime(job.lastRunAt, job.timezone) : 'never';
    const result = job.lastStatus ? `${job.lastStatus}${job.lastResult ? `: ${job.lastResult}` : ''}` : '-';
    const cut = result.length > 60 ? `${result.slice(0, 59)}…` : result;
    rows.push([
      job.id,
      job.schedule,
      effectiveZone(job.timezone),
      next,
      last,
      cut,
      formatAddress(job.deliver),
      job.source === 'chat' ? `chat:${job.owner ?? '?'}` : 'config',
    ]);
  }
  return rows;
}

/**
 * Entry point; `argv` is what follows `cron`. Returns the exit code: 0 done, 1 failed (unknown id,
 * bad config, not delivered), 2 usage. Errors are one `switchboard: …` line on stderr, as the CLI writes them.
 */
export async function run(argv: string[], io: CommandIO, ctx: CronCommandContext): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === 'list' && rest.length === 0) {
      validateCronJobs(ctx.settings.config.cron);
      const jobs = await jobsForListing(ctx.settings, ctx.store.cron);
      if (!jobs.length) {
        io.stdout.write('No cron jobs. Add them under `cron:` in the config file, or ask the bot in chat.\n');
        return 0;
      }
      io.stdout.write(table(listRows(jobs, ctx.now?.() ?? new Date())));
      return 0;
    }
    if (sub === 'run' && rest.length === 1) {
      const id = rest[0];
      validateCronJobs(ctx.settings.config.cron);
      const known = (await jobsForListing(ctx.settings, ctx.store.cron)).some((j) => j.id === id);
      if (!known) {
        io.stderr.write(`switchboard: unknown cron job '${id}' (see 'switchboard cron list')\n`);
        return 1;
      }
      const outcome = await ctx.runJobNow(id);
      if (outcome.delivered) {
        io.stdout.write(`${outcome.detail}\n`);
        return 0;
      }
      io.stderr.write(`switchboard: ${outcome.detail}\n`);
      return 1;
    }
    io.stderr.write(`switchboard cron: ${cronMistake(argv)}\n${usage}\n`);
    return 2;
  } catch (error) {
    if (error instanceof SwitchboardError) {
      io.stderr.write(`switchboard: ${oneLine(error)}\n`);
      return 1;
    }
    throw error;
  }
}
