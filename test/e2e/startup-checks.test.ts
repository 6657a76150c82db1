/**
 * One validation for `start` and `doctor` (issue 38, point 4): what start refuses, doctor reports —
 * every problem, each on its line naming the thing to fix, exit 1 — through the real command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, removeDir, runCli } from '../helpers/cli.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sb-startup-checks-'));
});
afterAll(() => removeDir(root));

let n = 0;
function setup(cron: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const config = join(root, `config-${++n}.yaml`);
  writeFileSync(config, `cron:${cron ? `\n${cron}` : ' []'}\n`);
  return cleanEnv({ SWITCHBOARD_HOME: join(root, `home-${n}`), SWITCHBOARD_CONFIG: config, ...extra });
}
const job = (id: string, schedule: string, timezone?: string) =>
  `  - id: ${id}\n    schedule: '${schedule}'\n${timezone ? `    timezone: ${timezone}\n` : ''}    prompt: Hello\n    deliver: email:someone@example.com`;

const BAD_SCHEDULE = "cron job 'ticks': invalid schedule '61 * * * *'";
const BAD_ZONE = "cron job 'daily': unknown time zone 'Mars/Olympus' (use an IANA name such as Europe/Berlin or UTC)";
const PUBLIC_CONSOLE = "console host '0.0.0.0' is not loopback: set SWITCHBOARD_CONSOLE_TOKEN";

describe('start and doctor decide the same', () => {
  it('doctor names every problem start stops on (a bad schedule, an unknown zone, a public console without a token), exit 1; start stops on the first', { timeout: 60_000 }, async () => {
    const env = setup(`${job('ticks', '61 * * * *')}\n${job('daily', '0 9 * * *', 'Mars/Olympus')}\n${job('fine', '0 8 * * *', 'Europe/Berlin')}`, {
      SWITCHBOARD_CONSOLE_HOST: '0.0.0.0',
      SWITCHBOARD_CONSOLE_PORT: '18787',
    });
    const [doctor, start] = await Promise.all([runCli(['doctor'], { env, timeoutMs: 45_000 }), runCli(['start'], { env, timeoutMs: 45_000 })]);
    expect(doctor.code).toBe(1);
    const lines = doctor.stdout.split('\n');
    expect(lines.find((l) => l.startsWith(`✗ cron: ${BAD_SCHEDULE}`))).toBeDefined();
    expect(lines).toContain(`✗ cron: ${BAD_ZONE}`);
    expect(lines.find((l) => l.startsWith(`✗ console: ${PUBLIC_CONSOLE}`))).toBeDefined();
    expect(doctor.stdout).not.toMatch(/All checks passed/);
    expect(doctor.stdout).not.toMatch(/'fine'/);

    expect(start.code).toBe(1);
    expect(start.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(start.stderr).toMatch(new RegExp(`^switchboard: ${BAD_SCHEDULE.replace(/[*()'.]/g, '\\$&')} .*\\(and 2 more problems: \`switchboard doctor\` lists them all\\)\\n$`));
  });

  it.each([
    ['an unknown time zone', job('daily', '0 9 * * *', 'Mars/Olympus'), {}, `✗ cron: ${BAD_ZONE}`],
  ])('%s alone: doctor reports it with exit 1, start refuses with the same line', { timeout: 60_000 }, async (_what, cron, extra, reported) => {
    const env = setup(cron, extra);
    const [doctor, start] = await Promise.all([runCli(['doctor'], { env, timeoutMs: 45_000 }), runCli(['start'], { env, timeoutMs: 45_000 })]);
    expect(doctor.code).toBe(1);
    const line = doctor.stdout.split('\n').find((l) => l.startsWith(reported));
    expect(line).toBeDefined();
    expect(start.code).toBe(1);
    expect(start.stderr).toBe(`switchboard: ${line?.slice(line.indexOf(': ') + 2)}\n`);
  });

  it('a good schedule, zone and a loopback console give doctor no such line', { timeout: 60_000 }, async () => {
    const doctor = await runCli(['doctor'], { env: setup(job('fine', '0 8 * * *', 'Europe/Berlin'), { SWITCHBOARD_CONSOLE_PORT: '18789' }) });
    expect(doctor.stdout).not.toMatch(/^✗ (cron|console):/m);
  });
});
