import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ToolCall, Usage } from '../messages.js';
import type { ModelRequest, ModelResponse, Provider } from './provider.js';
import { toModelError } from './errors.js';
import { chatCompletionBody } from './openai-body.js';
import { OpenAIClient } from './openai-http.js';

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

/**
 * The same request with `stream: true` (and usage in the last chunk): text deltas go to `onText` as
 * they come; tool calls are assembled from their indexed pieces; the result is what the
 * non-streamed call would have returned.
 */
async function streamed(client: OpenAIClient, request: ModelRequest, onText: (delta: string) => void): Promise<ModelResponse> {
  let text = '';
  let stopReason = 'stop';
  let usage: CompletionUsage | undefined;
  let sawChoice = false;
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  const onChunk = (chunk: ChatCompletionChunk) => {
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
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
  };
  await client.postStream('chat/completions', chatCompletionBody(request, true), (data) => onChunk(data as ChatCompletionChunk), request.signal);
  if (!sawChoice) throw new Error('the model returned no choices');
  const toolCalls: ToolCall[] = calls.filter(Boolean).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments || '{}' }));
  return { text, toolCalls, stopReason, usage: toUsage(usage) };
}

/**
 * OpenAI-compatible Chat Completions (OpenAI, Ollama, vLLM, llama.cpp, OpenRouter), over
 * openai-http.ts: retries 408/409/429/5xx with backoff, honouring retry-after. The SDK's types
 * describe the answers.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): Provider {
  const baseURL = options.baseURL ?? 'https://api.openai.com/v1';
  const client = new OpenAIClient({ apiKey: options.apiKey, baseURL, timeoutMs: options.timeoutMs, maxRetries: options.maxRetries });
  return {
    name: 'openai',
    async complete(request: ModelRequest): Promise<ModelResponse> {
      try {
        if (request.onText) return await streamed(client, request, request.onText);
        // POST /chat/completions as chat.completions.create sends it, the body pre-serialised (openai-body.ts).
        const completion = await client.postJson<ChatCompletion>('chat/completions', chatCompletionBody(request, false), request.signal);
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
        throw toModelError(error, baseURL);
      }
    },
    async check(checkOptions?: { timeoutMs?: number }): Promise<string | null> {
      try {
        await client.getJson('models', { timeoutMs: checkOptions?.timeoutMs ?? 5000, maxRetries: 0 });
        return null;
      } catch (error) {
        return toModelError(error, baseURL).message;
      }
    },
  };
}
