/**
 * The Chat Completions request body as bytes, put together from pieces serialised once: the
 * system message of a session's (frozen, shared) prompt layers, each history message, and the tool
 * list. Every turn resends the whole conversation; serialising all of it again per request — then
 * copying the string once more to make it well-formed and again to encode it, as the SDK's default
 * path does — was the largest garbage a message made. The bytes are what JSON.stringify of the
 * same body object gives (same keys, same order), so the provider's prefix cache sees no change.
 */
import { LRUCache } from 'lru-cache';
import type { ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ChatMessage, MessageMedia } from '../messages.js';
import { dataUrl, imagePlaceholder, type MediaData } from '../media/parts.js';
import type { ModelRequest, PromptLayer, ToolSpec } from './provider.js';

/** Messages in Chat Completions shape. The system prompt is one leading system message, the tail a trailing one. */
export function toOpenAIMessages(request: Pick<ModelRequest, 'system' | 'messages' | 'tail' | 'media'>): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [systemParam(request.system)];
  for (const m of request.messages) out.push(toParam(m, request.media));
  if (request.tail) out.push({ role: 'system', content: request.tail });
  return out;
}

const systemParam = (layers: readonly PromptLayer[]): ChatCompletionMessageParam => ({ role: 'system', content: layers.map((l) => l.text).join('') });

