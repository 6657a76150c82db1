/**
 * What both engines share: the rows as their tables hold them (the same columns on SQLite and
 * PostgreSQL) and how a row becomes the record core sees. Each engine keeps its own SQL.
 */
import type { PromptLayer } from '../core/providers/provider.js';
import type { ChatMessage, MessageFile, MessageMedia, ToolCall } from '../core/messages.js';
import type { DeliveryTarget, OutboundMessage } from '../core/types.js';
import type { CronJob, CronRunStatus } from '../core/cron/types.js';
import type { OutboxItem, OutboxStatus, SessionRecord, TranscriptLine } from '../core/store/types.js';
import type { DeliverablePlatform, PlatformId } from '../platform/ids.js';
import type { DeliverableAddress, SessionAddress } from '../platform/address.js';

/** A sessions row without its prompt columns (the big ones, read only when not cached). */
export interface SessionRowBase {
  [column: string]: unknown;
  id: string;
  key: string;
  platform: string;
  person_key: string;
  chat_id: string;
  thread_id: string | null;
  user_id: string;
  started_at: number;
  last_active_at: number;
  ended_at: number | null;
  end_reason: string | null;
  prompt_sha256: string;
  tools_signature: string;
  model: string | null;
  prompt_rebuilds: number;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
}

export interface SessionRow extends SessionRowBase {
  prompt: string;
  prompt_layers: string;
}

/**
 * A session's layers with their texts as slices of its prompt. A prompt is its layers' texts end to
 * end (the prompt builder's contract), and V8 keeps a slice of a string as a reference into it, not
 * a copy: a session kept in memory then holds its prompt's text once rather than twice (about 4 KB
 * for a typical prompt, per session). `shared` is false, and the texts are the parsed ones, when the
 * layers do not add up to the prompt.
 */
export function layersOfPrompt(prompt: string, parsed: readonly PromptLayer[]): { layers: readonly PromptLayer[]; shared: boolean } {
  const layers: PromptLayer[] = [];
  let at = 0;
  for (const l of parsed) {
    if (!prompt.startsWith(l.text, at)) return { layers: parsed, shared: false };
    layers.push({ name: l.name, text: prompt.slice(at, (at += l.text.length)) });
  }
  return at === prompt.length ? { layers, shared: true } : { layers: parsed, shared: false };
}

/** A sessions row as both engines store it. */
export function sessionFromRow(r: SessionRow): SessionRecord {
  return sessionWithPrompt(r, r.prompt, JSON.parse(r.prompt_layers) as PromptLayer[]);
}

/** A sessions row read without its prompt columns, given the prompt and its parsed layers. */
export function sessionWithPrompt(r: SessionRowBase, prompt: string, promptLayers: PromptLayer[]): SessionRecord {
  const platform = r.platform as PlatformId;
  const address: SessionAddress = r.thread_id
    ? { platform, chatId: r.chat_id, threadId: r.thread_id, userId: r.user_id }
    : { platform, chatId: r.chat_id, userId: r.user_id };
  return {
    id: r.id,
    key: r.key,
    address,
    platform,
    personKey: r.person_key,
    startedAt: r.started_at,
    lastActiveAt: r.last_active_at,
    endedAt: r.ended_at,
    endReason: r.end_reason,
    prompt,
    promptSha256: r.prompt_sha256,
    promptLayers,
    toolsSignature: r.tools_signature,
    model: r.model,
    promptRebuilds: r.prompt_rebuilds,
    requests: r.requests,
    usage: {
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
      cachedTokens: r.cached_tokens,
      cacheWriteTokens: r.cache_write_tokens,
    },
  };
}

export interface OutboxRow {
  [column: string]: unknown;
  id: number;
  session_key: string | null;
  platform: PlatformId;
  chat_id: string;
  thread_id: string | null;
  /** The target's delivery details beyond its address (reply-to, ephemeral, platform extras), as JSON. */
  target: string;
  message: string;
  next_chunk: number;
  attempts: number;
  last_error: string | null;
  status: OutboxStatus;
  created_at: number;
  next_attempt_at: number;
}

export function outboxFromRow(r: OutboxRow): OutboxItem {
  const details = JSON.parse(r.target) as Omit<DeliveryTarget, 'platform' | 'chatId' | 'threadId'>;
  const target: DeliveryTarget = { ...details, platform: r.platform, chatId: r.chat_id, ...(r.thread_id ? { threadId: r.thread_id } : {}) };
  return {
    id: r.id,
    sessionKey: r.session_key,
    target,
    message: JSON.parse(r.message) as OutboundMessage,
    nextChunk: r.next_chunk,
    attempts: r.attempts,
    lastError: r.last_error,
    status: r.status,
    createdAt: r.created_at,
    nextAttemptAt: r.next_attempt_at,
  };
}

