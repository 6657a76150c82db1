/**
 * The turn context (issue 37, STYLE 12): what intake knows about a message is worked out once and
 * travels with the turn. The chat's `chats:` entry is looked up once per message — not again by the
 * session start, the tool loop or /status; the tools get the session key intake computed; the reply's
 * delivery target keeps the door's `isDirect`; a command a door marked is taken as it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, lastUserText, type ModelFake } from '../../fakes/model.js';
import { cleanup, inbound, makeCore, recordingAdapter, until, type CoreHarness } from '../../helpers/core.js';
import type { DeliveryTarget } from '../../../src/core/types.js';
import type { Tool } from '../../../src/core/tools/types.js';

let model: ModelFake;
beforeAll(async () => {
  model = await startModelFake();
});
afterAll(async () => {
  await model.close();
});

const YAML = 'chats:\n  "telegram:-100":\n    model: group-model\n    require_mention: false\n';

/** A door that also records the target of every delivery. */
function targetRecordingDoor() {
  const door = recordingAdapter('telegram');
  const targets: DeliveryTarget[] = [];
  const deliver = door.deliver.bind(door);
  door.deliver = async (d) => {
    targets.push(d.target);
    await deliver(d);
  };
  return { door, targets };
}

/** Counts lookups of the chats' settings (chatConfigFor filters `config.chats` once per lookup). */
function countChatLookups(core: CoreHarness): () => number {
  const chats = core.agent.settings.config.chats;
  const filter = chats.filter;
  let lookups = 0;
  chats.filter = ((...args: Parameters<typeof filter>) => {
    lookups++;
    return filter.apply(chats, args);
  }) as typeof filter;
  return () => lookups;
}

describe('the turn context', () => {
  it("looks the chat's settings up once per message, through the session start, the tool loop and /status", async () => {
    const keys: string[] = [];
    const probe: Tool = {
      name: 'probe',
      description: 'records its context',
      parameters: { type: 'object', properties: {} },
      run: async (_args, ctx) => {
        keys.push(ctx.sessionKey);
        return 'ok';
      },
    };
    const core = makeCore({ modelUrl: model.openaiUrl, yaml: YAML, tools: [probe] });
    const lookups = countChatLookups(core);
    try {
      const before = model.completions().length;
      model.queue({ text: '', toolCalls: [{ name: 'probe', arguments: {} }] }, { text: 'first answer' });
      await core.gateway.handle(inbound('hello group', { chat: '-100', user: '7', direct: false }));
      await until(() => core.door.sent.length === 1);
      model.setScript((req) => ({ text: `got ${lastUserText(req)}` }));
      await core.gateway.handle(inbound('again', { chat: '-100', user: '7', direct: false }));
      await until(() => core.door.sent.length === 2);
      await core.gateway.handle(inbound('/status', { chat: '-100', user: '7', direct: false }));
      await until(() => core.door.sent.length === 3);
      expect(lookups()).toBe(3);
      // What the lookups found still decides: no mention needed, the chat's model, in its session.
      expect(model.completions().slice(before).map((r) => r.body.model)).toEqual(['group-model', 'group-model', 'group-model']);
      expect(core.door.sent[2].text).toContain('`group-model`');
      expect(keys).toEqual(['telegram:-100:7']);
    } finally {
      await core.close();
      cleanup(core.home);
    }
  });

  it("keeps the door's isDirect on the reply's delivery target", async () => {
    const { door, targets } = targetRecordingDoor();
    const core = makeCore({ modelUrl: model.openaiUrl, yaml: YAML, door });
    model.setScript(() => ({ text: 'hi' }));
    try {
      await core.gateway.handle(inbound('in private', { user: '8' }));
      await until(() => targets.length === 1);
      await core.gateway.handle(inbound('in the group', { chat: '-100', user: '8', direct: false }));
      await until(() => targets.length === 2);
      await core.gateway.handle(inbound('/help', { chat: '-100', user: '8', direct: false }));
      await until(() => targets.length === 3);
      expect(targets.map((t) => [t.chatId, t.isDirect])).toEqual([
        ['8', true],
        ['-100', false],
        ['-100', false],
      ]);
    } finally {
      await core.close();
      cleanup(core.home);
    }
  });

  it('takes a chat command the door marked, with or without the command repeated in the text; a marked door command (/ask) goes to the model', async () => {
    const core = makeCore({ modelUrl: model.openaiUrl });
    const before = model.completions().length;
    try {
      await core.gateway.handle({ ...inbound('', { user: '9' }), command: { name: 'status', forBot: true } });
      await until(() => core.door.sent.length === 1);
      expect(core.door.sent[0].text).toMatch(/^No conversation yet/);
      await core.gateway.handle({ ...inbound('/new@SwitchboardBot', { user: '9' }), command: { name: 'new', forBot: true } });
      await until(() => core.door.sent.length === 2);
      expect(core.door.sent[1].text).toBe('Started a new conversation.');
      await core.gateway.handle({ ...inbound('/frobnicate now', { user: '9' }), command: { name: 'frobnicate', forBot: true } });
      await until(() => core.door.sent.length === 3);
      expect(core.door.sent[2].text).toBe('There is no command /frobnicate; /help lists the commands.');
      expect(model.completions().length).toBe(before);
      await core.gateway.handle({ ...inbound('what is new?', { user: '9' }), command: { name: 'ask', forBot: true } });
      await until(() => core.door.sent.length === 4);
      expect(model.completions().length).toBe(before + 1);
    } finally {
      await core.close();
      cleanup(core.home);
    }
  });
});
