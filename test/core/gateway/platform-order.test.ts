/**
 * A session's pending messages are answered in the order the platform gave them (`sentAt`), not the
 * order the journal received them (ARCHITECTURE.md §9: instances receiving one session's messages at
 * once may journal them in another order); and a group message handed over before its sender's name
 * was known gets the name from the door when the turn builds the user message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, lastUserText, type ModelFake } from '../../fakes/model.js';
import { cleanup, inbound, makeCore, recordingAdapter, until } from '../../helpers/core.js';

let model: ModelFake;
beforeAll(async () => {
  model = await startModelFake();
});
afterAll(async () => {
  await model.close();
});

describe('the turn takes its batch in platform order', () => {
  it('answers messages that waited behind a turn in the order they were sent, whatever order they were journaled in', async () => {
    const core = makeCore({ modelUrl: model.openaiUrl, allowed: '1001' });
    try {
      model.queue({ text: 'first answer', delayMs: 400 }, { text: 'second answer' });
      await core.gateway.handle({ ...inbound('one'), sentAt: 1_000 });
      await until(() => model.requests.length === 1);
      // While the first turn runs, the third message is journaled before the second.
      await core.gateway.handle({ ...inbound('three'), sentAt: 3_000 });
      await core.gateway.handle({ ...inbound('two'), sentAt: 2_000 });
      await until(() => core.door.sent.length === 2);
      expect(lastUserText(model.requests[1])).toBe('two\n\nthree');
    } finally {
      await core.close();
      cleanup(core.home);
    }
  });

  it('asks the door for the sender name of a group message journaled without one', async () => {
    const door = Object.assign(recordingAdapter('telegram'), { senderName: async (userId: string) => (userId === '1001' ? 'Alice' : undefined) });
    const core = makeCore({ modelUrl: model.openaiUrl, allowed: '1001', door, yaml: 'chats:\n  "telegram:-100":\n    require_mention: false\n' });
    try {
      model.queue({ text: 'hi Alice' });
      await core.gateway.handle(inbound('hello all', { chat: '-100', direct: false, mention: true }));
      await until(() => core.door.sent.length === 1);
      expect(lastUserText(model.requests.at(-1)!)).toBe('[sender: "Alice"]\nhello all');
    } finally {
      await core.close();
      cleanup(core.home);
    }
  });
});
