/**
 * A model that refuses image parts (ARCHITECTURE.md §15), through the real gateway and provider against the
 * loopback model fake answering as such servers do: the turn is asked once more with the one-line
 * placeholder, the user is told once in one line naming model.vision, and later turns of the session
 * send the placeholder at once instead of failing first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startModelFake, lastUserText, type ModelFake, type RecordedRequest } from '../fakes/model.js';
import { cleanup, inbound, makeCore, recordingAdapter, until, type CoreHarness } from '../helpers/core.js';
import { createOpenAIProvider } from '../../src/core/providers/openai.js';
import { createAnthropicProvider } from '../../src/core/providers/anthropic.js';
import type { Provider } from '../../src/core/providers/provider.js';
import { jpeg } from './files.js';

const NOTICE = 'This model cannot see images (model.vision): it was told only the name, type and size of each.';

interface Api {
  name: 'openai' | 'anthropic';
  provider(fake: ModelFake): Provider;
  /** The error body such a server answers when the request carries an image. */
  refusal: string;
  hasImage(req: RecordedRequest): boolean;
}

const APIS: Api[] = [
  {
    name: 'openai',
    provider: (fake) => createOpenAIProvider({ apiKey: 'k', baseURL: fake.openaiUrl, timeoutMs: 5000, maxRetries: 0 }),
    refusal: JSON.stringify({ error: { message: 'Invalid content type. image_url is only supported by certain models.', type: 'invalid_request_error', param: 'messages.[1].content.[1].type', code: null } }),
    hasImage: (req) => req.raw.includes('"image_url"'),
  },
  {
    name: 'anthropic',
    provider: (fake) => createAnthropicProvider({ apiKey: 'k', baseURL: fake.anthropicUrl, timeoutMs: 5000, maxRetries: 0, cacheTtl: '5m' }),
    refusal: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: "messages.0.content.0.type: 'image' input is not supported by this model" } }),
    hasImage: (req) => req.raw.includes('"type":"image"'),
  },
];

let core: CoreHarness | undefined;
let fake: ModelFake | undefined;
afterEach(async () => {
  await core?.close();
  await fake?.close();
  if (core) cleanup(core.home);
  core = fake = undefined;
});

describe.each(APIS)('a model that refuses image parts ($name)', (api) => {
  it('asks once more with the placeholder, tells the user once, and later turns do not fail first', async () => {
    const model = await startModelFake({
      script: (req) => (api.hasImage(req) ? { status: 400, body: api.refusal } : { text: `Echo: ${lastUserText(req)}` }),
    });
    fake = model;
    const photo = await jpeg(800, 600);
    const door = Object.assign(recordingAdapter('telegram'), { attachments: { fetch: async () => photo } });
    core = makeCore({ modelUrl: model.openaiUrl, door, provider: api.provider(model) });
    const photoMessage = { ...inbound('what is this?'), attachments: [{ kind: 'image' as const, name: 'photo.jpg', declaredMime: 'image/jpeg', ref: 'file-1' }] };
    await core.gateway.handle(photoMessage);
    await until(() => door.sent.length >= 1, 10_000, 'the first reply');

    const first = model.completions();
    expect(first.map(api.hasImage)).toEqual([true, false]);
    expect(first[1].raw).toMatch(/what is this\?\\n\[image \\"photo\.jpg\\", image\/jpeg, \d+ KB: not shown, this model takes no images\]/);
    expect(door.sent[0].text).toBe(`${NOTICE}\n\nEcho: what is this?\n[image "photo.jpg", image/jpeg, ${/(\d+ KB)/.exec(first[1].raw)?.[1]}: not shown, this model takes no images]`);

    // The session remembers: the next turn carries the placeholder at once, and nobody is told again.
    await core.gateway.handle(inbound('and its colour?'));
    await until(() => door.sent.length >= 2, 10_000, 'the second reply');
    const all = model.completions();
    expect(all).toHaveLength(3);
    expect(api.hasImage(all[2])).toBe(false);
    expect(all[2].raw).toContain('not shown, this model takes no images');
    expect(door.sent[1].text).toBe('Echo: and its colour?');
  });

  it('a model error that is not about images fails the turn as before (no second request)', async () => {
    const model = await startModelFake({ script: () => ({ status: 400, body: JSON.stringify({ error: { message: 'max_tokens is too large', type: 'invalid_request_error' } }) }) });
    fake = model;
    const photo = await jpeg(200, 150);
    const door = Object.assign(recordingAdapter('telegram'), { attachments: { fetch: async () => photo } });
    core = makeCore({ modelUrl: model.openaiUrl, door, provider: api.provider(model) });
    await core.gateway.handle({ ...inbound('look'), attachments: [{ kind: 'image' as const, name: 'photo.jpg', ref: 'file-1' }] });
    await until(() => door.sent.length >= 1, 10_000, 'the apology');
    expect(model.completions()).toHaveLength(1);
    expect(door.sent[0].text).not.toContain('model.vision');
  });
});
