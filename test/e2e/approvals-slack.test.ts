/**
 * Approvals on Slack through `switchboard start`: Block Kit buttons on the prompt, `block_actions` signed
 * as Slack signs them (HTTP mode) and over Socket Mode; the presser's one line ephemeral, the prompt
 * replaced through the interaction's response_url once decided.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { blockActionsBody, blockActionsPayload, eventBody, postSigned, startSlackFake, type PostedMessage, type SlackFake } from '../fakes/slack.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { doorEnv } from '../helpers/door-env.js';
import { freePort } from '../helpers/ports.js';
import { approvalScript } from '../helpers/approvals.js';

const SECRET = 'e2e-signing-secret';
let model: ModelFake;
let slack: SlackFake;
let home: string;
let tsCounter = 0;
const nextTs = () => `17200${String(++tsCounter).padStart(5, '0')}.000100`;

beforeAll(async () => {
  model = await startModelFake({ script: approvalScript });
  slack = await startSlackFake({ users: { U1001: { name: 'alice' }, U2002: { name: 'mallory' } } });
  home = mkdtempSync(join(tmpdir(), 'sb-approvals-slack-'));
  writeFileSync(join(home, 'config.yaml'), 'streaming:\n  slack: off\n');
});
afterAll(() => cleanUp(() => slack?.close(), () => model?.close(), () => removeDir(home)));

function env(extra: Record<string, string>) {
  return cleanEnv({ SWITCHBOARD_HOME: home, ...doorEnv.model(model), ...doorEnv.slack(slack, { allowed: 'U1001' }), ...extra });
}

const memory = () => {
  const f = join(home, 'memories', 'slack-U1001', 'MEMORY.md');
  return existsSync(f) ? readFileSync(f, 'utf8') : '';
};
type Blocks = Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>;
const buttonsOf = (m: PostedMessage) => {
  // The Web API client form-encodes blocks as JSON text.
  const raw = m.params.blocks;
  const blocks = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as Blocks;
  return blocks.find((b) => b.type === 'actions')?.elements ?? [];
};

describe('approvals on Slack', () => {
  let gw: Running;
  afterAll(() => killIfRunning(gw));

  it('HTTP mode: Approve / Deny buttons; a stranger gets one ephemeral line; the approver\'s press runs the call once and replaces the prompt', async () => {
    const port = await freePort();
    const events = `http://127.0.0.1:${port}/slack/events`;
    gw = startCli(['start'], { env: env({ SLACK_SIGNING_SECRET: SECRET, SLACK_PORT: String(port) }) });
    await gw.waitFor(/ready \(slack/);
    const dm = async (text: string) => {
      const n = slack.messages.length;
      await postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'im', channel: 'D0DM', user: 'U1001', text, ts: nextTs() }));
      await until(() => slack.messages.length > n, 20_000, `an answer to ${text}`, gw);
      return slack.messages[n];
    };
    await dm('the code word is zebra');
    await dm('/new');
    const prompt = await dm('SAVE zebra');
    expect(prompt.text).toContain('Approval needed');
    expect(prompt.text).toContain('read text from another session');
    const [approve, deny] = buttonsOf(prompt);
    expect([approve?.action_id, deny?.action_id]).toEqual(['sb_approval_approve', 'sb_approval_deny']);

    const press = (userId: string, button: { action_id: string; value: string }, responseUrl: string) =>
      postSigned(events, SECRET, blockActionsBody({ userId, channel: 'D0DM', messageTs: prompt.ts, messageText: prompt.text, actionId: button.action_id, value: button.value, responseUrl }));
    // a forged press is refused before anything
    const forged = await postSigned(events, SECRET, blockActionsBody({ userId: 'U1001', channel: 'D0DM', messageTs: prompt.ts, actionId: approve.action_id, value: approve.value, responseUrl: slack.responseUrl('forged') }), { signWith: 'wrong' });
    expect(forged.status).toBe(401);

    const strangerUrl = slack.responseUrl('stranger');
    expect((await press('U2002', approve, strangerUrl)).status).toBe(200);
    await until(() => slack.responsePosts.some((p) => p.id === 'stranger'), 20_000, 'the refusal', gw);
    const refusal = slack.responsePosts.find((p) => p.id === 'stranger')!;
    expect(refusal.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(refusal.body.text)).toMatch(/^Only the person who asked/);
    expect(memory()).not.toContain('zebra');

    const n = slack.messages.length;
    const url = slack.responseUrl('approver');
    expect((await press('U1001', approve, url)).status).toBe(200);
    await until(() => slack.messages.length > n, 20_000, 'the answer', gw);
    expect(slack.messages[n].text).toMatch(/^Memory tool said: /);
    await until(() => slack.responsePosts.some((p) => p.id === 'approver'), 20_000, 'the prompt replaced', gw);
    const replaced = slack.responsePosts.find((p) => p.id === 'approver')!;
    expect(replaced.body.replace_original).toBe(true);
    expect(String(replaced.body.text)).toContain('Approved by @u1001');
    expect(JSON.stringify(replaced.body.blocks)).not.toContain('sb_approval_approve');
    // a replayed press: one line, nothing runs again
    const replay = slack.responseUrl('replay');
    await press('U1001', deny, replay);
    await until(() => slack.responsePosts.some((p) => p.id === 'replay'), 20_000, 'the replay answered', gw);
    expect(String(slack.responsePosts.find((p) => p.id === 'replay')!.body.text)).toMatch(/already approved/);
    await sleep(300);
    expect(memory().match(/zebra/g)).toHaveLength(1);
    expect(slack.messages.length).toBe(n + 1);
    expect(await gw.stop('SIGTERM')).toBe(0);
  });

  it('Socket Mode: the press arrives as an interactive envelope, is acknowledged, and runs the call', async () => {
    gw = startCli(['start'], { env: env({ SLACK_APP_TOKEN: slack.appToken }) });
    await gw.waitFor(/ready \(slack/);
    await slack.socketConnected();
    const n0 = slack.messages.length;
    await slack.sendSocketEnvelope('events_api', JSON.parse(eventBody({ type: 'message', channel_type: 'im', channel: 'D0DM', user: 'U1001', text: 'SAVE yak', ts: nextTs() })) as Record<string, unknown>);
    await until(() => slack.messages.length > n0, 20_000, 'the prompt', gw);
    const prompt = slack.messages[n0];
    const [approve] = buttonsOf(prompt);
    const url = slack.responseUrl('socket');
    const ack = await slack.sendSocketEnvelope('interactive', blockActionsPayload({ userId: 'U1001', channel: 'D0DM', messageTs: prompt.ts, messageText: prompt.text, actionId: approve.action_id, value: approve.value, responseUrl: url }));
    expect(ack.envelope_id).toBeTruthy();
    await until(() => slack.messages.length > n0 + 1, 20_000, 'the answer', gw);
    expect(slack.messages[n0 + 1].text).toMatch(/^Memory tool said: /);
    expect(memory()).toContain('yak');
    await until(() => slack.responsePosts.some((p) => p.id === 'socket'), 20_000, 'the prompt replaced', gw);
  });
});
