import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  Tool as AnthropicTool,
  CacheControlEphemeral,
  MessageCreateParamsNonStreaming,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { ChatMessage, MessageMedia, ToolCall, Usage } from '../messages.js';
import { imagePlaceholder, type MediaData } from '../media/parts.js';
import type { ModelRequest, ModelResponse, Provider, PromptLayer } from './provider.js';
import { toModelError } from './errors.js';

export interface AnthropicProviderOptions {
  apiKey: string;
  baseURL?: string;
  timeoutMs: number;
  maxRetries: number;
  cacheTtl: '5m' | '1h';
}

/** The layer after which the first breakpoint goes: everything up to here is shared by every session of a platform. */
const PLATFORM_SHARED_UNTIL = 'platform_hint';

/**
 * System prompt as text blocks whose concatenation is exactly the cached prompt: one block for the
 * platform-shared prefix (layers 1–6), one for the per-user rest, each ending in a breakpoint.
 */
export function toAnthropicSystem(layers: PromptLayer[], cache: CacheControlEphemeral): TextBlockParam[] {
  const cut = layers.findIndex((l) => l.name === PLATFORM_SHARED_UNTIL);
  const head = (cut >= 0 ? layers.slice(0, cut + 1) : layers).map((l) => l.text).join('');
  const rest = (cut >= 0 ? layers.slice(cut + 1) : []).map((l) => l.text).join('');
  const blocks: TextBlockParam[] = [];
  if (head) blocks.push({ type: 'text', text: head, cache_control: cache });
  if (rest) blocks.push({ type: 'text', text: rest, cache_control: cache });
  return blocks;
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * History in Messages shape: tool results ride in user turns; consecutive same-role turns merge
 * (the API wants alternation). The ephemeral tail is an extra text block in the final user turn; the
 * last two messages carry cache breakpoints (on the block before the tail).
 */
export function toAnthropicMessages(messages: ChatMessage[], tail: string | undefined, cache: CacheControlEphemeral, media?: MediaData): MessageParam[] {
  const out: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: [...blocks] });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', m.media?.length ? userBlocks(m.content, m.media, media) : [{ type: 'text', text: m.content || ' ' }]);
    else if (m.role === 'tool') push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }]);
    else {
      const blocks: ContentBlockParam[] = [];
      if (m.content) blocks.push({ type: 'text', text: m.content });
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: parseArgs(c.arguments) });
      push('assistant', blocks.length ? blocks : [{ type: 'text', text: ' ' }]);
    }
  }
  // Breakpoints on the last two messages (before any tail block).
  for (const msg of out.slice(-2)) {
    const block = msg.content[msg.content.length - 1] as ContentBlockParam & { cache_control?: CacheControlEphemeral };
    if (block.type !== 'thinking' && block.type !== 'redacted_thinking') block.cache_control = cache;
  }
  if (tail) {
    const last = out[out.length - 1];
    if (last && last.role === 'user') last.content.push({ type: 'text', text: tail });
    else out.push({ role: 'user', content: [{ type: 'text', text: tail }] });
  }
  return out;
}

type ImageMime = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
const IMAGE_MIMES: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** A user message with images (ARCHITECTURE.md §15): each as a base64 `image` block, then the text (or lines naming them). */
function userBlocks(text: string, images: readonly MessageMedia[], media: MediaData | undefined): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  const lines: string[] = [];
  for (const image of images) {
    const data = media?.get(image.id);
    if (data && IMAGE_MIMES.includes(image.mime)) blocks.push({ type: 'image', source: { type: 'base64', media_type: image.mime as ImageMime, data } });
    else lines.push(imagePlaceholder(image));
  }
  blocks.push({ type: 'text', text: [text, ...lines].filter(Boolean).join('\n') || ' ' });
  return blocks;
}

/** Usage with the cache figures: input counts what was read from and written to the cache too. */
function toUsage(u: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number | null; cache_creation_input_tokens?: number | null }): Usage {
  const read = u.cache_read_input_tokens ?? 0;
  const write = u.cache_creation_input_tokens ?? 0;
  return { inputTokens: u.input_tokens + read + write, outputTokens: u.output_tokens, cachedTokens: read, cacheWriteTokens: write };
}

