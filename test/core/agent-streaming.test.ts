/**
 * The agent loop streaming (ARCHITECTURE.md §10), on both provider shapes: a turn whose first call ends in a
 * tool call runs the tool and streams on; onText sees each call's text grow (the second from the
 * start); the answer, the stored messages and the usage are those of the same turn unstreamed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, type FakeReply, type ModelFake } from '../fakes/model.js';
import { cleanup, makeCore } from '../helpers/core.js';
import { createAnthropicProvider } from '../../src/core/providers/anthropic.js';
import { createOpenAIProvider } from '../../src/core/providers/openai.js';
import type { Provider } from '../../src/core/providers/provider.js';

let model: ModelFake;
beforeAll(async () => {
  model = await startModelFake();
});
afterAll(() => model.close());

const replies = (): FakeReply[] => [
  { text: 'Let me check my notes.', toolCalls: [{ name: 'lookup', arguments: { q: 'tea' } }], tokensPerSecond: 200 },
  { text: 'You like **green tea**, as far as I know.', tokensPerSecond: 200 },
];

const providers: Array<[string, () => Provider]> = [
  ['openai', () => createOpenAIProvider({ apiKey: 'k', baseURL: model.openaiUrl, timeoutMs: 5000, maxRetries: 0 })],
  ['anthropic', () => createAnthropicProvider({ apiKey: 'k', baseURL: model.anthropicUrl, timeoutMs: 5000, maxRetries: 0, cacheTtl: '5m' })],
];

describe.each(providers)('agent turn streamed through %s', (_name, make) => {
  it('runs the tool mid-stream, streams on, and ends as the unstreamed turn does', async () => {
    const core = makeCore({ modelUrl: model.openaiUrl, provider: make() });
    try {
      const turn = (user: string, onText?: (t: string) => void) =>
        core.agent.turn({
          session: { platform: 'telegram', chatId: user, userId: user },
          sessionKey: `telegram:${user}:${user}`,
          personKey: `telegram:${user}`,
          chat: undefined,
          userContent: 'what tea do I like?',
          replyAddress: { platform: 'telegram', chatId: user },
          signal: new AbortController().signal,
          ...(onText ? { onText } : {}),
        });
      model.queue(...replies());
      const plain = await turn('1');
      const seen: string[] = [];
      const tools: string[] = [];
      model.queue(...replies());
      const streamed = await core.agent.turn({
        session: { platform: 'telegram', chatId: '2', userId: '2' },
        sessionKey: 'telegram:2:2',
        personKey: 'telegram:2',
        chat: undefined,
        userContent: 'what tea do I like?',
        replyAddress: { platform: 'telegram', chatId: '2' },
        signal: new AbortController().signal,
        onText: (t) => seen.push(t),
        onTool: (name) => tools.push(name),
      });
      expect(streamed.answer).toBe(plain.answer);
      expect(streamed.answer).toBe('You like **green tea**, as far as I know.');
      expect(tools).toEqual(['lookup']);
      const reset = seen.findIndex((t, i) => i > 0 && !t.startsWith(seen[i - 1]));
      expect(reset).toBeGreaterThan(1);
      expect(seen[reset - 1]).toBe('Let me check my notes.');
      expect(seen.at(-1)).toBe(streamed.answer);
      const shape = (r: typeof plain) => r.newMessages.map((m) => ({ role: m.role, content: m.content, tools: m.role === 'assistant' ? m.toolCalls?.map((c) => [c.name, c.arguments]) : undefined }));
      expect(shape(streamed)).toEqual(shape(plain));
      expect(streamed.requests).toBe(2);
      expect(streamed.usage.outputTokens).toBe(plain.usage.outputTokens);
      expect(streamed.usage.inputTokens).toBe(plain.usage.inputTokens);
    } finally {
      await core.close();
      cleanup(core.home);
    }
  });
});
