/**
 * Approvals in the core (ARCHITECTURE.md §16, §17) with a real gateway, store and model fake: a tool the
 * operator asked to approve (registered through the test seam, never config), answered by an e-mail
 * reply `approve CODE`; a scheduled run that cannot ask is denied and its report says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, lastUserText, type ModelFake } from '../fakes/model.js';
import { makeCore, recordingAdapter, until, type CoreHarness } from '../helpers/core.js';
import { lastMessage, toolResults } from '../helpers/approvals.js';
import { parseAllowList } from '../../src/core/settings.js';
import { storedInbound } from '../helpers/inbound.js';
import type { Tool } from '../../src/core/tools/types.js';
import type { InboundMessage } from '../../src/core/types.js';

let model: ModelFake;
const runs: unknown[] = [];
const probe: Tool = {
  name: 'crm__update_contact',
  description: 'Changes a contact.',
  parameters: { type: 'object', properties: { email: { type: 'string' } } },
  needsApproval: true,
  async run(args) {
    runs.push(args);
    return 'contact updated';
  },
};

beforeAll(async () => {
  model = await startModelFake({
    script: (req) => {
      const last = lastMessage(req);
      if (last.role === 'tool') return { text: `The tool said: ${last.content}` };
      if (/UPDATE/.test(lastUserText(req))) return { toolCalls: [{ name: 'crm__update_contact', arguments: { email: 'new@example.com' } }] };
      return { text: 'ok' };
    },
  });
});
afterAll(() => model?.close());

let seq = 0;
function mail(from: string, text: string): InboundMessage {
  seq++;
  return {
    platform: 'email',
    chatId: from,
    userId: from,
    text,
    isDirect: true,
    mentionsBot: false,
    isReplyToBot: false,
    messageId: `<m${seq}@example.com>`,
    updateId: `<m${seq}@example.com>`,
    receivedAt: new Date(),
    replyTarget: { platform: 'email', chatId: from },
  };
}

describe('approvals in the core', () => {
  let core: CoreHarness;
  beforeAll(() => {
    core = makeCore({ modelUrl: model.openaiUrl, tools: [probe], door: recordingAdapter('email') });
    (core.app.settings as { email: { allowed: ReturnType<typeof parseAllowList> } }).email.allowed = parseAllowList('ann@example.com');
  });
  afterAll(() => core?.close());

  it('e-mail: the prompt names the server and the code; a reply "approve CODE" from the person runs the call once, from anyone else nothing', async () => {
    await core.gateway.handle(mail('ann@example.com', 'please UPDATE the contact'));
    await until(() => core.door.sent.length >= 1, 10_000, 'the prompt');
    const prompt = core.door.sent[0].text;
    expect(prompt).toContain('`crm__update_contact` of the MCP server `crm`');
    expect(prompt).toContain('the operator asks before crm__update_contact');
    const code = /approve ([A-Z0-9]{6})/.exec(prompt)?.[1];
    expect(code).toBeTruthy();
    expect(runs).toHaveLength(0);

    expect(await core.gateway.handle(mail('eve@example.com', `approve ${code}\n\n> quoted prompt`))).toBe('refused');
    expect(runs).toHaveLength(0);

    expect(await core.gateway.handle(mail('ann@example.com', `Approve ${code}\n\nOn Monday the bot wrote:\n> …`))).toBe('accepted');
    await until(() => core.door.sent.length >= 2, 10_000, 'the answer');
    expect(core.door.sent[1].text).toBe('The tool said: contact updated');
    expect(runs).toHaveLength(1);
    expect(await core.gateway.handle(mail('ann@example.com', `approve ${code}`))).toBe('duplicate');
    await core.gateway.idle();
    expect(runs).toHaveLength(1);
    expect(core.door.sent).toHaveLength(2);
  });

  it('a scheduled run cannot ask: the call is denied, the model is told, and the report says so', async () => {
    const before = model.completions().length;
    const result = await core.agent.turn({
      session: { platform: 'cron', chatId: 'nightly', userId: 'nightly' },
      sessionKey: 'cron:nightly',
      personKey: 'ann',
      chat: undefined,
      unattended: true,
      userContent: 'UPDATE the contact every night',
      replyAddress: { platform: 'email', chatId: 'ann@example.com' },
      signal: new AbortController().signal,
    });
    expect(result.pause).toBeUndefined();
    expect(runs).toHaveLength(1);
    const last = model.completions().slice(before).at(-1)!;
    expect(toolResults(last, 'crm__update_contact')).toEqual(['denied: a scheduled run cannot ask for approval']);
    expect(result.answer).toContain("Not done: `crm__update_contact` needs a person's approval, and a scheduled run cannot ask for one.");
  });
});

function dm(text: string, command?: string): InboundMessage {
  seq++;
  return { ...storedInbound(`tg${seq}`, '4242', Date.now()), text, ...(command ? { command: { name: command, forBot: true } } : {}) };
}

describe('/stop and /new while a turn waits for a yes', () => {
  let core: CoreHarness;
  beforeAll(() => {
    core = makeCore({ modelUrl: model.openaiUrl, tools: [probe], door: recordingAdapter('telegram') });
  });
  afterAll(() => core?.close());

  async function paused(text: string): Promise<string> {
    const before = core.door.sent.length;
    await core.gateway.handle(dm(text));
    await until(() => core.door.sent.length > before, 10_000, 'the approval prompt');
    await core.gateway.idle();
    const pending = await core.store.approvals.pendingOf('telegram:4242:4242');
    expect(pending).not.toBeNull();
    return pending!.id;
  }

  it('/stop ends the waiting turn with "Stopped.", no model request, the call never made; a later press says so', async () => {
    const id = await paused('please UPDATE the contact');
    const requests = model.completions().length;
    const sent = core.door.sent.length;
    await core.gateway.handle(dm('/stop', 'stop'));
    await until(() => core.door.sent.length > sent, 10_000, 'the stop');
    await core.gateway.idle();
    expect(core.door.sent.slice(sent).map((m) => m.text)).toEqual(['Stopped.']);
    expect(model.completions().length).toBe(requests);
    const outcome = await core.gateway.handle.action({ platform: 'telegram', approvalId: id, decision: 'approve', userId: '4242', chatId: '4242', actionId: 'cb1' });
    expect(outcome.text).toBe('This was stopped (/stop), so the call was not made.');
    await core.gateway.idle();
    expect(runs).toHaveLength(1); // the e-mail test's one run, no more

    // The stopped exchange is in the history, each call with its result: the next request is a valid one.
    await core.gateway.handle(dm('and now?'));
    await until(() => model.completions().length > requests, 10_000, 'the next answer');
    await core.gateway.idle();
    expect(toolResults(model.completions().at(-1)!, 'crm__update_contact')).toEqual(['stopped by the user (/stop): the call was not made']);
    expect(core.door.sent.at(-1)?.text).toBe('ok');
  });

  it('/new closes the waiting call with the old conversation: not made, and not carried into the new one', async () => {
    const id = await paused('UPDATE it again please');
    const sent = core.door.sent.length;
    await core.gateway.handle(dm('/new', 'new'));
    await until(() => core.door.sent.length > sent, 10_000, 'the reply to /new');
    await core.gateway.idle();
    expect(core.door.sent.slice(sent).map((m) => m.text)).toEqual(['Started a new conversation. The call that waited for your yes was not made.']);
    const outcome = await core.gateway.handle.action({ platform: 'telegram', approvalId: id, decision: 'approve', userId: '4242', chatId: '4242', actionId: 'cb2' });
    expect(outcome.text).toBe('A new conversation was started (/new), so the call was not made.');
    await core.gateway.idle();
    expect(runs).toHaveLength(1);
    expect((await core.store.approvals.get(id))?.state).toBe('done');

    const requests = model.completions().length;
    await core.gateway.handle(dm('hello again'));
    await until(() => model.completions().length > requests, 10_000, 'the first answer of the new conversation');
    const body = JSON.stringify(model.completions().at(-1)!.body.messages);
    expect(body).not.toContain('UPDATE it again');
    expect(body).not.toContain('crm__update_contact');
  });
});
