/** The core's side of a cron run: the turn on platform `cron`, the report into the outbox. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';
import type { Repositories, Store } from '../../../src/core/store/types.js';
import { Replies } from '../../../src/core/gateway/replies.js';
import { createCronDeliverer, createCronRunner, type CronBridgeDeps } from '../../../src/core/cron/bridge.js';
import { NO_QUESTION_RETRY_INSTRUCTION } from '../../../src/core/cron/question.js';
import type { CronJob } from '../../../src/core/cron/types.js';
import type { TurnInput, TurnResult } from '../../../src/core/agent.js';
import { parseConfig } from '../../../src/core/config.js';
import { parseAllowList, type Settings } from '../../../src/core/settings.js';
import type { Address } from '../../../src/platform/address.js';

const NOW = new Date('2026-01-05T08:00:00Z');
const CONFIG = `people:
  alice: [email:alice@example.com]
cron:
  - id: daily-report
    schedule: "0 9 * * 1-5"
    timezone: Europe/Berlin
    prompt: "Summarise yesterday's open issues."
    deliver: email:Alice@Example.com
  - id: heartbeat
    schedule: "0 * * * *"
    prompt: "Say hi"
    deliver: telegram:-100123:42
`;

let dir: string;
let store: Store;
let settings: Settings;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-cronbridge-'));
  store = openSqliteStore({ path: join(dir, 'state.db'), home: dir });
  settings = {
    home: dir,
    configPath: 'config.yaml',
    config: parseConfig(CONFIG, 'config.yaml'),
    model: { provider: 'auto', name: 'test', baseURL: 'http://127.0.0.1:9/v1' },
    email: { from: 'bot@example.com', allowed: parseAllowList('') },
    secrets: [],
  };
  await store.cron.syncConfig(settings.config.cron, NOW.getTime());
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const jobOf = async (id: string): Promise<CronJob> => (await store.cron.get(id))!;

/** An agent that answers from a list and records its turns and what was committed. */
function fakeAgent(answers: string[]) {
  const turns: TurnInput[] = [];
  const committed: Array<{ answer: string; person: string; inTransaction: boolean }> = [];
  const agent: CronBridgeDeps['agent'] = {
    async turn(input) {
      turns.push(input);
      return { answer: answers.shift() ?? '', newMessages: [], requests: 1 } as unknown as TurnResult;
    },
    async commit(tx: Repositories, result, person) {
      committed.push({ answer: result.answer, person, inTransaction: tx !== store });
    },
  };
  return { agent, turns, committed };
}

function deps(agent: CronBridgeDeps['agent'], waitFor: (id: number) => Promise<boolean> = () => new Promise(() => undefined)) {
  const kicked: Address[] = [];
  const replies = new Replies({ store, render: (_p, md) => ({ chunks: md.trim() ? [md] : [] }), kick: (chat) => kicked.push(chat), now: () => NOW });
  const d: CronBridgeDeps = { agent, store, settings, replies, delivery: { waitFor }, now: () => NOW };
  return { deps: d, kicked };
}

describe('cron runner', () => {
  it('runs on the job session of platform cron, replying to the job target, and retries an answer that is only a question', async () => {
    const { agent, turns, committed } = fakeAgent(['Which repository should I look at?', '# Open issues\n\nNone.']);
    const run = createCronRunner(deps(agent).deps);
    const job = await jobOf('daily-report');
    const out = await run(job, new Date('2026-01-05T08:00:00Z'), new AbortController().signal);
    expect(out.answer).toBe('# Open issues\n\nNone.');
    expect(turns).toHaveLength(2);
    expect(turns[0]).toMatchObject({
      session: { platform: 'cron', chatId: 'daily-report', userId: 'daily-report' },
      personKey: 'alice',
      replyAddress: { platform: 'email', chatId: 'alice@example.com' },
      unattended: true,
      userContent: 'Scheduled run of job daily-report (2026-01-05T08:00:00.000Z).',
    });
    expect(turns[0].tail).toBe("Scheduled task of job daily-report, to be delivered to email:alice@example.com:\nSummarise yesterday's open issues.");
    expect(turns[1].tail).toContain(NO_QUESTION_RETRY_INSTRUCTION);
    // Only the final turn is stored, inside a transaction.
    expect(committed).toEqual([{ answer: '# Open issues\n\nNone.', person: 'alice', inTransaction: true }]);
  });

  it('a config job nobody owns runs as the person its report goes to', async () => {
    const { agent, turns } = fakeAgent(['ok']);
    await createCronRunner(deps(agent).deps)(await jobOf('heartbeat'), NOW, new AbortController().signal);
    expect(turns[0].personKey).toBe('telegram--100123');
    expect(turns[0].tail).toContain('to be delivered to telegram:-100123:42:');
  });
});

describe('cron deliverer', () => {
  it('stores the report in the outbox for the job target (e-mail with its subject) and kicks its chat', async () => {
    const { agent } = fakeAgent([]);
    const { deps: d, kicked } = deps(agent);
    const queued: Array<[string, number]> = [];
    const deliver = createCronDeliverer(d, (jobId, id) => queued.push([jobId, id]));
    await deliver(await jobOf('daily-report'), '# Open issues — Monday\n\n- 3 bugs', Promise.resolve());
    expect(queued).toHaveLength(1);
    const item = (await store.outbox.get(queued[0][1]))!;
    expect(item).toMatchObject({ sessionKey: 'cron:daily-report', status: 'pending', message: { subject: 'Open issues — Monday' } });
    expect(item.target).toMatchObject({ platform: 'email', chatId: 'alice@example.com' });
    expect(kicked).toEqual([{ platform: 'email', chatId: 'alice@example.com' }]);

    await deliver(await jobOf('heartbeat'), 'Hi', Promise.resolve());
    const chat = (await store.outbox.get(queued[1][1]))!;
    expect(chat.target).toMatchObject({ platform: 'telegram', chatId: '-100123', threadId: '42' });
    expect(chat.message.subject).toBeUndefined();
  });

  it('a report refused for good marks the job, after the scheduler has recorded the run', async () => {
    const { agent } = fakeAgent([]);
    let settle!: (sent: boolean) => void;
    const { deps: d } = deps(agent, () => new Promise((resolve) => (settle = resolve)));
    let ids: number[] = [];
    const deliver = createCronDeliverer(d, (_job, id) => (ids = [...ids, id]));
    let markRecorded!: () => void;
    const recorded = new Promise<void>((resolve) => (markRecorded = resolve));
    await deliver(await jobOf('daily-report'), '# Report', recorded);
    await store.outbox.failed(ids[0], '550 no such user');
    settle(false);
    await new Promise((r) => setTimeout(r, 20));
    // Not yet: the run is still being recorded. Then the scheduler writes 'ok'…
    expect((await jobOf('daily-report')).lastStatus).toBeNull();
    const claim = await store.cron.claim('daily-report', NOW.getTime(), NOW.getTime(), false);
    if (claim.kind !== 'claimed') throw new Error('claim failed');
    await store.cron.finish(claim.runId, 'daily-report', 'ok', 'Report', NOW.getTime());
    markRecorded();
    await new Promise((r) => setTimeout(r, 20));
    // …and the delivery failure comes after it, so it is what `cron list` shows.
    expect(await jobOf('daily-report')).toMatchObject({ lastStatus: 'error', lastResult: 'delivery failed: 550 no such user' });
  });
});
