/**
 * What `start` refuses to run with, decided in one place (issue 38): `start` stops on the first of
 * these problems before it opens anything, and `doctor` lists every one of them, each naming the
 * setting to fix. Checks that need the outside world (a platform's credentials, the database, the
 * mailbox) are the doors' and the store's own, which both commands already call.
 */
import type { Settings } from '../core/settings.js';
import { ConfigError, oneLine } from '../core/errors.js';
import { validateJobSchedule } from '../core/cron/schedule.js';
import { checkConsoleSettings } from '../console/settings.js';

/** One reason `start` would refuse the settings. */
export interface StartupProblem {
  /** What it concerns, as doctor names it: `cron`, `console`. */
  name: string;
  /** The one line `start` would stop with. */
  line: string;
}

/**
 * Every problem in the settings that `start` (mode `start`) or `chat` (mode `chat`, no console)
 * stops on, in the order start checks them: every cron job's schedule and zone, then the console's
 * host and token.
 */
export function startupProblems(settings: Pick<Settings, 'config' | 'console'>, mode: 'start' | 'chat'): StartupProblem[] {
  const problems: StartupProblem[] = [];
  for (const job of settings.config.cron) {
    const problem = caught(() => validateJobSchedule(job.id, job.schedule, job.timezone));
    if (problem) problems.push({ name: 'cron', line: problem });
  }
  if (mode === 'start' && settings.console) {
    const consoleSettings = settings.console;
    const problem = caught(() => checkConsoleSettings(consoleSettings));
    if (problem) problems.push({ name: 'console', line: problem });
  }
  return problems;
}

/** Throws the first problem as one ConfigError line (saying how many more there are, and where they are listed). */
export function assertStartable(settings: Pick<Settings, 'config' | 'console'>, mode: 'start' | 'chat'): void {
  const [first, ...more] = startupProblems(settings, mode);
  if (!first) return;
  const rest = more.length ? ` (and ${more.length} more problem${more.length === 1 ? '' : 's'}: \`switchboard doctor\` lists them all)` : '';
  throw new ConfigError(`${first.line}${rest}`);
}

function caught(check: () => void): string | null {
  try {
    check();
    return null;
  } catch (error) {
    if (error instanceof ConfigError) return oneLine(error);
    throw error;
  }
}
