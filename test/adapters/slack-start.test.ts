/**
 * Slack start/stop, credentials, doctor checks and Socket Mode, against the fake.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter, WORKING_NOTE } from '../../src/adapters/slack/index.js';
import { parseConfig } from '../../src/core/config.js';
import { CredentialsError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/logger.js';
import { parseAllowList, type SlackSettings } from '../../src/core/settings.js';
import type { InboundMessage } from '../../src/core/types.js';
import { eventBody, postSigned, type SlackFake, startSlackFake } from '../fakes/slack.js';

let slack: SlackFake;
/** Adapters a test makes, closed after it whatever happened. */
const made: SlackAdapter[] = [];

function build(overrides: Partial<SlackSettings> = {}, yaml = '{}'): SlackAdapter {
  return createSlackAdapter(
    { botToken: slack.token, signingSecret: 'secret-xyz', apiUrl: slack.apiUrl, port: 0, allowed: parseAllowList('*'), ...overrides },
    { config: parseConfig(yaml, 'test.yaml'), logger: silentLogger, home: '/nonexistent' },
  );
}

function makeAdapter(overrides: Partial<SlackSettings> = {}, yaml = '{}'): SlackAdapter {
  const adapter = build(overrides, yaml);
  made.push(adapter);
  return adapter;
}

async function startError(adapter: SlackAdapter): Promise<Error> {
  const error = await adapter.start(async () => {}).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

beforeAll(async () => {
  slack = await startSlackFake();
});

afterEach(async () => {
  await Promise.all(made.splice(0).map((a) => a.close()));
});

afterAll(async () => {
  await slack?.close();
});

describe('Slack adapter lifecycle', () => {
  it('runs in HTTP mode without an app token, with no port before start', () => {
    const adapter = makeAdapter();
    expect(adapter.mode).toBe('http');
    expect(adapter.port).toBeUndefined();
  });

  it('refuses to start in HTTP mode without a signing secret, in one line', async () => {
    const error = await startError(makeAdapter({ signingSecret: undefined }));
    expect(error).toBeInstanceOf(CredentialsError);
    expect(error.message).toMatch(/^SLACK_SIGNING_SECRET is not set/);
    expect(error.message).not.toContain('\n');
  });

  it('refuses a token that auth.test rejects, in one line naming the variable', async () => {
    const error = await startError(makeAdapter({ botToken: 'xoxb-revoked' }));
    expect(error).toBeInstanceOf(CredentialsError);
    expect(error.message).toBe('SLACK_BOT_TOKEN was refused by Slack (invalid_auth); check the token in your Slack app settings');
    expect(error.message).not.toContain('xoxb-revoked');
  });

  it('stops listening on stop()', async () => {
    const adapter = makeAdapter();
    await adapter.start(async () => {});
    const port = adapter.port;
    expect(port).toBeGreaterThan(0);
    // A keep-alive connection is open when stop() runs; stop must not hang on it.
    const res = await postSigned(`http://127.0.0.1:${port}/slack/events`, 'secret-xyz', JSON.stringify({ type: 'url_verification', challenge: 'c' }));
    expect(res.status).toBe(200);
    const started = Date.now();
    await adapter.stop();
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect(fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(adapter.port).toBeUndefined();
  });

  it('takes the slash command name from config', async () => {
    const adapter = makeAdapter({}, 'slack: { command: /helpme, command_response: ephemeral }');
    const got: InboundMessage[] = [];
    await adapter.start(async (m) => {
      got.push(m);
    });
    try {
      const url = `http://127.0.0.1:${adapter.port}/slack/events`;
      const base = { text: 'hi', user_id: 'U1', channel_id: 'C1', response_url: slack.responseUrl(), trigger_id: 't' };
      const ask = await postSigned(url, 'secret-xyz', new URLSearchParams({ ...base, command: '/ask' }).toString());
      const help = await postSigned(url, 'secret-xyz', new URLSearchParams({ ...base, command: '/helpme' }).toString());
      expect(JSON.parse(help.text)).toEqual({ response_type: 'ephemeral', text: WORKING_NOTE });
      // /ask is not this app's command any more: it gets a pointer to the right one, and no turn.
      expect(ask.status).toBe(200);
      expect(JSON.parse(ask.text)).toEqual({ response_type: 'ephemeral', text: 'This bot answers /helpme; /ask is not set up here.' });
      expect(ask.ms).toBeLessThan(1_000);
      expect(got).toHaveLength(1);
      expect(got[0].replyTarget).toMatchObject({ ephemeral: true, extra: { response_type: 'ephemeral' } });
    } finally {
      await adapter.close();
    }
  });
});

describe('Slack doctor checks', () => {
  it('finds nothing wrong with a good token and a signing secret', async () => {
    expect(await makeAdapter().diagnose?.()).toEqual([]);
  });

  it('names a missing signing secret and a refused token', async () => {
    const problems = (await makeAdapter({ signingSecret: undefined, botToken: 'xoxb-bad' }).diagnose?.()) ?? [];
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^SLACK_SIGNING_SECRET is not set/);
    expect(problems[1]).toMatch(/^SLACK_BOT_TOKEN was refused by Slack \(invalid_auth\)/);
    expect(problems.join('\n')).not.toContain('xoxb-bad');
  });

  it('says when the Web API cannot be reached', async () => {
    const gone = await startSlackFake();
    await gone.close();
    const problems = (await makeAdapter({ apiUrl: gone.apiUrl }).diagnose?.()) ?? [];
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`${gone.apiUrl}/`);
    expect(problems[0]).toMatch(/auth\.test: cannot reach the Slack Web API at .* \(connection refused\); check SLACK_API_URL/);
  });

  it('does not need a signing secret in Socket Mode', async () => {
    expect(await makeAdapter({ signingSecret: undefined, appToken: slack.appToken }).diagnose?.()).toEqual([]);
  });
});

