import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCronTool, cronTool, jobIdFromPrompt } from '../../../src/core/tools/cron.js';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';
import type { Store } from '../../../src/core/store/types.js';
import { DELIVERABLE_FORMS, formatSessionKey, parseDeliverableAddress, type Address } from '../../../src/platform/address.js';
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

let extraConfig: string[] = [];

function settings(): Settings {
  const config = parseConfig(
    [
      'cron:\n  - id: daily-report\n    schedule: "0 9 * * 1-5"\n    prompt: "Summarise"\n    deliver: email:ops@example.com',
      'people:\n  alice: [telegram:1001, email:alice@example.com]\n  local: [cli:local, telegram:2002]',
      ...extraConfig,
    ].join('\n'),
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

/** A turn of `personKey` in the chat `replyAddress` (a Telegram DM unless given). */
function ctx(personKey: string, replyAddress: Address = { platform: 'telegram', chatId: '1001' }): ToolContext {
  const session = { platform: replyAddress.platform, chatId: replyAddress.chatId, threadId: replyAddress.threadId, userId: personKey };
  return {
    settings: settings(),
    store,
    logger: silentLogger,
    provider,
    platform: replyAddress.platform,
    session,
    sessionKey: formatSessionKey(session),
    sessionId: 's1',
    personKey,
    replyAddress,
    signal: new AbortController().signal,
    now: () => NOW,
  };
}

beforeEach(() => {
  extraConfig = [];
  dir = mkdtempSync(join(tmpdir(), 'sb-crontool-'));
  store = openSqliteStore({ path: join(dir, 'state.db'), home: dir });
});
afterEach(async () => {
  await store.close();
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
    const job = (await store.cron.get('send-me-a-summary-of'))!;
    expect(job).toMatchObject({ source: 'chat', owner: 'alice', schedule: '0 9 * * 1', timezone: 'Europe/Berlin', paused: false });
    expect(job.deliver).toEqual({ platform: 'telegram', chatId: '1001' });
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
    expect(await cronTool.run({ action: 'create', schedule: '0 9 * * *' }, c)).toContain('Error: "prompt" is required');
    expect(await cronTool.run({ action: 'create', id: 'Bad Id', schedule: '0 9 * * *', prompt: 'x' }, c)).toContain('Error: job ids use a-z, 0-9 and -');
    expect(await cronTool.run({ action: 'explode' }, c)).toMatch(/^Error: action:/);
  });

  it('defaults to the chat and thread it was asked from, without the reply details of the message', async () => {
    const thread: Address & Record<string, unknown> = {
      platform: 'slack',
      chatId: 'C0123',
      threadId: '1700000000.000100',
      userId: 'U1',
      replyToMessageId: '1700000001.000200',
      extra: { response_url: 'https://hooks.slack.test/x' },
    };
    const out = await cronTool.run({ action: 'create', id: 'standup', schedule: '0 9 * * 1-5', prompt: 'Standup notes' }, ctx('alice', thread));
    expect(out).toContain('delivers to slack:C0123:1700000000.000100');
    expect((await store.cron.get('standup'))!.deliver).toEqual({ platform: 'slack', chatId: 'C0123', threadId: '1700000000.000100' });
  });

  it('parses an explicit deliver once: a bad one is an error naming the accepted forms', async () => {
    const c = ctx('alice');
    const create = (deliver: string) => cronTool.run({ action: 'create', schedule: '0 9 * * *', prompt: 'Digest', deliver }, c);
    expect(await create('fax:123')).toBe(`Error: 'fax:123' is not an address a reply can be sent to; expected ${DELIVERABLE_FORMS}.`);
    expect(await create('cli:local')).toBe(`Error: 'cli:local' is not an address a reply can be sent to; expected ${DELIVERABLE_FORMS}.`);
    expect(await create('email:not-an-address')).toBe(
      `Error: 'email:not-an-address' is not a valid email address; expected email:<address>. A report can go to ${DELIVERABLE_FORMS}.`,
    );
    expect(await create('telegram:-100123:42:9')).toContain("Error: 'telegram:-100123:42:9' is not a valid telegram address");
    expect(await store.cron.listByOwner('alice')).toEqual([]);
    expect(await create(' email:Alice@Example.COM ')).toContain('delivers to email:alice@example.com');
    expect((await store.cron.listByOwner('alice'))[0].deliver).toEqual({ platform: 'email', chatId: 'alice@example.com' });
  });

  it('delivers only to the asking person (this chat, their own or linked ids) unless config cron_targets allows more', async () => {
    const create = (c: ToolContext, deliver: string) => cronTool.run({ action: 'create', schedule: '0 9 * * *', prompt: 'Digest', deliver }, c);
    const alice = ctx('alice');
    for (const other of ['email:mallory@evil.example', 'telegram:99887766', 'slack:C0EVIL123', 'telegram:2002']) {
      expect(await create(alice, other), other).toMatch(/^Error: a job may deliver only to you/);
    }
    expect(await store.cron.listByOwner('alice')).toEqual([]);
    expect(await create(alice, 'telegram:1001')).toContain('delivers to telegram:1001');
    expect(await create(alice, 'email:ALICE@example.com')).toContain('delivers to email:alice@example.com');
    // Someone config does not link may still send to their own id on the platform they wrote from.
    const carol = { ...ctx('telegram-3003', { platform: 'telegram', chatId: '-100555' }), session: { platform: 'telegram' as const, chatId: '-100555', userId: '3003' } };
    expect(await create(carol, 'telegram:3003')).toContain('delivers to telegram:3003');
    expect(await create(carol, 'telegram:1001')).toMatch(/^Error: a job may deliver only to you/);
    extraConfig = ['cron_targets: [slack:C0TEAM]'];
    expect(await create(ctx('alice'), 'slack:C0TEAM')).toContain('delivers to slack:C0TEAM');
    expect(await create(ctx('alice'), 'slack:C0EVIL123')).toMatch(/^Error/);
    extraConfig = ['cron_targets: ["*"]'];
    expect(await create(ctx('alice'), 'slack:C0EVIL123')).toContain('delivers to slack:C0EVIL123');
  });

  it('refuses to default to a chat that cannot receive reports (the terminal), saying what to give instead', async () => {
    const terminal = ctx('local', { platform: 'cli', chatId: 'local' });
    expect(await cronTool.run({ action: 'create', schedule: '0 9 * * *', prompt: 'Digest' }, terminal)).toBe(
      `Error: this chat (cli:local, the terminal) cannot receive scheduled reports; give "deliver" as one of ${DELIVERABLE_FORMS}.`,
    );
    expect(await store.cron.listByOwner('local')).toEqual([]);
    expect(await cronTool.run({ action: 'create', schedule: '0 9 * * *', prompt: 'Digest', deliver: 'telegram:2002' }, terminal)).toContain(
      'delivers to telegram:2002',
    );
  });

  it('two creates at once get distinct ids and both count against the limit', async () => {
    const c = ctx('alice');
    const outs = await Promise.all([
      cronTool.run({ action: 'create', schedule: '0 9 * * *', prompt: 'Morning digest' }, c),
      cronTool.run({ action: 'create', schedule: '0 9 * * *', prompt: 'Morning digest' }, c),
    ]);
    expect(outs.map((o) => o.split('\n')[0]).sort()).toEqual(["Created cron job 'morning-digest'.", "Created cron job 'morning-digest-2'."]);
  });

  it('lists, pauses, resumes and removes only the caller’s own jobs', async () => {
    const changes: string[] = [];
    const tool = createCronTool({ onChange: () => changes.push('changed') });
    // Make the config job exist in the table as the scheduler would.
    await store.cron.syncConfig(settings().config.cron, NOW.getTime());
    await tool.run({ action: 'create', id: 'alice-news', schedule: '0 9 * * *', prompt: 'News for Alice' }, ctx('alice'));
    await tool.run({ action: 'create', id: 'bob-news', schedule: '0 9 * * *', prompt: 'News for Bob' }, ctx('bob', parseDeliverableAddress('slack:C0B0B')));

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
    expect((await store.cron.get('alice-news'))!.lastSlot).toBe(NOW.getTime());

    expect(await tool.run({ action: 'remove', id: 'alice-news' }, ctx('alice'))).toBe("Removed job 'alice-news'.");
    expect(await store.cron.get('alice-news')).toBeUndefined();
    expect(await store.cron.get('bob-news')).toBeDefined();
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
