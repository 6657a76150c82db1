/**
 * Streamed answers on Slack through the real `switchboard start` (ARCHITECTURE.md §10), edit mode:
 * chat.postMessage, then chat.update at most once a second, and the finished answer updates the
 * streamed message to what `streaming: off` posts; 429s on chat.update are skipped while streaming
 * and waited out for the final update.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { eventBody, postSigned, startSlackFake, type SlackFake } from '../fakes/slack.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, until, type Running } from '../helpers/cli.js';
import { doorEnv } from '../helpers/door-env.js';
import { freePort } from '../helpers/ports.js';

const SECRET = 'e2e-signing-secret';
const ALICE = 'U1001';
let model: ModelFake;
let slack: SlackFake;
let home: string;
let gw: Running;
let events: string;
let tsCounter = 0;
const nextTs = () => `17200${String(++tsCounter).padStart(5, '0')}.000${String(tsCounter).padStart(3, '0')}`;

const ANSWER =
  'Here is the **plan** for today, step by step:\n\n1. Read the `config` file and check each *setting* twice.\n2. Start the gateway and watch the log for errors.\n\nThat is all for now; tell me when it runs.';

beforeAll(async () => {
  model = await startModelFake({ script: (req) => (lastUserText(req).includes('plan') ? { text: ANSWER, tokensPerSecond: 25 } : { text: `Echo: ${lastUserText(req)}` }) });
  slack = await startSlackFake({ users: { U1001: { name: 'alice', real_name: 'Alice Example' } } });
  home = mkdtempSync(join(tmpdir(), 'sb-stream-slack-'));
  writeFileSync(join(home, 'config.yaml'), 'streaming:\n  slack: edit\nchats:\n  "slack:D0OFF":\n    streaming: off\n  "slack:C0NATIVE":\n    streaming: native\n');
  const port = await freePort();
  events = `http://127.0.0.1:${port}/slack/events`;
  gw = startCli(['start'], {
    env: cleanEnv({ SWITCHBOARD_HOME: home, ...doorEnv.model(model), ...doorEnv.slack(slack, { allowed: ALICE, http: { secret: SECRET, port } }) }),
  });
  await gw.waitFor(/ready \(slack/);
});
afterAll(() => cleanUp(() => killIfRunning(gw), () => slack?.close(), () => model?.close(), () => removeDir(home)));

const dm = (channel: string, text: string) => postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'im', channel, user: ALICE, text, ts: nextTs() }));
const postedIn = (channel: string, from: number) => slack.messages.slice(from).filter((m) => m.channel === channel);

let expected: string[] = [];

describe('streaming on Slack (edit)', () => {
  it('posts the first part, updates it at most once a second, and ends with the text `streaming: off` posts; 429s lose nothing', async () => {
    let from = slack.messages.length;
    await dm('D0OFF', 'the plan');
    await until(() => postedIn('D0OFF', from).length >= 1, 15_000, 'the unstreamed answer', gw);
    await sleep(300);
    expected = postedIn('D0OFF', from).map((m) => m.text!);
    expect(slack.visible.filter((v) => v.channel === 'D0OFF' && v.kind === 'update')).toEqual([]);

    for (const storm of [false, true]) {
      from = slack.messages.length;
      const visibleFrom = slack.visible.length;
      const streams = model.streams.length;
      if (storm) slack.rateLimit('chat.update', 1, 3);
      await dm('D0DM', 'the plan');
      await until(() => postedIn('D0DM', from).some((m) => m.text === expected[0]), 20_000, 'the finished answer', gw);
      await sleep(1200);
      expect(postedIn('D0DM', from).map((m) => m.text)).toEqual(expected);
      const changes = slack.visible.slice(visibleFrom).filter((v) => v.channel === 'D0DM');
      expect(changes[0].kind).toBe('post');
      expect(changes[0].at).toBeLessThan(model.streams[streams].lastTokenAt);
      if (!storm) {
        expect(changes.filter((c) => c.kind === 'update').length).toBeGreaterThanOrEqual(2);
        for (let i = 1; i < changes.length - 1; i++) expect(changes[i].at - changes[i - 1].at).toBeGreaterThanOrEqual(900);
      }
    }
    expect(slack.calls.filter((c) => c.error && c.error !== 'ratelimited')).toEqual([]);
  });
});

describe('streaming on Slack (native)', () => {
  it('streams a mention into a thread with chat.startStream / appendStream / stopStream, then updates it to the unstreamed text', async () => {
    expect(expected).toHaveLength(1);
    const from = slack.messages.length;
    const visibleFrom = slack.visible.length;
    const streams = model.streams.length;
    const mention = nextTs();
    await postSigned(events, SECRET, eventBody({ type: 'app_mention', channel: 'C0NATIVE', user: ALICE, text: `<@${slack.botUserId}> the plan`, ts: mention }));
    await until(() => postedIn('C0NATIVE', from).some((m) => m.text === expected[0]), 20_000, 'the finished answer', gw);
    await sleep(1200);
    const posted = postedIn('C0NATIVE', from);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ method: 'chat.startStream', thread_ts: mention, streaming: false, text: expected[0] });
    expect(posted[0].params).toMatchObject({ recipient_team_id: slack.teamId, recipient_user_id: ALICE });
    const changes = slack.visible.slice(visibleFrom).filter((v) => v.channel === 'C0NATIVE');
    expect(changes.map((c) => c.kind)[0]).toBe('start');
    expect(changes.filter((c) => c.kind === 'append').length).toBeGreaterThanOrEqual(1);
    expect(changes.map((c) => c.kind).slice(-2)).toEqual(['stop', 'update']);
    expect(changes[0].at).toBeLessThan(model.streams[streams].lastTokenAt);
    // the streamed Markdown is the model's own text, growing
    const stopped = changes.find((c) => c.kind === 'stop')!;
    expect(ANSWER.startsWith(stopped.text)).toBe(true);
    for (let i = 1; i < changes.length - 2; i++) expect(changes[i].at - changes[i - 1].at).toBeGreaterThanOrEqual(900);
    expect(slack.calls.filter((c) => c.error && c.error !== 'ratelimited')).toEqual([]);
  });
});
