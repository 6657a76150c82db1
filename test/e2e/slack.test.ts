/**
 * `switchboard start` with Slack: the real command as a child process, Bolt's HTTP receiver on SLACK_PORT,
 * signed requests in, the Web API and response_url answered by the loopback Slack fake, the model by the
 * model fake.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { commandBody, eventBody, postSigned, startSlackFake, urlVerificationBody, type SlackFake } from '../fakes/slack.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, runCli, startCli, type Running } from '../helpers/cli.js';
import { doorEnv } from '../helpers/door-env.js';
import { freePort } from '../helpers/ports.js';

const SECRET = 'e2e-signing-secret';
const ALLOWED = 'U1001';

let model: ModelFake;
let slack: SlackFake;
let home: string;
let gw: Running;
let events: string;

/** A port nobody listens on right now (bound on 0, read, released). */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds (bounded). */
async function until(check: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${gw?.stderr() ?? ''}`);
    await sleep(20);
  }
}

let tsCounter = 0;
const nextTs = () => `17100${String(++tsCounter).padStart(5, '0')}.000${String(tsCounter).padStart(3, '0')}`;

beforeAll(async () => {
  model = await startModelFake({ script: (req) => ({ text: `You said: **${lastUserText(req).split('\n').at(-1)}**` }) });
  slack = await startSlackFake({ users: { U1001: { name: 'alice', real_name: 'Alice Example' } } });
  home = mkdtempSync(join(tmpdir(), 'sb-slack-e2e-'));
  writeFileSync(join(home, 'config.yaml'), 'chats:\n  "slack:C0OPEN": { require_mention: false }\n');
  const port = await freePort();
  events = `http://127.0.0.1:${port}/slack/events`;
  gw = startCli(['start'], {
    env: cleanEnv({ SWITCHBOARD_HOME: home, ...doorEnv.model(model), ...doorEnv.slack(slack, { allowed: ALLOWED, http: { secret: SECRET, port } }) }),
  });
  await gw.waitFor(/ready \(slack/);
});

afterAll(() => cleanUp(() => killIfRunning(gw), () => slack?.close(), () => model?.close(), () => removeDir(home)));

