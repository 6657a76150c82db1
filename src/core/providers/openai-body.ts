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

/** A message's bytes, with what they were made from: used again only while the message still holds exactly that. */
interface MessageBytes {
  role: ChatMessage['role'];
  content: string;
  extra: unknown;
  bytes: Buffer;
}

const messageBytes = new WeakMap<ChatMessage, MessageBytes>();
/** Only frozen arrays (of frozen layers or specs) are keyed: nobody can have changed them since. */
const frozenBytes = new WeakMap<readonly object[], Buffer>();

const extraOf = (m: ChatMessage): unknown => (m.role === 'assistant' ? m.toolCalls : m.role === 'tool' ? m.toolCallId + '\0' + m.name : undefined);

function messagePiece(m: ChatMessage): Buffer {
  const known = messageBytes.get(m);
  const extra = extraOf(m);
  if (known && known.role === m.role && known.content === m.content && known.extra === extra) return known.bytes;
  const b = bytes(toParam(m));
  messageBytes.set(m, { role: m.role, content: m.content, extra, bytes: b });
  return b;
}

function frozenPiece<T extends object>(list: readonly T[], make: (list: readonly T[]) => unknown): Buffer {
  if (!Object.isFrozen(list) || !list.every((x) => Object.isFrozen(x))) return bytes(make(list));
  let b = frozenBytes.get(list);
  if (!b) {
    b = bytes(make(list));
    frozenBytes.set(list, b);
  }
  return b;
}

const COMMA = Buffer.from(',');

/** The request body for `request`, streamed or not: equal to JSON.stringify of the SDK body object. */
export function chatCompletionBody(request: ModelRequest, stream: boolean): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"model":${JSON.stringify(request.model)},"messages":[`), frozenPiece(request.system, systemParam)];
  for (const m of request.messages) parts.push(COMMA, messagePiece(m));
  if (request.tail) parts.push(COMMA, bytes({ role: 'system', content: request.tail }));
  parts.push(Buffer.from(']'));
  if (request.tools.length) parts.push(Buffer.from(',"tools":'), frozenPiece(request.tools, toOpenAITools));
  let tail = request.maxOutputTokens === undefined ? '' : `,"max_tokens":${JSON.stringify(request.maxOutputTokens)}`;
  if (stream) tail += ',"stream":true,"stream_options":{"include_usage":true}';
  parts.push(Buffer.from(`${tail}}`));
  return Buffer.concat(parts);
}
