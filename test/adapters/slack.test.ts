/**
 * Inbound Slack through the real Bolt HTTPReceiver: signed HTTP requests in, InboundMessages out.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter, WORKING_NOTE } from '../../src/adapters/slack/index.js';
import { parseConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { parseAllowList } from '../../src/core/settings.js';
import type { InboundMessage } from '../../src/core/types.js';
import { commandBody, eventBody, postSigned, type SlackFake, startSlackFake, urlVerificationBody } from '../fakes/slack.js';

const SECRET = 'test-signing-secret-1234';

let slack: SlackFake;
let adapter: SlackAdapter;
let url: string;
let received: InboundMessage[] = [];
/** While set, the handler does not resolve: a model (or journal) that is slow. */
let gate: Promise<void> | undefined;

function waitFor<T>(check: () => T | undefined, timeoutMs = 3_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const v = check();
      if (v !== undefined) return resolve(v);
      if (Date.now() - started > timeoutMs) return reject(new Error('timed out'));
      setTimeout(tick, 10);
    };
    tick();
  });
}

const post = (body: string, opts?: Parameters<typeof postSigned>[3]) => postSigned(url, SECRET, body, opts);

/** Sends a DM that must arrive; proves that everything sent before it was skipped, not just slow. */
async function sentinel(): Promise<InboundMessage[]> {
  const res = await post(eventBody({ type: 'message', channel: 'D0SENT', channel_type: 'im', user: 'U1001', text: 'sentinel', ts: '1700000999.000100' }));
  expect(res.status).toBe(200);
  await waitFor(() => received.find((m) => m.text === 'sentinel'));
  return received.filter((m) => m.text !== 'sentinel');
}

beforeAll(async () => {
  slack = await startSlackFake({ users: { U1001: { name: 'alice', real_name: 'Alice Liddell', display_name: 'Alice' } } });
  adapter = createSlackAdapter(
    { botToken: slack.token, signingSecret: SECRET, apiUrl: slack.apiUrl, port: 0, allowed: parseAllowList('*') },
    { config: parseConfig('{}', 'test.yaml'), logger: silentLogger, home: mkdtempSync(join(tmpdir(), 'sb-slack-')) },
  );
  await adapter.start(async (message) => {
    received.push(message);
    if (gate) await gate;
  });
  url = `http://127.0.0.1:${adapter.port}/slack/events`;
});

afterAll(async () => {
  await adapter?.close();
  await slack?.close();
});

beforeEach(() => {
  received = [];
  gate = undefined;
});