export function toParam(m: ChatMessage, media?: MediaData): ChatCompletionMessageParam {
  if (m.role === 'user') return m.media?.length ? { role: 'user', content: userParts(m.content, m.media, media) } : { role: 'user', content: m.content };
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

/** A user message with images: its text, then each image as an `image_url` data URL (or the line naming it). */
function userParts(text: string, images: readonly MessageMedia[], media: MediaData | undefined): ChatCompletionContentPart[] {
  const parts: ChatCompletionContentPart[] = [];
  const lines: string[] = [];
  for (const image of images) {
    const data = media?.get(image.id);
    if (data) parts.push({ type: 'image_url', image_url: { url: dataUrl(image, data) } });
    else lines.push(imagePlaceholder(image));
  }
  const all = [text, ...lines].filter(Boolean).join('\n');
  return [{ type: 'text', text: all || ' ' }, ...parts];
}

export function toOpenAITools(tools: readonly ToolSpec[]): ChatCompletionTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

const bytes = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');

/**
 * What a session's last request was made of: the head (model and system message) and each
 * message's piece (`,` + its JSON), with their UTF-8 lengths, and what each message held then. The
 * next request of the session reuses the pieces of the messages it shares with it (unchanged: the
 * same objects, or equal ones when the history was read again) and serialises only the rest. These
 * pieces rather than the last body: a body is then garbage as soon as its request is done, instead
 * of living on until the session's next turn — long enough to be promoted, so the bodies of all
 * turns piled up until the next full collection.
 *
 * The pieces a later request shared are folded into `prefix`, the UTF-8 bytes of the head and pieces
 * [0, folded), so a body is copied from it in one call rather than written piece by piece — hundreds
 * in a long session, most of what a request cost to put together. Bytes, in a buffer that grows by
 * doubling, rather than one string grown by `+=`: writing such a string flattens it, a fresh copy of
 * the whole history each turn, kept with the string until the next turn and so promoted — the
 * largest part of what a message left in old space. The last turn's own messages stay separate
 * pieces until a request shows they are shared (a turn's user message comes back from the history
 * as another object, so it is serialised once more).
 */
interface SessionPieces {
  model: string;
  /** Whether the pieces show images as image parts (a request without the bytes, after a model refused them, does not). */
  images: boolean;
  /** The head and the pieces of messages [0, folded), UTF-8, in prefix[0, prefixBytes); the rest is room to grow. */
  prefix: Buffer;
  prefixBytes: number;
  folded: number;
  /**
   * messages[i] of the last request, its content and extra then, and what it held besides its content
   * (keyOf, for a message read again as another object); its piece and the piece's UTF-8 length for i ≥ folded.
   */
  messages: ChatMessage[];
  contents: string[];
  extras: unknown[];
  keys: string[];
  pieces: string[];
  pieceBytes: number[];
}

/**
 * Sessions' pieces by their prompt layers (a session's, frozen and shared by its turns:
 * src/store/sqlite/sessions.ts), least recently used first, bounded by the bytes they hold: their
 * prefix buffers, their pieces not yet folded, and about 40 bytes a message for the arrays. (A
 * WeakMap on the layers kept them as long as the session's prompt stayed cached: a bound in
 * sessions, not in bytes, so a few hundred long sessions could hold a few hundred MB.) A session
 * whose pieces went is serialised whole on its next turn, and kept again.
 */
export class PiecesCache {
  private readonly lru: LRUCache<readonly PromptLayer[], SessionPieces>;

  constructor(readonly maxBytes = 16 * 1024 * 1024) {
    this.lru = new LRUCache({ maxSize: maxBytes });
  }

  /** What the kept pieces hold, in bytes. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get(layers: readonly PromptLayer[]): SessionPieces | undefined {
    return this.lru.get(layers);
  }

  /**
   * Keeps `pieces`, which hold `size` bytes now; the least recently used go while over the bound,
   * and pieces bigger than all of it are not kept. Taken out first: a session's pieces grow in
   * place, and the cache counts an entry's size again only when it is set anew.
   */
  keep(layers: readonly PromptLayer[], pieces: SessionPieces, size: number): void {
    this.lru.delete(layers);
    this.lru.set(layers, pieces, { size });
  }
}

const sessions = new PiecesCache();
/** Tool lists (frozen, one per set of tools: ToolRegistry.specs) as bytes. */
const toolBytes = new WeakMap<readonly ToolSpec[], Buffer>();

const extraOf = (m: ChatMessage): unknown => (m.role === 'assistant' ? m.toolCalls : m.role === 'tool' ? `${m.toolCallId}\0${m.name}` : m.media);

/** Everything of a message but its content, as text: equal for two objects that serialise alike. */
const keyOf = (m: ChatMessage): string =>
  m.role === 'assistant' ? `assistant\0${m.toolCalls?.length ? JSON.stringify(m.toolCalls) : ''}` : m.role === 'tool' ? `tool\0${m.toolCallId}\0${m.name}` : `user\0${m.media?.map((x) => x.id).join(',') ?? ''}`;

/**
 * Whether messages[i] of this request is the one the last request had there: the same object
 * unchanged (the usual case: the history came from the store's cache), or another object holding
 * the same (the history was read again — evicted from that cache, or changed by another process).
 * A match by value takes the new object, so the next request matches it by identity.
 */
function sameAsLast(last: SessionPieces, i: number, m: ChatMessage): boolean {
  if (m.content !== last.contents[i]) return false;
  if (m === last.messages[i] && extraOf(m) === last.extras[i]) return true;
  if (keyOf(m) !== last.keys[i]) return false;
  last.messages[i] = m;
  last.extras[i] = extraOf(m);
  return true;
}

const frozen = (list: readonly object[]): boolean => Object.isFrozen(list) && list.every((x) => Object.isFrozen(x));

function toolsPiece(tools: readonly ToolSpec[]): Buffer {
  if (!frozen(tools)) return bytes(toOpenAITools(tools));
  let b = toolBytes.get(tools);
  if (!b) toolBytes.set(tools, (b = bytes(toOpenAITools(tools))));
  return b;
}

const headOf = (request: ModelRequest): string => `{"model":${JSON.stringify(request.model)},"messages":[${JSON.stringify(systemParam(request.system))}`;

const pieceOf = (m: ChatMessage, media?: MediaData): string => `,${JSON.stringify(toParam(m, media))}`;

const EMPTY = Buffer.alloc(0);

/**
 * Appends `text` (`byteLength` UTF-8 bytes) to the session's prefix, growing its buffer to twice
 * what it needs when full. Its own allocation (not a slice of Node's shared pool, which a buffer
 * kept for the session's life would pin), and the old one left as garbage.
 */
function appendToPrefix(last: SessionPieces, text: string, byteLength = Buffer.byteLength(text)): void {
  const need = last.prefixBytes + byteLength;
  if (need > last.prefix.length) {
    const grown = Buffer.allocUnsafeSlow(Math.max(need * 2, 1024));
    last.prefix.copy(grown, 0, 0, last.prefixBytes);
    last.prefix = grown;
  }
  last.prefixBytes += last.prefix.write(text, last.prefixBytes);
}

/** The request body for `request`, streamed or not: equal to JSON.stringify of the SDK body object. */
export function chatCompletionBody(request: ModelRequest, stream: boolean, cache: PiecesCache = sessions): Buffer {
  const { messages } = request;
  const cacheable = frozen(request.system);
  const images = (request.media?.size ?? 0) > 0;
  let last = cacheable ? cache.get(request.system) : undefined;
  if (last && (last.model !== request.model || last.images !== images)) last = undefined;
  if (!last) {
    last = { model: request.model, images, prefix: EMPTY, prefixBytes: 0, folded: 0, messages: [], contents: [], extras: [], keys: [], pieces: [], pieceBytes: [] };
    appendToPrefix(last, headOf(request));
  }
  // How many leading messages the last request of this session had, unchanged; the rest is serialised now.
  let shared = 0;
  const max = Math.min(last.messages.length, messages.length);
  while (shared < max && sameAsLast(last, shared, messages[shared])) shared++;
  if (shared < last.folded) {
    // A message already folded changed (compression, an edit): fold the shared ones again.
    last.prefixBytes = 0;
    appendToPrefix(last, headOf(request) + messages.slice(0, shared).map((m) => pieceOf(m, request.media)).join(''));
    last.folded = shared;
  } else if (shared > last.folded) {
    // The pieces this request shares with the last are folded into the prefix.
    const fold = shared - last.folded;
    for (let i = 0; i < fold; i++) appendToPrefix(last, last.pieces[i], last.pieceBytes[i]);
    last.folded = shared;
  }
  // Pieces of the last request's messages past the shared ones are serialised again below.
  last.pieces.length = 0;
  last.pieceBytes.length = 0;
  for (const list of [last.messages, last.contents, last.extras, last.keys]) list.length = shared;
  for (let i = shared; i < messages.length; i++) {
    const m = messages[i];
    const piece = pieceOf(m, request.media);
    last.messages.push(m);
    last.contents.push(m.content);
    last.extras.push(extraOf(m));
    last.keys.push(keyOf(m));
    last.pieces.push(piece);
    last.pieceBytes.push(Buffer.byteLength(piece));
  }
  let rest = ']';
  if (request.tail) rest = `,${JSON.stringify({ role: 'system', content: request.tail })}]`;
  const tools = request.tools.length ? toolsPiece(request.tools) : null;
  if (tools) rest += ',"tools":';
  let end = request.maxOutputTokens === undefined ? '' : `,"max_tokens":${JSON.stringify(request.maxOutputTokens)}`;
  if (stream) end += ',"stream":true,"stream_options":{"include_usage":true}';
  end += '}';
  let piecesBytes = 0;
  for (const n of last.pieceBytes) piecesBytes += n;
  const size = last.prefixBytes + piecesBytes + Buffer.byteLength(rest) + (tools?.length ?? 0) + Buffer.byteLength(end);
  const body = Buffer.allocUnsafe(size);
  let at = last.prefix.copy(body, 0, 0, last.prefixBytes);
  for (const piece of last.pieces) at += body.write(piece, at);
  at += body.write(rest, at);
  if (tools) at += tools.copy(body, at);
  at += body.write(end, at);
  if (at !== size) throw new Error(`request body: wrote ${at} of ${size} bytes`);
  if (cacheable) cache.keep(request.system, last, last.prefix.length + piecesBytes + 40 * last.messages.length);
  return body;
}
