/**
 * The Chat Completions request body as bytes, put together from pieces serialised once: the
 * system message of a session's (frozen, shared) prompt layers, each history message, and the tool
 * list. Every turn resends the whole conversation; serialising all of it again per request — then
 * copying the string once more to make it well-formed and again to encode it, as the SDK's default
 * path does — was the largest garbage a message made. The bytes are what JSON.stringify of the
 * same body object gives (same keys, same order), so the provider's prefix cache sees no change.
 */
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../messages.js';
import type { ModelRequest, PromptLayer, ToolSpec } from './provider.js';

/** Messages in Chat Completions shape. The system prompt is one leading system message, the tail a trailing one. */
export function toOpenAIMessages(request: Pick<ModelRequest, 'system' | 'messages' | 'tail'>): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [systemParam(request.system)];
  for (const m of request.messages) out.push(toParam(m));
  if (request.tail) out.push({ role: 'system', content: request.tail });
  return out;
}

const systemParam = (layers: readonly PromptLayer[]): ChatCompletionMessageParam => ({ role: 'system', content: layers.map((l) => l.text).join('') });

export function toParam(m: ChatMessage): ChatCompletionMessageParam {
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

export function toOpenAITools(tools: readonly ToolSpec[]): ChatCompletionTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

const bytes = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');

/**
 * The bytes of a session's last request up to and including its messages, with where each message's
 * bytes start and what each message held. The next request of the session reuses the bytes of the
 * messages it shares with it (the same objects, unchanged) and serialises only the rest. One buffer
 * per session — a view into the last body sent — rather than one per message.
 */
interface SessionBytes {
  model: string;
  body: Buffer;
  /** messages[i] of the last request, its content and extra then, and where its bytes start (after a comma). */
  messages: ChatMessage[];
  contents: string[];
  extras: unknown[];
  starts: number[];
  /** Where the bytes after the last message start. */
  end: number;
}

/** Keyed by the prompt layers: a session's, frozen and shared by its turns (src/store/sqlite/sessions.ts). */
const sessions = new WeakMap<readonly PromptLayer[], SessionBytes>();
/** Tool lists (frozen, one per set of tools: ToolRegistry.specs) as bytes. */
const toolBytes = new WeakMap<readonly ToolSpec[], Buffer>();

const extraOf = (m: ChatMessage): unknown => (m.role === 'assistant' ? m.toolCalls : m.role === 'tool' ? `${m.toolCallId}\0${m.name}` : undefined);

const frozen = (list: readonly object[]): boolean => Object.isFrozen(list) && list.every((x) => Object.isFrozen(x));

function toolsPiece(tools: readonly ToolSpec[]): Buffer {
  if (!frozen(tools)) return bytes(toOpenAITools(tools));
  let b = toolBytes.get(tools);
  if (!b) toolBytes.set(tools, (b = bytes(toOpenAITools(tools))));
  return b;
}

/** The request body for `request`, streamed or not: equal to JSON.stringify of the SDK body object. */
export function chatCompletionBody(request: ModelRequest, stream: boolean): Buffer {
  const cacheable = frozen(request.system);
  const last = cacheable ? sessions.get(request.system) : undefined;
  const { messages } = request;
  // How many leading messages the last request of this session had, unchanged.
  let shared = 0;
  if (last && last.model === request.model) {
    const max = Math.min(last.messages.length, messages.length);
    while (shared < max) {
      const m = messages[shared];
      if (m !== last.messages[shared] || m.content !== last.contents[shared] || extraOf(m) !== last.extras[shared]) break;
      shared++;
    }
  }
  const parts: Buffer[] = [];
  let head: Buffer;
  if (last && last.model === request.model) head = last.body.subarray(0, shared < last.messages.length ? last.starts[shared] : last.end);
  else head = Buffer.concat([Buffer.from(`{"model":${JSON.stringify(request.model)},"messages":[`), bytes(systemParam(request.system))]);
  parts.push(head);
  const starts = last && last.model === request.model ? last.starts.slice(0, shared) : [];
  let at = head.length;
  for (let i = shared; i < messages.length; i++) {
    const piece = Buffer.from(`,${JSON.stringify(toParam(messages[i]))}`, 'utf8');
    starts.push(at);
    at += piece.length;
    parts.push(piece);
  }
  const end = at;
  let rest = ']';
  if (request.tail) rest = `,${JSON.stringify({ role: 'system', content: request.tail })}]`;
  parts.push(Buffer.from(rest));
  if (request.tools.length) parts.push(Buffer.from(',"tools":'), toolsPiece(request.tools));
  let tail = request.maxOutputTokens === undefined ? '' : `,"max_tokens":${JSON.stringify(request.maxOutputTokens)}`;
  if (stream) tail += ',"stream":true,"stream_options":{"include_usage":true}';
  parts.push(Buffer.from(`${tail}}`));
  const body = Buffer.concat(parts);
  if (cacheable) {
    sessions.set(request.system, {
      model: request.model,
      body,
      messages: messages.slice(),
      contents: messages.map((m) => m.content),
      extras: messages.map(extraOf),
      starts,
      end,
    });
  }
  return body;
}