/**
 * The same request with `stream: true`: text deltas go to `onText` as they come; tool inputs are
 * assembled from their JSON pieces; usage comes from message_start (input, cache) and message_delta
 * (output). The result is what the non-streamed call would have returned.
 */
async function streamed(
  client: Anthropic,
  body: MessageCreateParamsNonStreaming,
  onText: (delta: string) => void,
  signal: AbortSignal | undefined,
): Promise<ModelResponse> {
  const stream = await client.messages.create({ ...body, stream: true }, { signal });
  let text = '';
  let stopReason = 'end_turn';
  let usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0 as number | null, cache_creation_input_tokens: 0 as number | null };
  const blocks: Array<{ kind: 'text' } | { kind: 'tool'; id: string; name: string; json: string }> = [];
  for await (const event of stream) {
    if (event.type === 'message_start') {
      const u = event.message.usage;
      usage = { input_tokens: u.input_tokens, output_tokens: u.output_tokens, cache_read_input_tokens: u.cache_read_input_tokens, cache_creation_input_tokens: u.cache_creation_input_tokens };
    } else if (event.type === 'content_block_start') {
      const b = event.content_block;
      blocks[event.index] = b.type === 'tool_use' ? { kind: 'tool', id: b.id, name: b.name, json: '' } : { kind: 'text' };
      if (b.type === 'text' && b.text) {
        text += b.text;
        onText(b.text);
      }
    } else if (event.type === 'content_block_delta') {
      const d = event.delta;
      if (d.type === 'text_delta') {
        text += d.text;
        onText(d.text);
      } else if (d.type === 'input_json_delta') {
        const b = blocks[event.index];
        if (b?.kind === 'tool') b.json += d.partial_json;
      }
    } else if (event.type === 'message_delta') {
      if (event.delta.stop_reason) stopReason = event.delta.stop_reason;
      usage.output_tokens = event.usage.output_tokens;
      if (event.usage.cache_read_input_tokens != null) usage.cache_read_input_tokens = event.usage.cache_read_input_tokens;
      if (event.usage.cache_creation_input_tokens != null) usage.cache_creation_input_tokens = event.usage.cache_creation_input_tokens;
      if (event.usage.input_tokens != null) usage.input_tokens = event.usage.input_tokens;
    }
  }
  const toolCalls: ToolCall[] = blocks
    .filter((b): b is Extract<(typeof blocks)[number], { kind: 'tool' }> => b?.kind === 'tool')
    .map((b) => ({ id: b.id, name: b.name, arguments: JSON.stringify(parseArgs(b.json)) }));
  return { text, toolCalls, stopReason, usage: toUsage(usage) };
}

/** Anthropic Messages with four cache breakpoints (ARCHITECTURE.md §5); none on the tool list. */
export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
  });
  const cache: CacheControlEphemeral = { type: 'ephemeral', ttl: options.cacheTtl };
  return {
    name: 'anthropic',
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const tools: AnthropicTool[] = request.tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters as AnthropicTool['input_schema'],
      }));
      const body: MessageCreateParamsNonStreaming = {
        model: request.model,
        max_tokens: request.maxOutputTokens,
        system: toAnthropicSystem(request.system, cache),
        messages: toAnthropicMessages(request.messages, request.tail, cache, request.media),
        ...(tools.length ? { tools } : {}),
      };
      try {
        if (request.onText) return await streamed(client, body, request.onText, request.signal);
        const message = await client.messages.create(body, { signal: request.signal });
        let text = '';
        const toolCalls: ToolCall[] = [];
        for (const block of message.content) {
          if (block.type === 'text') text += block.text;
          else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
        }
        return { text, toolCalls, stopReason: message.stop_reason ?? 'end_turn', usage: toUsage(message.usage) };
      } catch (error) {
        throw toModelError(error, options.baseURL ?? 'https://api.anthropic.com');
      }
    },
    async check(checkOptions?: { timeoutMs?: number }): Promise<string | null> {
      try {
        await client.models.list({}, { timeout: checkOptions?.timeoutMs ?? 5000, maxRetries: 0 });
        return null;
      } catch (error) {
        return toModelError(error, options.baseURL ?? 'https://api.anthropic.com').message;
      }
    },
  };
}
