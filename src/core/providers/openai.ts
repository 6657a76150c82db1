import OpenAI from 'openai';
import type { Stream } from 'openai/streaming';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ToolCall, Usage } from '../messages.js';
import type { ModelRequest, ModelResponse, Provider } from './provider.js';
import { toModelError } from './errors.js';
import { chatCompletionBody } from './openai-body.js';
import { httpFetch } from '../http-fetch.js';

export { toOpenAIMessages } from './openai-body.js';

export interface OpenAIProviderOptions {
  apiKey: string;
  baseURL?: string;
  timeoutMs: number;
  maxRetries: number;
}

function toUsage(usage: CompletionUsage | null | undefined): Usage {
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
  };
}

/** A body given as bytes is sent as it is: the SDK needs to be told its type. */
const JSON_BODY = { 'content-type': 'application/json' };

/**
 * The same request with `stream: true` (and usage in the last chunk): text deltas go to `onText` as
 * they come; tool calls are assembled from their indexed pieces; the result is what the
 * non-streamed call would have returned.
 */
async function streamed(client: OpenAI, request: ModelRequest, onText: (delta: string) => void): Promise<ModelResponse> {
  const stream = await client.post<Stream<ChatCompletionChunk>>('/chat/completions', {
    body: chatCompletionBody(request, true),
    headers: JSON_BODY,
    stream: true,
    signal: request.signal,
  });
  let text = '';
  let stopReason = 'stop';
  let usage: CompletionUsage | undefined;
  let sawChoice = false;
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for await (const chunk of stream) {
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    sawChoice = true;
    const delta = choice.delta;
    if (delta?.content) {
      text += delta.content;
      onText(delta.content);
    }
    for (const piece of delta?.tool_calls ?? []) {
      const call = (calls[piece.index] ??= { id: '', name: '', arguments: '' });
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.name += piece.function.name;
      if (piece.function?.arguments) call.arguments += piece.function.arguments;
    }
    if (choice.finish_reason) stopReason = choice.finish_reason;
  }
  if (!sawChoice) throw new Error('the model returned no choices');
  const toolCalls: ToolCall[] = calls.filter(Boolean).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments || '{}' }));
  return { text, toolCalls, stopReason, usage: toUsage(usage) };
}

/**
 * OpenAI-compatible Chat Completions (OpenAI, Ollama, vLLM, llama.cpp, OpenRouter). The SDK retries
 * 408/409/429/5xx with backoff and honours retry-after.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): Provider {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    fetch: httpFetch,
  });
  return {
    name: 'openai',
    async complete(request: ModelRequest): Promise<ModelResponse> {
      try {
        if (request.onText) return await streamed(client, request, request.onText);
        // POST /chat/completions as chat.completions.create sends it, the body pre-serialised (openai-body.ts).
        const completion = await client.post<ChatCompletion>('/chat/completions', {
          body: chatCompletionBody(request, false),
          headers: JSON_BODY,
          signal: request.signal,
        });
        const choice = completion.choices?.[0];
        if (!choice) throw new Error('the model returned no choices');
        const toolCalls: ToolCall[] = (choice.message.tool_calls ?? [])
          .filter((c) => c.type === 'function')
          .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments ?? '{}' }));
        return {
          text: choice.message.content ?? '',
          toolCalls,
          stopReason: choice.finish_reason ?? 'stop',
          usage: toUsage(completion.usage),
        };
      } catch (error) {
        throw toModelError(error, options.baseURL ?? 'https://api.openai.com/v1');
      }
    },
    async check(checkOptions?: { timeoutMs?: number }): Promise<string | null> {
      try {
        await client.models.list({ timeout: checkOptions?.timeoutMs ?? 5000, maxRetries: 0 });
        return null;
      } catch (error) {
        return toModelError(error, options.baseURL ?? 'https://api.openai.com/v1').message;
      }
    },
  };
}
