import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ChatMessage, ToolCall, Usage } from '../messages.js';
import type { ModelRequest, ModelResponse, Provider } from './provider.js';
import { toModelError } from './errors.js';

export interface OpenAIProviderOptions {
  apiKey: string;
  baseURL?: string;
  timeoutMs: number;
  maxRetries: number;
}

/** Messages in Chat Completions shape. The system prompt is one leading system message, the tail a trailing one. */
export function toOpenAIMessages(request: Pick<ModelRequest, 'system' | 'messages' | 'tail'>): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: request.system.map((l) => l.text).join('') }];
  for (const m of request.messages) out.push(toParam(m));
  if (request.tail) out.push({ role: 'system', content: request.tail });
  return out;
}

function toParam(m: ChatMessage): ChatCompletionMessageParam {
  if (m.role === 'user') return { role: 'user', content: m.content };
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return { role: 'assistant', content: m.content };
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
async function streamed(
  client: OpenAI,
  body: ChatCompletionCreateParamsNonStreaming,
  onText: (delta: string) => void,
  signal: AbortSignal | undefined,
): Promise<ModelResponse> {
  const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal });
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
  });
  return {
    name: 'openai',
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const tools: ChatCompletionTool[] = request.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
      const body: ChatCompletionCreateParamsNonStreaming = {
        model: request.model,
        messages: toOpenAIMessages(request),
        ...(tools.length ? { tools } : {}),
        max_tokens: request.maxOutputTokens,
      };
      try {
        if (request.onText) return await streamed(client, body, request.onText, request.signal);
        const completion = await client.chat.completions.create(body, { signal: request.signal });
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
