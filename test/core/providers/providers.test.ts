import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, systemText, type ModelFake } from '../../fakes/model.js';
import { createAnthropicProvider } from '../../../src/core/providers/anthropic.js';
import { createOpenAIProvider } from '../../../src/core/providers/openai.js';
import { ModelError } from '../../../src/core/errors.js';
import type { ModelRequest } from '../../../src/core/providers/provider.js';

let fake: ModelFake;
beforeAll(async () => {
  fake = await startModelFake();
});
afterAll(async () => {
  await fake.close();
});

const layers = [
  { name: 'identity', text: 'You are Switchboard.\n\n' },
  { name: 'tool_guidance', text: 'Use tools.\n\n' },
  { name: 'platform_hint', text: 'You are on Telegram.\n\n' },
  { name: 'memory', text: 'Alice likes tea.\n\n' },
  { name: 'session_info', text: 'Conversation started: Monday, November 30, 2026' },
];

const request: ModelRequest = {
  model: 'm',
  system: layers,
  messages: [
    { role: 'user', content: 'hello' },
    { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'memory', arguments: '{"action":"add"}' }] },
    { role: 'tool', toolCallId: 't1', name: 'memory', content: 'saved' },
    { role: 'assistant', content: 'Saved it.' },
    { role: 'user', content: 'and now?' },
  ],
  tail: 'Scheduled run: produce the report.',
  tools: [{ name: 'memory', description: 'Edit memory', parameters: { type: 'object', properties: {} } }],
  maxOutputTokens: 100,
};

function countBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countBreakpoints(v), 0);
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return (o.cache_control ? 1 : 0) + Object.values(o).reduce((n: number, v) => n + countBreakpoints(v), 0);
  }
  return 0;
}

describe('Anthropic provider', () => {
  it('sends the cached prompt as blocks whose concatenation is the prompt, with four breakpoints and the tail last', async () => {
    fake.queue({ text: 'fine' });
    const p = createAnthropicProvider({ apiKey: 'sk-ant-test', baseURL: fake.anthropicUrl, timeoutMs: 5000, maxRetries: 0, cacheTtl: '5m' });
    const res = await p.complete(request);
    expect(res.text).toBe('fine');
    const req = fake.completions().at(-1)!;
    expect(systemText(req)).toBe(layers.map((l) => l.text).join(''));
    const system = req.body.system as Array<{ text: string }>;
    expect(system[0].text).toBe('You are Switchboard.\n\nUse tools.\n\nYou are on Telegram.\n\n');
    expect(countBreakpoints(req.body)).toBe(4);
    expect(countBreakpoints(req.body.tools)).toBe(0);
    const messages = req.body.messages as Array<{ role: string; content: Array<{ type: string; text?: string; cache_control?: unknown }> }>;
    const last = messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(last.content.at(-1)).toEqual({ type: 'text', text: 'Scheduled run: produce the report.' });
    expect(last.content.at(-2)?.cache_control).toBeDefined();
    expect(messages[1].content.some((b) => b.type === 'tool_use')).toBe(true);
    expect(messages[2].content[0].type).toBe('tool_result');
    // the key travels as a header the fake accepts (x-api-key or bearer)
    expect(String(req.headers['x-api-key'] ?? req.headers.authorization)).toContain('sk-ant-test');
  });

  it('reports cached tokens from usage', async () => {
    const p = createAnthropicProvider({ apiKey: 'k', baseURL: fake.anthropicUrl, timeoutMs: 5000, maxRetries: 0, cacheTtl: '5m' });
    fake.queue({ text: 'a' }, { text: 'b' });
    await p.complete(request);
    const second = await p.complete(request);
    expect(second.usage.cachedTokens).toBeGreaterThan(0);
    expect(second.usage.inputTokens).toBeGreaterThanOrEqual(second.usage.cachedTokens);
  });
});

describe('OpenAI-compatible provider', () => {
  it('sends one leading system message, the history verbatim, and the tail as a trailing system message', async () => {
    fake.queue({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'x' } }] });
    const p = createOpenAIProvider({ apiKey: 'k', baseURL: fake.openaiUrl, timeoutMs: 5000, maxRetries: 0 });
    const res = await p.complete(request);
    expect(res.toolCalls).toEqual([{ id: expect.any(String), name: 'memory', arguments: '{"action":"add","target":"memory","content":"x"}' }]);
    const req = fake.completions().at(-1)!;
    const messages = req.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages[0]).toEqual({ role: 'system', content: layers.map((l) => l.text).join('') });
    expect(messages.at(-1)).toEqual({ role: 'system', content: 'Scheduled run: produce the report.' });
    expect(messages.filter((m) => m.role === 'system')).toHaveLength(2);
  });

  it('retries 429 honouring retry-after, and 500s, then answers', async () => {
    fake.queue({ status: 429, headers: { 'retry-after': '0' } }, { status: 500 }, { text: 'finally' });
    const p = createOpenAIProvider({ apiKey: 'k', baseURL: fake.openaiUrl, timeoutMs: 5000, maxRetries: 3 });
    const before = fake.completions().length;
    const res = await p.complete({ ...request, tail: undefined });
    expect(res.text).toBe('finally');
    expect(fake.completions().length - before).toBe(3);
  });

  it('turns malformed JSON, a cut connection and a timeout into one-line model errors', async () => {
    const p = createOpenAIProvider({ apiKey: 'k', baseURL: fake.openaiUrl, timeoutMs: 300, maxRetries: 0 });
    fake.queue({ malformed: true });
    await expect(p.complete(request)).rejects.toBeInstanceOf(ModelError);
    fake.queue({ hangup: true });
    await expect(p.complete(request)).rejects.toBeInstanceOf(ModelError);
    fake.queue({ text: 'slow', delayMs: 1000 });
    const err = await p.complete(request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as Error).message).toMatch(/did not answer in time/);
    expect((err as Error).message).not.toContain('\n');
  });
});