describe('switchboard start with Slack (HTTP mode)', () => {
  it('echoes the challenge of a signed url_verification', async () => {
    const res = await postSigned(events, SECRET, urlVerificationBody('chal-123'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ challenge: 'chal-123' });
  });

  it('refuses a bad signature and a stale timestamp with 401, before any model call', async () => {
    const before = model.requests.length;
    const forged = await postSigned(events, SECRET, eventBody({ type: 'message', channel: 'D0FORGE', channel_type: 'im', user: ALLOWED, text: 'forged', ts: nextTs() }), { signWith: 'not-the-secret' });
    expect(forged.status).toBe(401);
    const staleAt = Math.floor(Date.now() / 1000) - 10 * 60;
    const stale = await postSigned(events, SECRET, eventBody({ type: 'message', channel: 'D0STALE', channel_type: 'im', user: ALLOWED, text: 'stale', ts: nextTs() }), { timestamp: staleAt });
    expect(stale.status).toBe(401);
    const staleCommand = await postSigned(events, SECRET, commandBody({ text: 'stale', user_id: ALLOWED, channel_id: 'C0STALE', response_url: slack.responseUrl() }), { timestamp: staleAt });
    expect(staleCommand.status).toBe(401);
    await sleep(300);
    expect(model.requests.length).toBe(before);
    expect(slack.messages.filter((m) => m.channel === 'D0FORGE' || m.channel === 'D0STALE')).toEqual([]);
    expect(slack.responsePosts).toEqual([]);
  });

  it('acknowledges a slash command within 3 s while the model is slow, then posts the answer in mrkdwn', async () => {
    model.queue({ text: '**Bold** news: see [the docs](https://example.com/docs) & <stay> safe', delayMs: 4000 });
    const id = 'cmd-slow';
    const res = await postSigned(events, SECRET, commandBody({ text: 'what is new?', user_id: ALLOWED, channel_id: 'C0CMD', response_url: slack.responseUrl(id) }));
    expect(res.status).toBe(200);
    expect(res.ms).toBeLessThan(3000);
    const ack = JSON.parse(res.text) as { text?: string };
    expect(ack.text).toMatch(/working/i);
    const posts = await slack.waitForResponsePosts(1, 10_000);
    const post = posts.find((p) => p.id === id)!;
    expect(post.status).toBe(200);
    expect(post.body.response_type).toBe('in_channel');
    expect(post.body.text).toBe('*Bold* news: see <https://example.com/docs|the docs> &amp; &lt;stay&gt; safe');
    expect(lastUserText(model.completions().at(-1)!)).toContain('what is new?');
  });

  it('answers a command payload without response_url or trigger_id through chat.postMessage in its channel', async () => {
    const n = slack.messages.length;
    const body = new URLSearchParams({ command: '/ask', text: 'no url', user_id: ALLOWED, channel_id: 'C0BARE', team_id: 'T0001' }).toString();
    const res = await postSigned(events, SECRET, body);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).text).toMatch(/working/i);
    expect((await slack.waitForMessages(n + 1)).at(-1)).toMatchObject({ method: 'chat.postMessage', channel: 'C0BARE', text: 'You said: *no url*' });
  });

  it('answers a direct message in the DM', async () => {
    const n = slack.messages.length;
    const res = await postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'im', channel: 'D0DM', user: ALLOWED, text: 'hello from a DM', ts: nextTs() }));
    expect(res.status).toBe(200);
    const [answer] = (await slack.waitForMessages(n + 1)).slice(n);
    expect(answer).toMatchObject({ method: 'chat.postMessage', channel: 'D0DM', text: 'You said: *hello from a DM*' });
    expect(answer.thread_ts).toBeUndefined();
    // a DM payload without channel_type is still a DM (the channel id says so)
    await postSigned(events, SECRET, eventBody({ type: 'message', channel: 'D0DM', user: ALLOWED, text: 'no channel type', ts: nextTs() }));
    expect((await slack.waitForMessages(n + 2)).at(-1)).toMatchObject({ channel: 'D0DM', text: 'You said: *no channel type*' });
  });

  it('answers a top-level mention in a thread on the mention and an in-thread mention in that thread, never in the channel root', async () => {
    const n = slack.messages.length;
    const top = nextTs();
    await postSigned(events, SECRET, eventBody({ type: 'app_mention', channel: 'C0TEAM', user: ALLOWED, text: `<@${slack.botUserId}> top level question`, ts: top }));
    const first = (await slack.waitForMessages(n + 1)).at(-1)!;
    expect(first).toMatchObject({ channel: 'C0TEAM', thread_ts: top, text: 'You said: *top level question*' });

    const parent = nextTs();
    const inThread = nextTs();
    await postSigned(events, SECRET, eventBody({ type: 'app_mention', channel: 'C0TEAM', user: ALLOWED, text: `<@${slack.botUserId}> inside the thread`, ts: inThread, thread_ts: parent }));
    const second = (await slack.waitForMessages(n + 2)).at(-1)!;
    expect(second).toMatchObject({ channel: 'C0TEAM', thread_ts: parent, text: 'You said: *inside the thread*' });
    for (const m of slack.messages.filter((x) => x.channel === 'C0TEAM')) expect(m.thread_ts).toBeTruthy();
  });

  it('answers a redelivered event (same event_id, x-slack-retry-num) with 200 and only once', async () => {
    const n = slack.messages.length;
    const before = model.completions().length;
    const body = eventBody({ type: 'message', channel_type: 'im', channel: 'D0RETRY', user: ALLOWED, text: 'only once please', ts: nextTs() }, { eventId: 'Ev0RETRY0001' });
    expect((await postSigned(events, SECRET, body)).status).toBe(200);
    const retry = await postSigned(events, SECRET, body, { retryNum: 1, retryReason: 'http_timeout' });
    expect(retry.status).toBe(200);
    await slack.waitForMessages(n + 1);
    // and a late retry after the answer went out
    expect((await postSigned(events, SECRET, body, { retryNum: 2, retryReason: 'http_timeout' })).status).toBe(200);
    await sleep(600);
    expect(slack.messages.slice(n).filter((m) => m.channel === 'D0RETRY')).toHaveLength(1);
    expect(model.completions().length).toBe(before + 1);
  });

  it('answers every message of a require_mention: false channel in its thread, and a mention there once (app_mention + message)', async () => {
    const n = slack.messages.length;
    const before = model.completions().length;
    const top = nextTs();
    await postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'channel', channel: 'C0OPEN', user: ALLOWED, text: 'no mention needed here', ts: top }));
    const first = (await slack.waitForMessages(n + 1)).at(-1)!;
    expect(first).toMatchObject({ method: 'chat.postMessage', channel: 'C0OPEN', thread_ts: top, text: 'You said: *no mention needed here*' });

    const reply = nextTs();
    await postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'channel', channel: 'C0OPEN', user: ALLOWED, text: 'a reply in the thread', ts: reply, thread_ts: top }));
    expect((await slack.waitForMessages(n + 2)).at(-1)).toMatchObject({ channel: 'C0OPEN', thread_ts: top, text: 'You said: *a reply in the thread*' });

    // Slack sends a mention in a channel twice: as app_mention and as message (other event_ids)
    const mention = nextTs();
    const text = `<@${slack.botUserId}> mentioned anyway`;
    await postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'channel', channel: 'C0OPEN', user: ALLOWED, text, ts: mention }));
    await postSigned(events, SECRET, eventBody({ type: 'app_mention', channel: 'C0OPEN', user: ALLOWED, text, ts: mention }));
    expect((await slack.waitForMessages(n + 3)).at(-1)).toMatchObject({ channel: 'C0OPEN', thread_ts: mention, text: 'You said: *mentioned anyway*' });
    await sleep(600);
    expect(slack.messages.slice(n).filter((m) => m.channel === 'C0OPEN')).toHaveLength(3);
    expect(model.completions().length).toBe(before + 3);
  });

  it('ignores an unmentioned message in a channel without the setting: no answer, no model call', async () => {
    const n = slack.messages.length;
    const before = model.completions().length;
    expect((await postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'channel', channel: 'C0TEAM', user: ALLOWED, text: 'just chatting', ts: nextTs() }))).status).toBe(200);
    // a DM after it is answered: the chatter before it was ignored, not just slow
    await postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'im', channel: 'D0MARK', user: ALLOWED, text: 'marker', ts: nextTs() }));
    expect((await slack.waitForMessages(n + 1)).at(-1)).toMatchObject({ channel: 'D0MARK', text: 'You said: *marker*' });
    await sleep(400);
    expect(slack.messages.slice(n).map((m) => m.channel)).toEqual(['D0MARK']);
    expect(model.completions().length).toBe(before + 1);
  });

  it('gives a user outside SLACK_ALLOWED_USERS one ephemeral line and never calls the model', async () => {
    const n = slack.messages.length;
    const before = model.requests.length;
    await postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'im', channel: 'D0STRANGER', user: 'U9999', text: 'let me in', ts: nextTs() }));
    const top = nextTs();
    await postSigned(events, SECRET, eventBody({ type: 'app_mention', channel: 'C0TEAM', user: 'U9999', text: `<@${slack.botUserId}> me too`, ts: top }));
    await slack.waitForMessages(n + 2);
    await sleep(400);
    const sent = slack.messages.slice(n);
    expect(sent).toHaveLength(2);
    for (const m of sent) {
      expect(m.method).toBe('chat.postEphemeral');
      expect(m.user).toBe('U9999');
      expect(m.text!.split('\n')).toHaveLength(1);
      expect(m.text).toMatch(/private/);
    }
    expect(sent.find((m) => m.channel === 'C0TEAM')!.thread_ts).toBe(top);
    expect(model.requests.length).toBe(before);
  });

  it('answers a stranger\'s slash command with ephemeral lines only and no model call', async () => {
    const before = model.requests.length;
    const id = 'cmd-stranger';
    const res = await postSigned(events, SECRET, commandBody({ text: 'secret stuff', user_id: 'U9999', channel_id: 'C0CMD', response_url: slack.responseUrl(id) }));
    expect(res.status).toBe(200);
    // the acknowledgement stays quiet: the refusal is the one line this user sees
    expect(res.text).not.toMatch(/working on it/i);
    await until(() => slack.responsePosts.some((p) => p.id === id), 'the refusal on the response_url');
    await sleep(300);
    const posts = slack.responsePosts.filter((p) => p.id === id);
    expect(posts).toHaveLength(1);
    expect(posts[0].body.response_type).toBe('ephemeral');
    expect(String(posts[0].body.text)).toMatch(/private/);
    expect(model.requests.length).toBe(before);
  });

  it('stops on SIGTERM with exit 0 within 10 s, letting a running turn finish', async () => {
    model.queue({ text: 'late but complete', delayMs: 1200 });
    const n = slack.messages.length;
    const asked = model.requests.length;
    await postSigned(events, SECRET, eventBody({ type: 'message', channel_type: 'im', channel: 'D0LATE', user: ALLOWED, text: 'slow one', ts: nextTs() }));
    await model.waitForRequests(asked + 1, 5000);
    const started = Date.now();
    expect(await gw.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(slack.messages.slice(n).map((m) => m.text)).toContain('late but complete');
    expect(gw.stderr()).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('switchboard start with a bad SLACK_BOT_TOKEN', () => {
  it('exits non-zero with one clear line', async () => {
    const res = await runCli(['start'], {
      env: cleanEnv({ SWITCHBOARD_HOME: home, ...doorEnv.model(model), ...doorEnv.slack(slack, { allowed: ALLOWED, http: { secret: SECRET, port: await freePort() } }), SLACK_BOT_TOKEN: 'xoxb-wrong' }),
    });
    expect(res.code).not.toBe(0);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^switchboard: SLACK_BOT_TOKEN .*invalid_auth/);
    expect(res.stderr).not.toContain('xoxb-wrong');
  });
});
