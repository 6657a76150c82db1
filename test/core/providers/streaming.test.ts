/**
 * Provider streaming (ARCHITECTURE.md §10) against the model fake's real SSE shapes: the text arrives in
 * pieces while the model writes, and the response — text, tool calls, usage and cache figures — is
 * what the same answer gives unstreamed; the request differs only by the stream flag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, type FakeReply, type ModelFake } from '../../fakes/model.js';
import { createAnthropicProvider } from '../../../src/core/providers/anthropic.js';
import { createOpenAIProvider } from '../../../src/core/providers/openai.js';
import type { ModelRequest, Provider } from '../../../src/core/providers/provider.js';

let fake: ModelFake;
beforeAll(async () => {
  fake = await startModelFake();
});
afterAll(async () => {
  await fake.close();
});

const request: ModelRequest = {
  model: 'm',
  system: [
    { name: 'identity', text: 'You are Switchboard.\n\n' },
    { name: 'platform_hint', text: 'You are on Telegram.\n\n' },
    { name: 'memory', text: 'Alice likes tea.' },
  ],
  messages: [{ role: 'user', content: 'tell me' }],
  tools: [{ name: 'memory', description: 'Edit memory', parameters: { type: 'object', properties: {} } }],
  maxOutputTokens: 100,
};

const providers: Array<[string, () => Provider]> = [
  ['openai', () => createOpenAIProvider({ apiKey: 'k', baseURL: fake.openaiUrl, timeoutMs: 5000, maxRetries: 0 })],
  ['anthropic', () => createAnthropicProvider({ apiKey: 'k', baseURL: fake.anthropicUrl, timeoutMs: 5000, maxRetries: 0, cacheTtl: '5m' })],
];

const TEXT = 'The answer comes in **many** small pieces, one word after another, until it is done.';

describe.each(providers)('%s streaming', (_name, make) => {
  async function both(reply: FakeReply) {
    const provider = make();
    fake.queue(reply);
    const plain = await provider.complete(request);
    const plainBody = fake.completions().at(-1)!.body;
    const deltas: Array<{ text: string; at: number }> = [];
    fake.queue({ ...reply, tokensPerSecond: 100 });
    const streamed = await provider.complete({ ...request, onText: (text) => deltas.push({ text, at: Date.now() }) });
    const streamedBody = fake.completions().at(-1)!.body;
    return { plain, streamed, deltas, plainBody, streamedBody };
  }

  it('hands the text over in pieces before the answer is finished; the response equals the unstreamed one', async () => {
    const { plain, streamed, deltas, plainBody, streamedBody } = await both({ text: TEXT });
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.map((d) => d.text).join('')).toBe(TEXT);
    expect(deltas[0].at).toBeLessThan(fake.streams.at(-1)!.lastTokenAt);
    expect(streamed.text).toBe(plain.text);
    expect(streamed.toolCalls).toEqual(plain.toolCalls);
    expect(streamed.stopReason).toBe(plain.stopReason);
    // usage and cache figures are recorded as without streaming (the second call hits the prefix cache)
    expect(streamed.usage.outputTokens).toBe(plain.usage.outputTokens);
    expect(streamed.usage.inputTokens).toBe(plain.usage.inputTokens);
    expect(streamed.usage.cachedTokens).toBeGreaterThan(0);
    // the request is the same but for the stream flag
    const { stream, stream_options, ...rest } = streamedBody as Record<string, unknown>;
    expect(stream).toBe(true);
    if (_name === 'openai') expect(stream_options).toEqual({ include_usage: true });
    else expect(stream_options).toBeUndefined();
    expect(rest).toEqual(plainBody);
  });

  it('assembles tool calls streamed in pieces, exactly as the unstreamed call gives them', async () => {
    const reply: FakeReply = { text: 'Let me note that.', toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'likes tea' } }] };
    const { plain, streamed } = await both(reply);
    expect(streamed.toolCalls.map((c) => [c.name, c.arguments])).toEqual(plain.toolCalls.map((c) => [c.name, c.arguments]));
    expect(streamed.toolCalls[0].id).toMatch(/\S/);
    expect(streamed.text).toBe('Let me note that.');
    expect(streamed.stopReason).toBe(plain.stopReason);
  });
});