describe('Slack HTTP receiver', () => {
  it('binds the configured port (0 = any) and remembers the bot from auth.test', () => {
    expect(adapter.mode).toBe('http');
    expect(adapter.port).toBeGreaterThan(0);
    expect(adapter.botUserId).toBe('UBOT');
    expect(slack.callsTo('auth.test').length).toBeGreaterThanOrEqual(1);
  });

  it('echoes the url_verification challenge', async () => {
    const res = await post(urlVerificationBody('chal-123'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ challenge: 'chal-123' });
  });

  it('refuses a bad signature and a timestamp over 5 minutes off (past or future) with 401 before anything else', async () => {
    const dm = eventBody({ type: 'message', channel: 'D0001', channel_type: 'im', user: 'U1001', text: 'forged', ts: '1700000001.000100' });
    expect((await post(dm, { signWith: 'not-the-secret' })).status).toBe(401);
    const staleTs = Math.floor(Date.now() / 1000) - 6 * 60;
    expect((await post(dm, { timestamp: staleTs })).status).toBe(401);
    // Slack's window is 5 minutes either way: a timestamp 6 minutes ahead is refused as well.
    const futureTs = Math.floor(Date.now() / 1000) + 6 * 60;
    expect((await post(dm, { timestamp: futureTs })).status).toBe(401);
    // Without any signature headers at all.
    const bare = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: dm });
    expect(bare.status).toBe(401);
    // A forged url_verification is refused too: verification comes first.
    expect((await post(urlVerificationBody('x'), { signWith: 'nope' })).status).toBe(401);
    expect(await sentinel()).toEqual([]);
  });

  it('acknowledges a slash command within 3 s with a note, while the handler is still busy', async () => {
    let release!: () => void;
    gate = new Promise<void>((r) => {
      release = r;
    });
    const responseUrl = slack.responseUrl('cmd-1');
    const res = await post(
      commandBody({ text: 'what is the *status*?', user_id: 'U1001', user_name: 'alice', channel_id: 'C0001', channel_name: 'general', response_url: responseUrl, trigger_id: '13345224609.738474920.8088930838d88f008e0' }),
    );
    expect(res.status).toBe(200);
    expect(res.ms).toBeLessThan(3_000);
    expect(JSON.parse(res.text)).toEqual({ response_type: 'ephemeral', text: WORKING_NOTE });
    const [msg] = await waitFor(() => (received.length ? received : undefined));
    release();
    expect(msg).toMatchObject({
      platform: 'slack',
      chatId: 'C0001',
      userId: 'U1001',
      displayName: 'alice',
      text: 'what is the *status*?',
      isDirect: false,
      mentionsBot: false,
      command: { name: 'ask', forBot: true },
      updateId: '13345224609.738474920.8088930838d88f008e0',
      replyTarget: { platform: 'slack', chatId: 'C0001', userId: 'U1001', extra: { response_url: responseUrl, response_type: 'in_channel' } },
    });
    expect(msg.threadId).toBeUndefined();
    expect(Number(msg.replyTarget.extra?.response_url_expires_at)).toBeGreaterThan(Date.now() + 29 * 60 * 1000);
  });

  it('answers an event 200 only once the handler took it (journaled), so instances journal in the order Slack was answered', async () => {
    let release!: () => void;
    gate = new Promise<void>((r) => {
      release = r;
    });
    setTimeout(() => release(), 400);
    const ev = await post(eventBody({ type: 'message', channel: 'D0001', channel_type: 'im', user: 'U1001', text: 'journal me first', ts: '1700000003.000100' }));
    expect(ev.status).toBe(200);
    expect(ev.ms).toBeGreaterThanOrEqual(350);
    expect(received.map((m) => m.text)).toContain('journal me first');
  });

  it('still answers 200 within Slack\'s 3 s when the handler takes longer than Slack waits', async () => {
    let release!: () => void;
    gate = new Promise<void>((r) => {
      release = r;
    }); // not released until both answers are in
    const res = await post(commandBody({ text: 'slow one', user_id: 'U1001', channel_id: 'C0001', response_url: slack.responseUrl() }));
    expect(res.status).toBe(200);
    expect(res.ms).toBeLessThan(1_000);
    const ev = await post(eventBody({ type: 'message', channel: 'D0001', channel_type: 'im', user: 'U1001', text: 'also slow', ts: '1700000002.000100' }));
    expect(ev.status).toBe(200);
    expect(ev.ms).toBeLessThan(3_000);
    await waitFor(() => (received.length === 2 ? true : undefined));
    release();
  });

  it('answers an empty slash command with a usage line and hands nothing over', async () => {
    const res = await post(commandBody({ text: '  ', user_id: 'U1001', channel_id: 'C0001', response_url: slack.responseUrl() }));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).text).toBe('Usage: /ask <your question>');
    expect(await sentinel()).toEqual([]);
  });

  it('turns a DM into a direct message with the event_id as update id and Slack\'s ts as sentAt, handed over before any users.info', async () => {
    const lookups = slack.callsTo('users.info').length;
    const res = await post(eventBody({ type: 'message', channel: 'D0001', channel_type: 'im', user: 'U1001', text: 'hello <@UBOT> there', ts: '1700000003.000100' }, { eventId: 'Ev0DM0001' }));
    expect(res.status).toBe(200);
    const [msg] = await waitFor(() => (received.length ? received : undefined));
    // A DM never shows the sender's name, so it is not looked up; a turn that needs it asks the door.
    expect(slack.callsTo('users.info').length).toBe(lookups);
    expect(msg.displayName).toBeUndefined();
    expect(msg.sentAt).toBe(1700000003000.1);
    expect(await adapter.senderName!('U1001')).toBe('Alice');
    expect(msg).toMatchObject({
      platform: 'slack',
      chatId: 'D0001',
      userId: 'U1001',
      text: 'hello there',
      isDirect: true,
      messageId: '1700000003.000100',
      updateId: 'Ev0DM0001',
      replyTarget: { platform: 'slack', chatId: 'D0001', userId: 'U1001' },
    });
    expect(msg.threadId).toBeUndefined();
    expect(msg.replyTarget.threadId).toBeUndefined();
  });

  it('answers a top-level mention in a new thread under it (thread = the mention ts)', async () => {
    await post(eventBody({ type: 'app_mention', channel: 'C0001', user: 'U1001', text: '<@UBOT> summarise the incident', ts: '1700000004.000100' }, { eventId: 'Ev0MENTION1' }));
    const [msg] = await waitFor(() => (received.length ? received : undefined));
    expect(msg).toMatchObject({
      chatId: 'C0001',
      threadId: '1700000004.000100',
      userId: 'U1001',
      text: 'summarise the incident',
      isDirect: false,
      mentionsBot: true,
      updateId: 'Ev0MENTION1',
      replyTarget: { chatId: 'C0001', threadId: '1700000004.000100', userId: 'U1001' },
    });
  });

  it('answers a mention inside a thread in that thread (thread_ts), never the channel root', async () => {
    await post(eventBody({ type: 'app_mention', channel: 'C0001', user: 'U2002', text: 'and now? <@UBOT|switchboard>', ts: '1700000006.000100', thread_ts: '1700000005.000100' }));
    const [msg] = await waitFor(() => (received.length ? received : undefined));
    expect(msg.threadId).toBe('1700000005.000100');
    expect(msg.replyTarget.threadId).toBe('1700000005.000100');
    expect(msg.userId).toBe('U2002');
    expect(msg.text).toBe('and now?');
    // users.info does not know U2002: the message goes on without a name.
    expect(msg.displayName).toBeUndefined();
  });

  it('ignores bots, edits, deletions, its own messages and group DMs', async () => {
    const bodies = [
      { type: 'message', channel: 'D0001', channel_type: 'im', bot_id: 'B0OTHER', text: 'I am a bot', ts: '1700000010.000100' },
      { type: 'message', subtype: 'bot_message', channel: 'D0001', channel_type: 'im', text: 'legacy bot', ts: '1700000011.000100' },
      { type: 'message', channel: 'D0001', channel_type: 'im', user: 'UBOT', bot_id: 'BBOT', text: 'my own answer', ts: '1700000012.000100' },
      { type: 'message', channel: 'D0001', channel_type: 'im', user: 'UBOT', text: 'my own, no bot_id', ts: '1700000012.000200' },
      {
        type: 'message',
        subtype: 'message_changed',
        channel: 'D0001',
        channel_type: 'im',
        message: { user: 'U1001', text: 'edited', ts: '1700000003.000100' },
        ts: '1700000013.000100',
      },
      { type: 'message', subtype: 'message_deleted', channel: 'D0001', channel_type: 'im', deleted_ts: '1700000003.000100', ts: '1700000014.000100' },
      { type: 'message', subtype: 'message_changed', channel: 'C0001', channel_type: 'channel', message: { user: 'U1001', text: 'edited' }, ts: '1700000015.000100' },
      { type: 'message', subtype: 'channel_join', channel: 'C0001', channel_type: 'channel', user: 'U1001', text: '<@U1001> has joined the channel', ts: '1700000015.000200' },
      { type: 'message', channel: 'C0001', channel_type: 'channel', bot_id: 'B0OTHER', text: 'another bot in a channel', ts: '1700000015.000300' },
      { type: 'message', channel: 'C0001', channel_type: 'channel', user: 'UBOT', bot_id: 'BBOT', text: 'my own answer in a thread', ts: '1700000015.000400', thread_ts: '1700000001.000100' },
      { type: 'message', channel: 'G0MPIM', channel_type: 'mpim', user: 'U1001', text: 'group DM chatter', ts: '1700000015.000500' },
      { type: 'app_mention', channel: 'C0001', user: 'UBOT', bot_id: 'BBOT', text: '<@UBOT> echo', ts: '1700000016.000100' },
    ];
    for (const event of bodies) {
      const res = await post(eventBody(event));
      expect(res.status).toBe(200);
    }
    expect(await sentinel()).toEqual([]);
  });

  it('hands over channel and private channel messages without a mention as mentionsBot false, answered in their thread', async () => {
    await post(eventBody({ type: 'message', channel: 'C0001', channel_type: 'channel', user: 'U1001', text: 'just chatting', ts: '1700000030.000100' }, { eventId: 'Ev0CHAN1' }));
    await post(eventBody({ type: 'message', channel: 'C0001', channel_type: 'channel', user: 'U1001', text: 'a reply', ts: '1700000031.000100', thread_ts: '1700000030.000100' }, { eventId: 'Ev0CHAN2' }));
    await post(eventBody({ type: 'message', channel: 'G0PRIV', channel_type: 'group', user: 'U1001', text: 'private chatter', ts: '1700000032.000100' }, { eventId: 'Ev0CHAN3' }));
    const got = await waitFor(() => (received.length >= 3 ? received : undefined));
    const byText = (t: string) => got.find((m) => m.text === t)!;
    expect(byText('just chatting')).toMatchObject({
      platform: 'slack',
      chatId: 'C0001',
      threadId: '1700000030.000100',
      userId: 'U1001',
      displayName: 'Alice',
      isDirect: false,
      mentionsBot: false,
      messageId: '1700000030.000100',
      updateId: 'Ev0CHAN1',
      replyTarget: { platform: 'slack', chatId: 'C0001', threadId: '1700000030.000100', userId: 'U1001' },
    });
    expect(byText('a reply')).toMatchObject({ chatId: 'C0001', threadId: '1700000030.000100', mentionsBot: false, replyTarget: { threadId: '1700000030.000100' } });
    expect(byText('private chatter')).toMatchObject({ chatId: 'G0PRIV', threadId: '1700000032.000100', isDirect: false, mentionsBot: false });
  });

  it('hands a channel mention over once although Slack sends it as app_mention and as message', async () => {
    const ts = '1700000040.000100';
    const text = '<@UBOT> answer me once';
    await post(eventBody({ type: 'message', channel: 'C0001', channel_type: 'channel', user: 'U1001', text, ts }, { eventId: 'Ev0TWICE1' }));
    await post(eventBody({ type: 'app_mention', channel: 'C0001', user: 'U1001', text, ts }, { eventId: 'Ev0TWICE2' }));
    // in a thread, with the labelled mention form
    await post(eventBody({ type: 'app_mention', channel: 'C0001', user: 'U1001', text: 'hey <@UBOT|sb> in thread', ts: '1700000041.000100', thread_ts: ts }, { eventId: 'Ev0TWICE3' }));
    await post(eventBody({ type: 'message', channel: 'C0001', channel_type: 'channel', user: 'U1001', text: 'hey <@UBOT|sb> in thread', ts: '1700000041.000100', thread_ts: ts }, { eventId: 'Ev0TWICE4' }));
    const got = await sentinel();
    expect(got.map((m) => [m.updateId, m.text, m.mentionsBot, m.threadId]).sort()).toEqual([
      ['Ev0TWICE2', 'answer me once', true, ts],
      ['Ev0TWICE3', 'hey in thread', true, ts],
    ]);
  });

  it('logs and skips malformed payloads without crashing', async () => {
    expect((await post(eventBody({ type: 'message', channel_type: 'im', user: 'U1001', text: 'no channel', ts: '1' }))).status).toBe(200);
    // Without event_id an event is identified by channel + ts; with neither it is malformed.
    expect((await post(JSON.stringify({ type: 'event_callback', event: { type: 'app_mention', user: 'U1', text: 'x', ts: '1' } }))).status).toBe(200);
    const cmd = new URLSearchParams({ command: '/ask', text: 'hi', user_id: 'U1001', channel_id: 'C0001', response_url: 'not a url', trigger_id: 't1' }).toString();
    const res = await post(cmd);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).text).toMatch(/could not read/);
    expect((await post('{not json', { contentType: 'application/json' })).status).toBe(400);
    expect(await sentinel()).toEqual([]);
  });

  it('answers a redelivered event (same event_id, x-slack-retry-num) with 200 and the same update id', async () => {
    const body = eventBody({ type: 'message', channel: 'D0001', channel_type: 'im', user: 'U1001', text: 'once please', ts: '1700000020.000100' }, { eventId: 'Ev0RETRY01' });
    const first = await post(body);
    const again = await post(body, { retryNum: 1, retryReason: 'http_timeout' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    const both = await waitFor(() => (received.length >= 2 ? received : undefined));
    // The core dedups on updateId; the adapter's part is that both carry the event_id.
    expect(both.map((m) => m.updateId)).toEqual(['Ev0RETRY01', 'Ev0RETRY01']);
  });
});