describe('Slack Socket Mode', () => {
  let adapter: SlackAdapter;
  const got: InboundMessage[] = [];

  /** While set, the handler waits for it before it returns (the journal is slow). */
  let gate: Promise<void> | undefined;

  beforeAll(async () => {
    adapter = build({ signingSecret: undefined, appToken: slack.appToken });
    await adapter.start(async (m) => {
      got.push(m);
      if (gate) await gate;
    });
    await slack.socketConnected();
  });

  afterAll(async () => {
    await adapter?.close();
  });

  it('connects through apps.connections.open with the app token', () => {
    expect(adapter.mode).toBe('socket');
    expect(adapter.port).toBeUndefined();
    const open = slack.callsTo('apps.connections.open');
    expect(open.at(-1)?.token).toBe(slack.appToken);
  });

  it('receives a DM event and acknowledges its envelope', async () => {
    const body = JSON.parse(eventBody({ type: 'message', channel: 'D0009', channel_type: 'im', user: 'U1001', text: 'over the socket', ts: '1700000100.000100' }, { eventId: 'Ev0SOCK1' }));
    const ack = await slack.sendSocketEnvelope('events_api', body);
    expect(ack.envelope_id).toBeTruthy();
    await expect.poll(() => got.length).toBe(1);
    expect(got[0]).toMatchObject({ chatId: 'D0009', text: 'over the socket', updateId: 'Ev0SOCK1', isDirect: true });
  });

  it('acknowledges an event envelope only once the handler took it (journaled), as HTTP mode answers 200', async () => {
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    const timer = setTimeout(() => release(), 400);
    try {
      const body = JSON.parse(eventBody({ type: 'message', channel: 'D0009', channel_type: 'im', user: 'U1001', text: 'journal me first', ts: '1700000101.000100' }, { eventId: 'Ev0SOCK2' }));
      const sent = Date.now();
      const ack = await slack.sendSocketEnvelope('events_api', body);
      expect(ack.envelope_id).toBeTruthy();
      expect(Date.now() - sent).toBeGreaterThanOrEqual(350);
      expect(got.map((m) => m.updateId)).toContain('Ev0SOCK2');
    } finally {
      clearTimeout(timer);
      gate = undefined;
    }
  });

  it('acknowledges a slash command with the working note', async () => {
    const ack = await slack.sendSocketEnvelope('slash_commands', {
      command: '/ask',
      text: 'socket question',
      user_id: 'U1001',
      channel_id: 'C0001',
      response_url: slack.responseUrl(),
      trigger_id: 'trig-sock-1',
    });
    expect(ack.payload).toEqual({ response_type: 'ephemeral', text: WORKING_NOTE });
    await expect.poll(() => got.find((m) => m.updateId === 'trig-sock-1')?.text).toBe('socket question');
  });
});

describe('Slack Socket Mode credentials', () => {
  it('refuses an app token that Slack rejects, in one line', async () => {
    const error = await startError(makeAdapter({ appToken: 'xapp-wrong' }));
    expect(error).toBeInstanceOf(CredentialsError);
    expect(error.message).toBe('SLACK_APP_TOKEN was refused by Slack (invalid_auth); check the token in your Slack app settings');
  });
});