/** A reply just written and taken for delivery by its writer (enqueueTaken, a turn's commit): a new row, as read back. */
export function takenOutboxItem(id: number, sessionKey: string | null, target: DeliveryTarget, message: OutboundMessage, createdAt: number, nextAttemptAt: number): OutboxItem {
  return { id, sessionKey, target, message, nextChunk: 0, attempts: 0, lastError: null, status: 'pending', createdAt, nextAttemptAt };
}

/** A job's row: the job's own columns as the job has them, the rest in the tables' snake case. */
export interface CronJobRow extends Pick<CronJob, 'id' | 'source' | 'owner' | 'schedule' | 'timezone' | 'prompt'> {
  [column: string]: unknown;
  deliver_platform: DeliverablePlatform;
  deliver_chat: string;
  deliver_thread: string | null;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  paused: number | boolean;
  created_at: number;
  last_slot: number | null;
  last_run_at: number | null;
  last_status: CronRunStatus | null;
  last_result: string | null;
}

export function cronJobFromRow(r: CronJobRow): CronJob {
  return {
    id: r.id,
    source: r.source,
    owner: r.owner,
    schedule: r.schedule,
    timezone: r.timezone,
    prompt: r.prompt,
    deliver: r.deliver_thread
      ? { platform: r.deliver_platform, chatId: r.deliver_chat, threadId: r.deliver_thread }
      : { platform: r.deliver_platform, chatId: r.deliver_chat },
    paused: r.paused === 1 || r.paused === true,
    createdAt: r.created_at,
    lastSlot: r.last_slot,
    lastRunAt: r.last_run_at,
    lastStatus: r.last_status,
    lastResult: r.last_result,
  };
}

/** The columns a delivery address is stored in. */
export function deliverColumns(a: DeliverableAddress): [string, string, string | null] {
  return [a.platform, a.chatId, a.threadId ?? null];
}

export interface MessageRow {
  [column: string]: unknown;
  id: number;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  /** A user message's images (JSON MessageMedia[]), or null. */
  media?: string | null;
}

export function toChat(r: MessageRow): ChatMessage {
  if (r.role === 'tool') return { role: 'tool', toolCallId: r.tool_call_id ?? '', name: r.tool_name ?? '', content: r.content };
  const { media, files } = mediaOf(r.media);
  if (r.role === 'assistant') {
    const calls = r.tool_calls ? (JSON.parse(r.tool_calls) as ToolCall[]) : undefined;
    const m: ChatMessage = calls && calls.length ? { role: 'assistant', content: r.content, toolCalls: calls } : { role: 'assistant', content: r.content };
    return files.length ? { ...m, files } : m;
  }
  const m: ChatMessage = media.length ? { role: 'user', content: r.content, media } : { role: 'user', content: r.content };
  return files.length ? { ...m, files } : m;
}

/**
 * The `media` column read back: one JSON array of a message's images (MessageMedia, shown to the model)
 * and its other files (MessageFile, told apart by their `kind`), ARCHITECTURE.md §15.
 */
export function mediaOf(column: string | null | undefined): { media: MessageMedia[]; files: MessageFile[] } {
  const all = column ? (JSON.parse(column) as Array<MessageMedia | MessageFile>) : [];
  const media: MessageMedia[] = [];
  const files: MessageFile[] = [];
  for (const x of all) {
    if ('kind' in x) files.push(x);
    else media.push(x);
  }
  return { media, files };
}

/** A transcript row (ARCHITECTURE.md §12) with its attachments (§15). */
export function transcriptLine(r: { id: number; role: 'user' | 'assistant'; content: string; createdAt: number; media: string | null }): TranscriptLine {
  const line: TranscriptLine = { id: Number(r.id), role: r.role, content: r.content, createdAt: Number(r.createdAt) };
  if (!r.media) return line;
  const { media, files } = mediaOf(r.media);
  return { ...line, ...(media.length ? { media } : {}), ...(files.length ? { files } : {}) };
}

/** The `media` column of a message: a user message's images and a user or assistant message's files as JSON, else null. */
export function mediaColumn(m: ChatMessage): string | null {
  if (m.role === 'tool') return null;
  const all = [...(m.role === 'user' ? (m.media ?? []) : []), ...(m.files ?? [])];
  return all.length ? JSON.stringify(all) : null;
}

/** Pairing codes (ARCHITECTURE.md §4): 8 characters from an alphabet without 0/O and 1/I. */
export const PAIRING = {
  alphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789',
  codeTtlMs: 60 * 60_000,
  requestEveryMs: 10 * 60_000,
  maxPendingPerPlatform: 3,
} as const;
