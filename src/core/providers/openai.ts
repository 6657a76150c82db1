import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ChatMessage, ToolCall } from '../messages.js';
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
      try {
        const completion = await client.chat.completions.create(
          {
            model: request.model,
            messages: toOpenAIMessages(request),
            ...(tools.length ? { tools } : {}),
            max_tokens: request.maxOutputTokens,
          },
          { signal: request.signal },
        );
        const choice = completion.choices?.[0];
        if (!choice) throw new Error('the model returned no choices');
        const toolCalls: ToolCall[] = (choice.message.tool_calls ?? [])
          .filter((c) => c.type === 'function')
          .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments ?? '{}' }));
        const usage = completion.usage;
        return {
          text: choice.message.content ?? '',
          toolCalls,
          stopReason: choice.finish_reason ?? 'stop',
          usage: {
            inputTokens: usage?.prompt_tokens ?? 0,
            outputTokens: usage?.completion_tokens ?? 0,
            cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
            cacheWriteTokens: 0,
          },
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
