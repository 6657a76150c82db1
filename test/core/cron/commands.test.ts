import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, usage, type CronCommandContext } from '../../../src/commands/cron.js';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';
import type { Store } from '../../../src/core/store/types.js';
import { parseDeliverableAddress } from '../../../src/platform/address.js';
import { parseConfig } from '../../../src/core/config.js';
import { parseAllowList, type Settings } from '../../../src/core/settings.js';

let dir: string;
let store: Store;
const NOW = new Date('2026-01-05T06:00:00Z');

function settings(cronYaml: string): Settings {
  return {
    home: dir,
    configPath: join(dir, 'config.yaml'),
    config: parseConfig(cronYaml, 'config.yaml'),
    model: { provider: 'auto', name: 'test', baseURL: 'http://127.0.0.1:9/v1' },
    email: { from: 'bot@example.com', allowed: parseAllowList('') },
    secrets: [],
  };
}

const CONFIG = `cron:
  - id: daily-report
    schedule: "0 9 * * 1-5"
    timezone: Europe/Berlin
    prompt: "Summarise yesterday's open issues."
    deliver: email:alice@example.com
  - id: heartbeat
    schedule: "*/30 * * * * *"
    timezone: UTC
    prompt: "Say hi"
    deliver: telegram:1001
`;

function io() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } },
  };
}

function context(yaml: string, runJobNow: CronCommandContext['runJobNow'] = () => Promise.reject(new Error('not expected'))): CronCommandContext {
  return { settings: settings(yaml), store, runJobNow, now: () => NOW };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-croncmd-'));
  store = openSqliteStore({ path: join(dir, 'state.db'), home: dir });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('switchboard cron list', () => {
  it('shows id, schedule, zone, next run, last run and its result for config and chat jobs', async () => {
    const repo = store.cron;
    await repo.syncConfig(settings(CONFIG).config.cron, NOW.getTime());
    const claim = await repo.claim('daily-report', Date.parse('2026-01-02T08:00:00Z'), Date.parse('2026-01-02T08:00:00Z'), false);
    if (claim.kind !== 'claimed') throw new Error('claim failed');
    await repo.finish(claim.runId, 'daily-report', 'ok', 'Open issues — Friday', Date.parse('2026-01-02T08:00:20Z'));
    await repo.insertChatJob(
      { id: 'weekly-digest', owner: 'alice', schedule: '0 8 * * 1', timezone: 'UTC', prompt: 'Digest', deliver: parseDeliverableAddress('telegram:1001:7') },
      NOW.getTime(),
    );
    await repo.setPaused('weekly-digest', true, NOW.getTime());

    const { out, io: streams } = io();
    expect(await run(['list'], streams, context(CONFIG))).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+SCHEDULE\s+ZONE\s+NEXT RUN\s+LAST RUN\s+RESULT\s+DELIVER\s+SOURCE$/);
    expect(lines[1]).toMatch(
      /^daily-report\s+0 9 \* \* 1-5\s+Europe\/Berlin\s+2026-01-05 09:00:00\s+2026-01-02 09:00:20\s+ok: Open issues — Friday\s+email:alice@example.com\s+config$/,
    );
    expect(lines[2]).toMatch(/^heartbeat\s+\*\/30 \* \* \* \* \*\s+UTC\s+2026-01-05 06:00:30\s+never\s+-\s+telegram:1001\s+config$/);
    expect(lines[3]).toMatch(/^weekly-digest\s+0 8 \* \* 1\s+UTC\s+paused\s+never\s+-\s+telegram:1001:7\s+chat:alice$/);
    expect(out.stderr).toBe('');
  });

  it('a bad schedule in the config is one line naming the job, exit 1', async () => {
    const { out, io: streams } = io();
    const bad = CONFIG.replace('"0 9 * * 1-5"', '"61 * * * *"');
    expect(await run(['list'], streams, context(bad))).toBe(1);
    expect(out.stderr).toBe("switchboard: cron job 'daily-report': invalid schedule '61 * * * *' (bad minute field '61')\n");
  });
});

describe('switchboard cron run', () => {
  it('an unknown id is one line and exit 1', async () => {
    const { out, io: streams } = io();
    expect(await run(['run', 'nope'], streams, context(CONFIG))).toBe(1);
    expect(out.stderr).toBe("switchboard: unknown cron job 'nope' (see 'switchboard cron list')\n");
  });

  it('runs a config job through runJobNow and reports the outcome', async () => {
    const calls: string[] = [];
    const delivered = io();
    const ctx = context(CONFIG, async (id) => {
      calls.push(id);
      return calls.length === 1
        ? { delivered: true, detail: "job 'daily-report': delivered to email:alice@example.com" }
        : { delivered: false, detail: "job 'daily-report': not delivered yet (451 greylisted); left in the outbox for the gateway" };
    });
    expect(await run(['run', 'daily-report'], delivered.io, ctx)).toBe(0);
    expect(delivered.out.stdout).toBe("job 'daily-report': delivered to email:alice@example.com\n");
    const failed = io();
    expect(await run(['run', 'daily-report'], failed.io, ctx)).toBe(1);
    expect(failed.out.stderr).toContain('left in the outbox');
    expect(calls).toEqual(['daily-report', 'daily-report']);
  });

  it('anything else: one line naming the mistake, then the usage; exit 2', async () => {
    const { out, io: streams } = io();
    expect(await run(['frobnicate'], streams, context(CONFIG))).toBe(2);
    expect(out.stderr).toBe(`switchboard cron: unknown action 'frobnicate'\n${usage}\n`);
    expect(usage).toMatch(/^usage: switchboard cron list \| switchboard cron run ID\n/);
  });
});
