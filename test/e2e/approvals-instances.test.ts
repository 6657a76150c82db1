/**
 * Approvals across instances on one PostgreSQL: the prompt comes from the instance that ran the turn, the
 * press reaches another one, and that one resumes the turn — the call runs once, the answer arrives once;
 * a press on the first instance afterwards is "already approved".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { blockActionsBody, eventBody, postSigned, startSlackFake, type SlackFake } from '../fakes/slack.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { ENGINES, reportSkips, type EngineDb } from '../helpers/engines.js';
import { freePort } from '../helpers/ports.js';
import { approvalScript, toolResults } from '../helpers/approvals.js';
import { doorEnv } from '../helpers/door-env.js';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;
reportSkips();
const SECRET = 'approvals-instances-secret';

let model: ModelFake;
let slack: SlackFake;
let db: EngineDb | undefined;
const homes: string[] = [];
const instances: Array<{ gw: Running; events: string }> = [];

beforeAll(async () => {
  if (postgres.skip) return;
  model = await startModelFake({ script: approvalScript });
  slack = await startSlackFake({ users: { U1001: { name: 'alice' } } });
  db = await postgres.create();
  const config = join(db.home, 'config.yaml');
  writeFileSync(config, 'gateway:\n  lease_seconds: 1.5\nstreaming:\n  slack: off\n');
  for (const id of ['appr-a', 'appr-b']) {
    const home = mkdtempSync(join(tmpdir(), `sb-${id}-`));
    homes.push(home);
    const port = await freePort();
    const gw = startCli(['start'], {
      env: cleanEnv({
        SWITCHBOARD_HOME: home,
        SWITCHBOARD_CONFIG: config,
        SWITCHBOARD_INSTANCE_ID: id,
        DATABASE_URL: db.location,
        ...doorEnv.model(model),
        ...doorEnv.slack(slack, { allowed: 'U1001', http: { secret: SECRET, port } }),
      }),
    });
    instances.push({ gw, events: `http://127.0.0.1:${port}/slack/events` });
  }
  for (const i of instances) await i.gw.waitFor(/ready \(/, 30_000);
});

afterAll(() => cleanUp(...instances.map((i) => () => killIfRunning(i.gw)), () => slack?.close(), () => model?.close(), () => db?.cleanup(), ...homes.map((h) => () => removeDir(h))));

let ts = 0;
/** A DM from U1001 through instance `via`; resolves with the first bot message after it (or the first `count`). */
async function dm(text: string, via: number, count = 1) {
  const n = slack.messages.length;
  await postSigned(instances[via].events, SECRET, eventBody({ type: 'message', channel_type: 'im', channel: 'D0DM', user: 'U1001', text, ts: `17300${String(++ts).padStart(5, '0')}.000100` }));
  await until(() => slack.messages.length >= n + count, 15_000, `an answer to ${text}`, instances[via].gw);
  return slack.messages[n];
}

describe.skipIf(Boolean(postgres.skip))(`approvals on two instances on one PostgreSQL${postgres.skip ? ` (skipped: ${postgres.skip})` : ''}`, () => {
  it('the press reaches the other instance: the call runs once there and the answer arrives once', async () => {
    await dm('the code word is zebra', 0);
    await dm('/new', 0);
    const prompt = await dm('SAVE zebra', 0);
    const raw = prompt.params.blocks;
    const blocks = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>;
    const approve = blocks.find((b) => b.type === 'actions')!.elements![0];
    const press = (via: number, url: string) =>
      postSigned(instances[via].events, SECRET, blockActionsBody({ userId: 'U1001', channel: 'D0DM', messageTs: prompt.ts, messageText: prompt.text, actionId: approve.action_id, value: approve.value, responseUrl: url }));

    const n = slack.messages.length;
    const before = model.completions().length;
    expect((await press(1, slack.responseUrl('on-b'))).status).toBe(200);
    await until(() => slack.messages.length > n, 15_000, 'the answer', instances[1].gw);
    expect(slack.messages[n].text).toMatch(/^Memory tool said: Saved/);
    expect((await press(0, slack.responseUrl('on-a'))).status).toBe(200);
    await until(() => slack.responsePosts.some((p) => p.id === 'on-a'), 20_000, 'the second press answered', instances[0].gw);
    expect(String(slack.responsePosts.find((p) => p.id === 'on-a')!.body.text)).toMatch(/already approved/);
    await sleep(1000);
    expect(slack.messages.length).toBe(n + 1);
    // the memory tool ran once: one request after the press carries its result
    const after = model.completions().slice(before);
    expect(after.filter((r) => toolResults(r, 'memory').length === 1)).toHaveLength(1);
    expect(instances[1].gw.stderr()).toMatch(/approval \w+: running memory/);
    expect(instances[0].gw.stderr()).not.toMatch(/running memory/);
  });

  it('a message to the other instance while a call waits: that instance closes the approval as not answered, then answers the message', async () => {
    // Instance b answers this session first, so it has met it before the approval exists: only the journal
    // can tell b that a call now waits (a process's own memory of pending approvals would not).
    await dm('hello from b', 1);
    const prompt = await dm('SAVE yak', 0);
    expect(prompt.text).toContain('Approval needed');
    const n = slack.messages.length;
    await dm('actually, never mind', 1, 2);
    const [ended, answered] = slack.messages.slice(n, n + 2);
    expect(ended.text).toMatch(/^Memory tool said: not answered: the user sent a new message/);
    expect(answered.text).toBe('Noted: actually, never mind');
    // the prompt, posted by instance a, is closed by b: buttons gone, saying why
    const update = slack.callsTo('chat.update').find((c) => c.params.ts === prompt.ts);
    expect(String(update?.params.text)).toMatch(/Not answered: a new message came, so the call was not made\./);
    expect(instances[1].gw.stderr()).toMatch(/not answered: a new message came in its chat/);
  });
});
