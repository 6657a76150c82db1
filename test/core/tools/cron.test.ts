import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCronTool, cronTool, jobIdFromPrompt } from '../../../src/core/tools/cron.js';
import { CronRepo } from '../../../src/core/cron/repo.js';
import { openStore, type Store } from '../../../src/core/store/store.js';
import { parseConfig } from '../../../src/core/config.js';
import { parseAllowList, type Settings } from '../../../src/core/settings.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { Provider } from '../../../src/core/providers/provider.js';
import type { ToolContext } from '../../../src/core/tools/types.js';

let dir: string;
let store: Store;
const NOW = new Date('2026-01-05T08:00:00Z');

const provider: Provider = {
  name: 'unconfigured',
  complete: () => Promise.reject(new Error('not used')),
  check: () => Promise.resolve(null),
};

function settings(): Settings {
  const config = parseConfig(
    'cron:\n  - id: daily-report\n    schedule: "0 9 * * 1-5"\n    prompt: "Summarise"\n    deliver: email:ops@example.com\n',
    'test.yaml',
  );
  return {
    home: dir,
    configPath: join(dir, 'config.yaml'),
    config,
    model: { provider: 'auto', name: 'test', baseURL: 'http://127.0.0.1:9/v1' },
    email: { from: 'bot@example.com', allowed: parseAllowList('') },
    secrets: [],
  };
}

function ctx(personKey: string, replyAddress = 'telegram:1001'): ToolContext {
  return {
    settings: settings(),
    store,
    logger: silentLogger,
    provider,
    platform: 'telegram',
    sessionKey: `${replyAddress}:${personKey}`,
    sessionId: 's1',
    personKey,
    replyAddress,
    signal: new AbortController().signal,
    now: () => NOW,
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-crontool-'));
  store = openStore(join(dir, 'state.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('cron tool', () => {
  it('creates a job that delivers to the chat it was asked from, with an id from the prompt', async () => {
    const out = await cronTool.run(
      { action: 'create', schedule: '0 9 * * 1', timezone: 'Europe/Berlin', prompt: 'Send me a summary of open GitHub issues' },
      ctx('alice'),
    );
    expect(out).toContain("Created cron job 'send-me-a-summary-of'.");
    // 08:00Z is 09:00 in Berlin on Monday 5 January: that slot is now, the next is a week later.
    expect(out).toContain('next run 2026-01-12 09:00:00 Europe/Berlin');
    expect(out).toContain('delivers to telegram:1001');
    const job = new CronRepo(store.db).get('send-me-a-summary-of')!;
    expect(job).toMatchObject({ source: 'chat', owner: 'alice', schedule: '0 9 * * 1', timezone: 'Europe/Berlin', deliver: 'telegram:1001', paused: false });
  });

  it('takes an explicit deliver address and id, and refuses duplicates and bad input with a clear error', async () => {
    const c = ctx('alice');
    expect(await cronTool.run({ action: 'create', id: 'weekly', schedule: '0 0 8 * * 1', prompt: 'Weekly digest', deliver: 'email:alice@example.com' }, c)).toContain(
      "Created cron job 'weekly'",
    );
    expect(await cronTool.run({ action: 'create', id: 'weekly', schedule: '0 8 * * 1', prompt: 'x' }, c)).toBe(
      "Error: a job 'weekly' already exists; choose another id or leave it out.",
    );
    expect(await cronTool.run({ action: 'create', id: 'daily-report', schedule: '0 8 * * 1', prompt: 'x' }, c)).toContain('already exists');
    expect(await cronTool.run({ action: 'create', schedule: '61 * * * *', prompt: 'x' }, c)).toBe("Error: invalid schedule '61 * * * *' (bad minute field '61').");
    expect(await cronTool.run({ action: 'create', schedule: '0 9 * * *', prompt: 'x', timezone: 'Moon/Base' }, c)).toBe(
      "Error: unknown time zone 'Moon/Base'; use an IANA name such as Europe/Berlin or UTC.",
    );
    expect(await cronTool.run({ action: 'create', schedule: '0 9 * * *', prompt: 'x', deliver: 'fax:123' }, c)).toContain("Error: cannot deliver to 'fax:123'");
    expect(await cronTool.run({ action: 'create', schedule: '0 9 * * *' }, c)).toContain('Error: "prompt" is required');
    expect(await cronTool.run({ action: 'create', id: 'Bad Id', schedule: '0 9 * * *', prompt: 'x' }, c)).toContain('Error: job ids use a-z, 0-9 and -');
    expect(await cronTool.run({ action: 'explode' }, c)).toMatch(/^Error: action:/);
  });

  it('lists, pauses, resumes and removes only the caller’s own jobs', async () => {
    const changes: string[] = [];
    const tool = createCronTool({ onChange: () => changes.push('changed') });
    // Make the config job exist in the table as the scheduler would.
    new CronRepo(store.db).syncConfig(settings().config.cron, NOW.getTime());
    await tool.run({ action: 'create', id: 'alice-news', schedule: '0 9 * * *', prompt: 'News for Alice' }, ctx('alice'));
    await tool.run({ action: 'create', id: 'bob-news', schedule: '0 9 * * *', prompt: 'News for Bob' }, ctx('bob', 'slack:C1'));

    const aliceList = await tool.run({ action: 'list' }, ctx('alice'));
    expect(aliceList).toContain('alice-news');
    expect(aliceList).not.toContain('bob-news');
    expect(aliceList).not.toContain('daily-report');
    expect(await tool.run({ action: 'list' }, ctx('carol'))).toBe('You have no scheduled jobs.');

    expect(await tool.run({ action: 'pause', id: 'bob-news' }, ctx('alice'))).toBe(
      "Error: you have no cron job 'bob-news' (use action \"list\" to see your jobs).",
    );
    expect(await tool.run({ action: 'remove', id: 'daily-report' }, ctx('alice'))).toBe(
      "Error: job 'daily-report' comes from the config file and can only be changed there.",
    );

    expect(await tool.run({ action: 'pause', id: 'alice-news' }, ctx('alice'))).toBe("Paused job 'alice-news'.");
    expect(await tool.run({ action: 'list' }, ctx('alice'))).toContain('paused');
    expect(await tool.run({ action: 'pause', id: 'alice-news' }, ctx('alice'))).toBe("Job 'alice-news' is already paused.");
    const resumed = await tool.run({ action: 'resume', id: 'alice-news' }, ctx('alice'));
    expect(resumed).toContain("Resumed job 'alice-news'.");
    expect(resumed).toContain('next run 2026-01-05');
    // Resuming moves the watermark, so slots missed while paused are not caught up.
    expect(new CronRepo(store.db).get('alice-news')!.lastSlot).toBe(NOW.getTime());

    expect(await tool.run({ action: 'remove', id: 'alice-news' }, ctx('alice'))).toBe("Removed job 'alice-news'.");
    expect(new CronRepo(store.db).get('alice-news')).toBeUndefined();
    expect(new CronRepo(store.db).get('bob-news')).toBeDefined();
    expect(changes).toHaveLength(5);
  });
});

describe('jobIdFromPrompt', () => {
  it('makes a short [a-z0-9-]+ id, unique among taken ids', () => {
    const taken = new Set(['daily-summary']);
    expect(jobIdFromPrompt('Daily summary!', (id) => taken.has(id))).toBe('daily-summary-2');
    expect(jobIdFromPrompt('Résumé der Woche', () => false)).toBe('resume-der-woche');
    expect(jobIdFromPrompt('!!!', () => false)).toBe('job');
  });
});
