import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, lastUserText, type ModelFake, type RecordedRequest } from '../fakes/model.js';
import { cleanup, inbound, makeCore, recordingAdapter, until } from '../helpers/core.js';

let model: ModelFake;
beforeAll(async () => {
  model = await startModelFake();
});
afterAll(async () => {
  await model.close();
});

function openaiMessages(r: RecordedRequest): unknown[] {
  return r.body.messages as unknown[];
}

describe('gateway', () => {
  it('keeps per-session order for 200 messages over 20 overlapping sessions, none lost or answered twice', async () => {
    model.setScript(async (req) => ({ text: `Echo: ${lastUserText(req)}`, delayMs: Math.floor(Math.random() * 15) }));
    const core = makeCore({ modelUrl: model.openaiUrl });
    try {
      const sends: Promise<unknown>[] = [];
      for (let i = 0; i < 10; i++) for (let u = 0; u < 20; u++) sends.push(core.gateway.handle(inbound(`u${u}-m${i}`, { user: `${100 + u}` })));
      await Promise.all(sends);
      await until(() => {
        const seen = core.door.sent.map((s) => s.text.match(/u\d+-m\d+/g) ?? []).flat();
        return seen.length >= 200;
      }, 20_000, '200 answers');
      await core.gateway.idle();
      for (let u = 0; u < 20; u++) {
        const got = core.door.sent
          .filter((s) => s.chatId === `${100 + u}`)
          .flatMap((s) => s.text.match(/u\d+-m\d+/g) ?? []);
        expect(got).toEqual(Array.from({ length: 10 }, (_, i) => `u${u}-m${i}`));
      }
    } finally {
      await core.close();
      cleanup(core.home);
    }
  });

  it('makes every request a strict extension of the previous one with a byte-identical system prompt, also after a restart', async () => {
    model.setScript((req) => ({ text: `Answer to ${lastUserText(req)}` }));
    const first = makeCore({ modelUrl: model.openaiUrl });
    const before = model.completions().length;
    for (let i = 0; i < 5; i++) {
      await first.gateway.handle(inbound(`turn ${i}`, { user: '4242' }));
      await until(() => first.door.sent.length === i + 1);
    }
    await first.close();
    const second = makeCore({ modelUrl: model.openaiUrl, home: first.home });
    for (let i = 5; i < 10; i++) {
      await second.gateway.handle(inbound(`turn ${i}`, { user: '4242' }));
      await until(() => second.door.sent.length === i - 4);
    }
    const reqs = model.completions().slice(before);
    expect(reqs).toHaveLength(10);
    for (let i = 1; i < reqs.length; i++) {
      const prev = openaiMessages(reqs[i - 1]);
      const cur = openaiMessages(reqs[i]);
      expect(JSON.stringify(cur[0])).toBe(JSON.stringify(prev[0]));
      const answer = { role: 'assistant', content: `Answer to turn ${i - 1}` };
      expect(cur.slice(0, prev.length + 1)).toEqual([...prev, answer]);
      // the raw bytes of the previous request's messages are a prefix of this one's
      const prevRaw = JSON.stringify(prev);
      expect(JSON.stringify(cur).startsWith(prevRaw.slice(0, -1))).toBe(true);
    }
    await second.close();
    cleanup(first.home);
  });

  it('refuses a user who is not allowed without calling the model', async () => {
    const core = makeCore({ modelUrl: model.openaiUrl, allowed: '1001' });
    const before = model.completions().length;
    await core.gateway.handle(inbound('let me in', { user: '6666' }));
    await until(() => core.door.sent.length === 1);
    expect(core.door.sent[0].text).toMatch(/private/);
    expect(core.door.sent[0].text).toContain('6666');
    await new Promise((r) => setTimeout(r, 100));
    expect(model.completions().length).toBe(before);
    await core.close();
    cleanup(core.home);
  });

  it('refuses an e-mail sender who is not allowed with no reply at all (no backscatter), journaled as refused', async () => {
    const door = recordingAdapter('email');
    const core = makeCore({ modelUrl: model.openaiUrl, door });
    const before = model.completions().length;
    const m = { ...inbound('let me in', { user: 'mallory@evil.test', chat: '<m1@evil.test>' }), platform: 'email' as const, replyTarget: { platform: 'email' as const, chatId: 'mallory@evil.test' } };
    expect(await core.gateway.handle(m)).toBe('refused');
    expect(await core.gateway.handle({ ...m })).toBe('duplicate');
    await core.gateway.idle();
    await new Promise((r) => setTimeout(r, 150));
    expect(door.sent).toEqual([]);
    expect(await core.store.outbox.counts()).toMatchObject({ pending: 0, sent: 0 });
    expect(model.completions().length).toBe(before);
    await core.close();
    cleanup(core.home);
  });

  it('answers a redelivered update once', async () => {
    model.setScript(() => ({ text: 'once' }));
    const core = makeCore({ modelUrl: model.openaiUrl });
    const m = inbound('hello', { updateId: 'dup-1' });
    await core.gateway.handle(m);
    await core.gateway.handle({ ...m });
    await core.gateway.idle();
    await until(() => core.door.sent.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(core.door.sent.map((s) => s.text)).toEqual(['once']);
    await core.close();
    cleanup(core.home);
  });

  it('ignores group messages that do not address the bot', async () => {
    const core = makeCore({ modelUrl: model.openaiUrl });
    const before = model.completions().length;
    await core.gateway.handle(inbound('chatter', { chat: '-100', direct: false, mention: false }));
    await core.gateway.idle();
    expect(model.completions().length).toBe(before);
    expect(core.door.sent).toHaveLength(0);
    await core.close();
    cleanup(core.home);
  });

  it('apologises when the model fails, keeps the message, and the next message works', async () => {
    const core = makeCore({ modelUrl: model.openaiUrl });
    model.queue({ status: 500 });
    model.setScript((req) => ({ text: `ok: ${lastUserText(req)}` }));
    await core.gateway.handle(inbound('first', { user: '777' }));
    await until(() => core.door.sent.length === 1);
    expect(core.door.sent[0].text).toMatch(/^Sorry, I could not answer that/);
    await core.gateway.handle(inbound('second', { user: '777' }));
    await until(() => core.door.sent.length === 2);
    expect(core.door.sent[1].text).toBe('ok: second');
    const last = model.completions().at(-1)!;
    const users = (last.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['first', 'second']);
    await core.close();
    cleanup(core.home);
  });

  it("chats: a group with require_mention: false is answered without a mention, with the chat's model; other groups still need one", async () => {
    const yaml = 'chats:\n  "telegram:-200":\n    require_mention: false\n    model: group-model\n';
    const core = makeCore({ modelUrl: model.openaiUrl, yaml });
    model.setScript((req) => ({ text: `ok: ${lastUserText(req)}` }));
    const before = model.completions().length;
    await core.gateway.handle(inbound('no mention here', { user: '31', chat: '-200', direct: false, mention: false }));
    await until(() => core.door.sent.length === 1);
    expect(core.door.sent[0]).toMatchObject({ chatId: '-200', text: 'ok: no mention here' });
    expect(model.completions().at(-1)!.body.model).toBe('group-model');
    await core.gateway.handle(inbound('chatter', { user: '31', chat: '-300', direct: false, mention: false }));
    await core.gateway.handle(inbound('in a DM', { user: '31' }));
    await until(() => core.door.sent.length === 2);
    await core.gateway.idle();
    expect(core.door.sent.map((m) => m.text)).toEqual(['ok: no mention here', 'ok: in a DM']);
    expect(model.completions().at(-1)!.body.model).toBe('fake-model');
    expect(model.completions().length - before).toBe(2);
    await core.close();
    cleanup(core.home);
  });

  it("chats: a chat's model is fixed for the session; a changed config shows from the next session (/new)", async () => {
    model.setScript((req) => ({ text: `ok: ${lastUserText(req)}` }));
    const first = makeCore({ modelUrl: model.openaiUrl, yaml: 'chats:\n  "telegram:41": { model: model-a }\n' });
    await first.gateway.handle(inbound('one', { user: '41' }));
    await until(() => first.door.sent.length === 1);
    expect(model.completions().at(-1)!.body.model).toBe('model-a');
    await first.close();
    // restarted with another model for the chat: the open session keeps its own
    const second = makeCore({ home: first.home, modelUrl: model.openaiUrl, yaml: 'chats:\n  "telegram:41": { model: model-b }\n' });
    await second.gateway.handle(inbound('two', { user: '41' }));
    await until(() => second.door.sent.length === 1);
    expect(model.completions().at(-1)!.body.model).toBe('model-a');
    await second.gateway.handle(inbound('/new', { user: '41' }));
    await second.gateway.handle(inbound('three', { user: '41' }));
    await until(() => second.door.sent.length === 3);
    expect(model.completions().at(-1)!.body.model).toBe('model-b');
    await second.close();
    cleanup(first.home);
  });

  it('a model error reaches the chat as a short apology; the endpoint and the advice stay in the log', async () => {
    const core = makeCore({ modelUrl: model.openaiUrl });
    model.queue({ status: 401 });
    await core.gateway.handle(inbound('hi', { user: '778' }));
    await until(() => core.door.sent.length === 1);
    const text = core.door.sent[0].text;
    expect(text).toBe(
      'Sorry, I could not answer that: the model is not available to me right now. Your message is kept; please try again in a moment. The operator can see the details in the log.',
    );
    expect(text).not.toMatch(/127\.0\.0\.1|key|HTTP/);
    await core.close();
    cleanup(core.home);
  });

  it('when the failed message could not be kept, the apology says so instead of "kept"', async () => {
    const core = makeCore({ modelUrl: model.openaiUrl });
    model.queue({ status: 500 });
    core.agent.failedTurnSession = async () => null;
    await core.gateway.handle(inbound('hi', { user: '779' }));
    await until(() => core.door.sent.length === 1);
    expect(core.door.sent[0].text).toBe(
      'Sorry, I could not answer that: the model service answered with an error (HTTP 500). Your message could not be stored either; please send it again in a moment.',
    );
    await core.close();
    cleanup(core.home);
  });

  it('collects messages sent during a turn into one follow-up turn, in arrival order', async () => {
    model.setScript((req) => ({ text: `got: ${lastUserText(req)}`, delayMs: 150 }));
    const core = makeCore({ modelUrl: model.openaiUrl });
    await core.gateway.handle(inbound('one', { user: '55' }));
    await new Promise((r) => setTimeout(r, 30));
    await core.gateway.handle(inbound('two', { user: '55' }));
    await core.gateway.handle(inbound('three', { user: '55' }));
    await until(() => core.door.sent.length === 2);
    expect(core.door.sent.map((s) => s.text)).toEqual(['got: one', 'got: two\n\nthree']);
    await core.close();
    cleanup(core.home);
  });

  it('/new starts a fresh session and answers with one short line; /status shows the prompt hash', async () => {
    model.setScript(() => ({ text: 'hi' }));
    const core = makeCore({ modelUrl: model.openaiUrl });
    await core.gateway.handle(inbound('hello', { user: '88' }));
    await until(() => core.door.sent.length === 1);
    const firstSession = (await core.store.sessions.findOpen({ platform: 'telegram', chatId: '88', userId: '88' }))!;
    await core.gateway.handle(inbound('/status', { user: '88' }));
    await until(() => core.door.sent.length === 2);
    expect(core.door.sent[1].text).toContain(firstSession.promptSha256.slice(0, 16));
    await core.gateway.handle(inbound('/new', { user: '88' }));
    await until(() => core.door.sent.length === 3);
    expect(core.door.sent[2].text).toBe('Started a new conversation.');
    expect(await core.store.sessions.findOpen({ platform: 'telegram', chatId: '88', userId: '88' })).toBeUndefined();
    await core.close();
    cleanup(core.home);
  });

  it('keeps a message whose turn was cut by shutdown and answers it once after the restart', async () => {
    model.setScript(() => ({ text: 'late answer', delayMs: 1500 }));
    const first = makeCore({ modelUrl: model.openaiUrl });
    await first.gateway.handle(inbound('are you there?', { user: '99', updateId: 'sig-1' }));
    await new Promise((r) => setTimeout(r, 50));
    await first.gateway.shutdown(100);
    expect(first.door.sent).toHaveLength(0);
    expect((await first.store.inbound.pending()).map((m) => m.updateId)).toEqual(['sig-1']);
    await first.close();
    model.setScript(() => ({ text: 'here I am' }));
    const door = recordingAdapter('telegram');
    const second = makeCore({ modelUrl: model.openaiUrl, home: first.home, door });
    // The real start: its first sweep answers what the first run kept.
    expect(await second.app.start()).not.toBeNull();
    await until(() => door.sent.length === 1);
    await second.gateway.handle(inbound('are you there?', { user: '99', updateId: 'sig-1' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(door.sent.map((s) => s.text)).toEqual(['here I am']);
    await second.close();
    cleanup(first.home);
  });

  it('retries a reply the platform could not take, in order, without sending any chunk twice', async () => {
    model.setScript((req) => ({ text: `r: ${lastUserText(req)}` }));
    const core = makeCore({ modelUrl: model.openaiUrl });
    core.door.failNext(3);
    await core.gateway.handle(inbound('a', { user: '31' }));
    await until(() => core.door.sent.length === 1, 5000);
    await core.gateway.handle(inbound('b', { user: '31' }));
    await until(() => core.door.sent.length === 2, 5000);
    expect(core.door.sent.map((s) => s.text)).toEqual(['r: a', 'r: b']);
    await core.close();
    cleanup(core.home);
  });
});

describe('gateway commands and pairing', () => {
  it('/stop cancels the running turn and answers once', async () => {
    model.setScript(() => ({ text: 'too late', delayMs: 2000 }));
    const core = makeCore({ modelUrl: model.openaiUrl });
    await core.gateway.handle(inbound('write a novel', { user: '71' }));
    await new Promise((r) => setTimeout(r, 50));
    await core.gateway.handle(inbound('/stop', { user: '71' }));
    await until(() => core.door.sent.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(core.door.sent.map((s) => s.text)).toEqual(['Stopped.']);
    await core.gateway.handle(inbound('/stop', { user: '71' }));
    await until(() => core.door.sent.length === 2);
    expect(core.door.sent[1].text).toBe('Nothing is running.');
    await core.close();
    cleanup(core.home);
  });

  it('gives an unknown user a pairing code when pairing is on, and lets them in once approved', async () => {
    model.setScript(() => ({ text: 'welcome' }));
    const core = makeCore({ modelUrl: model.openaiUrl, allowed: '1001', yaml: 'telegram: { pairing: true }' });
    const before = model.completions().length;
    await core.gateway.handle(inbound('hi', { user: '3003' }));
    await until(() => core.door.sent.length === 1);
    const code = /`([A-Z2-9]{8})`/.exec(core.door.sent[0].text)?.[1];
    expect(code).toBeDefined();
    // asking again within 10 minutes gives the same code, not a new one
    await core.gateway.handle(inbound('hello?', { user: '3003' }));
    await until(() => core.door.sent.length === 2);
    expect(core.door.sent[1].text).toContain(code!);
    expect(model.completions().length).toBe(before);
    expect(await core.store.pairing.approve(code!.toLowerCase(), Date.now())).toEqual({ platform: 'telegram', userId: '3003' });
    await core.gateway.handle(inbound('now?', { user: '3003' }));
    await until(() => core.door.sent.length === 3);
    expect(core.door.sent[2].text).toBe('welcome');
    await core.close();
    cleanup(core.home);
  });

  it('allows at most 3 pending pairing codes per platform', async () => {
    const core = makeCore({ modelUrl: model.openaiUrl, allowed: '1001', yaml: 'telegram: { pairing: true }' });
    for (const u of ['1', '2', '3', '4']) await core.gateway.handle(inbound('hi', { user: `900${u}` }));
    await until(() => core.door.sent.length === 4);
    expect(core.door.sent.filter((s) => /`[A-Z2-9]{8}`/.test(s.text))).toHaveLength(3);
    expect(core.door.sent[3].text).toMatch(/cannot take more pairing requests/);
    await core.close();
    cleanup(core.home);
  });
});
