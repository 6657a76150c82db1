/**
 * The OpenAI request body is assembled from pieces serialised once (openai-body.ts): it must be
 * exactly what JSON.stringify of the SDK's body object gives, on every turn — also when a message
 * or the tool list is not one seen before, or a message changed since.
 */
import { describe, expect, it } from 'vitest';
import { chatCompletionBody, PiecesCache, toOpenAIMessages, toOpenAITools } from '../../../src/core/providers/openai-body.js';
import type { ModelRequest } from '../../../src/core/providers/provider.js';
import type { ChatMessage } from '../../../src/core/messages.js';

const sdkBody = (r: ModelRequest, stream: boolean) =>
  JSON.stringify({
    model: r.model,
    messages: toOpenAIMessages(r),
    ...(r.tools.length ? { tools: toOpenAITools(r.tools) } : {}),
    max_tokens: r.maxOutputTokens,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });

const layers = Object.freeze([Object.freeze({ name: 'identity', text: 'You are “Switchboard”.\n' }), Object.freeze({ name: 'memory', text: 'Likes \u{1F600} and "quotes"' })]);
const tools = Object.freeze([Object.freeze({ name: 'memory', description: 'Keeps notes', parameters: { type: 'object', properties: { action: { type: 'string' } } } })]);

describe('OpenAI request body', () => {
  it('equals the SDK body byte for byte, turn after turn, streamed or not', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'hi \ud800 lone' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'memory', arguments: '{"action":"add"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'memory', content: 'ok' },
      { role: 'assistant', content: 'Done <b>&</b>' },
    ];
    const request: ModelRequest = { model: 'm', system: layers as never, messages: history, tools: tools as never, maxOutputTokens: 100, tail: 'Be brief.' };
    for (const stream of [false, true]) expect(chatCompletionBody(request, stream).toString('utf8')).toBe(sdkBody(request, stream));
    // The next turn: the same message objects plus new ones, another (unfrozen) prompt and tool list.
    history.push({ role: 'user', content: 'next' });
    const next: ModelRequest = { ...request, system: [{ name: 'identity', text: 'other' }], tools: [], tail: undefined };
    expect(chatCompletionBody(next, true).toString('utf8')).toBe(sdkBody(next, true));
    // The session's next turns: its earlier messages (the same objects) and new ones, fewer, another model.
    const more: ModelRequest = { ...request, messages: [...history, { role: 'assistant', content: 'and more' }] };
    expect(chatCompletionBody(more, true).toString('utf8')).toBe(sdkBody(more, true));
    const fewer: ModelRequest = { ...request, messages: history.slice(0, 2), tail: undefined };
    expect(chatCompletionBody(fewer, false).toString('utf8')).toBe(sdkBody(fewer, false));
    const other: ModelRequest = { ...more, model: 'other' };
    expect(chatCompletionBody(other, false).toString('utf8')).toBe(sdkBody(other, false));
    // A message changed since it was serialised is serialised again.
    expect(chatCompletionBody(request, false).toString('utf8')).toBe(sdkBody(request, false));
    history[1] = { ...history[1], content: 'changed' };
    (history[3] as { content: string }).content = 'edited';
    expect(chatCompletionBody(request, false).toString('utf8')).toBe(sdkBody(request, false));
    (history[2] as { content: string }).content = 'tool result edited';
    expect(chatCompletionBody(request, true).toString('utf8')).toBe(sdkBody(request, true));
  });

  it('equals the SDK body over a long session: turns as the history gives them back, a compression, an edit far back', () => {
    const system = Object.freeze([Object.freeze({ name: 'identity', text: 'You are a long-running assistant.' })]);
    const request = (messages: ChatMessage[]): ModelRequest => ({ model: 'm', system: system as never, messages, tools: tools as never, maxOutputTokens: 50 });
    let history: ChatMessage[] = [];
    for (let turn = 0; turn < 60; turn++) {
      // The turn's request: the stored history and the new user message.
      const asked: ChatMessage[] = [...history, { role: 'user', content: `question ${turn} “é”` }];
      expect(chatCompletionBody(request(asked), turn % 2 === 0).toString('utf8')).toBe(sdkBody(request(asked), turn % 2 === 0));
      // The history gives the user message back as another object, with the answer after it.
      history = [...history, { role: 'user', content: `question ${turn} “é”` }, { role: 'assistant', content: `answer ${turn}` }];
    }
    // Compression: the oldest turns become one summary message; the rest are the same objects.
    history = [{ role: 'user', content: 'Summary of earlier turns' }, ...history.slice(40)];
    expect(chatCompletionBody(request(history), true).toString('utf8')).toBe(sdkBody(request(history), true));
    history = [...history, { role: 'user', content: 'after the summary' }];
    expect(chatCompletionBody(request(history), false).toString('utf8')).toBe(sdkBody(request(history), false));
    // A message far back changed in place.
    (history[3] as { content: string }).content = 'edited long ago';
    expect(chatCompletionBody(request(history), true).toString('utf8')).toBe(sdkBody(request(history), true));
  });

  it('equals the SDK body when the history is read again as other objects: equal ones, and ones that differ only beside their content', () => {
    const system = Object.freeze([Object.freeze({ name: 'identity', text: 'You are a long-running assistant.' })]);
    const request = (messages: ChatMessage[]): ModelRequest => ({ model: 'm', system: system as never, messages, tools: tools as never, maxOutputTokens: 50 });
    const history: ChatMessage[] = [];
    for (let turn = 0; turn < 30; turn++) {
      history.push({ role: 'user', content: `question ${turn}` });
      if (turn % 5 === 0) {
        history.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${turn}`, name: 'memory', arguments: '{"action":"add"}' }] });
        history.push({ role: 'tool', toolCallId: `c${turn}`, name: 'memory', content: 'ok' });
      }
      history.push({ role: 'assistant', content: `answer ${turn}` });
      expect(chatCompletionBody(request(history), true).toString('utf8')).toBe(sdkBody(request(history), true));
    }
    // Evicted from the store's cache and read again: every message another object, equal to the last.
    const reread = structuredClone(history);
    expect(chatCompletionBody(request(reread), false).toString('utf8')).toBe(sdkBody(request(reread), false));
    // Read again with a message that differs only in what it holds besides its content.
    const variants: Array<(h: ChatMessage[]) => void> = [
      (h) => (h[1] = { role: 'assistant', content: '', toolCalls: [{ id: 'c0', name: 'memory', arguments: '{"action":"remove"}' }] }),
      (h) => (h[2] = { role: 'tool', toolCallId: 'c0', name: 'search', content: 'ok' }),
      (h) => (h[2] = { role: 'tool', toolCallId: 'other', name: 'memory', content: 'ok' }),
      (h) => (h[3] = { role: 'user', content: 'answer 0' }),
      (h) => (h[1] = { role: 'assistant', content: '' }),
    ];
    for (const change of variants) {
      const copy = structuredClone(reread);
      change(copy);
      expect(chatCompletionBody(request(copy), true).toString('utf8')).toBe(sdkBody(request(copy), true));
    }
    expect(chatCompletionBody(request(reread), true).toString('utf8')).toBe(sdkBody(request(reread), true));
  });

  it('keeps the pieces of sessions within its bound in bytes, and a session whose pieces went still gets its body whole', () => {
    const cache = new PiecesCache(64 * 1024);
    const sessions = Array.from({ length: 40 }, (_, i) => ({
      system: Object.freeze([Object.freeze({ name: 'identity', text: `You are assistant ${i}.` })]),
      history: [] as ChatMessage[],
    }));
    for (let turn = 0; turn < 25; turn++) {
      for (const s of sessions) {
        s.history.push({ role: 'user', content: `question ${turn}: ${'x'.repeat(60)}` });
        const request: ModelRequest = { model: 'm', system: s.system as never, messages: s.history, tools: tools as never, maxOutputTokens: 50 };
        expect(chatCompletionBody(request, true, cache).toString('utf8')).toBe(sdkBody(request, true));
        expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
        s.history.push({ role: 'assistant', content: `answer ${turn}` });
      }
    }
    // 40 sessions of 25 turns hold more than the bound: it was reached and kept.
    expect(cache.bytes).toBeGreaterThan(cache.maxBytes / 2);
  });
});
