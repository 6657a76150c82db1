/** Conversations in the store (ARCHITECTURE.md §7): sessions with their cached prompt, their messages, memory. */
import type { SessionAddress } from '../../platform/address.js';
import type { PlatformId } from '../../platform/ids.js';
import type { PromptLayer } from '../providers/provider.js';
import type { ChatMessage, MessageFile, MessageMedia, Usage } from '../messages.js';

// ── sessions ────────────────────────────────────────────────────────────────────────────────

export interface SessionRecord {
  id: string;
  /** Opaque key `platform:chat[:thread]:user` (or `cron:<job>`), for logs and leases. */
  key: string;
  address: SessionAddress;
  platform: PlatformId;
  personKey: string;
  startedAt: number;
  lastActiveAt: number;
  endedAt: number | null;
  endReason: string | null;
  /** The cached system prompt, byte for byte as sent. */
  prompt: string;
  promptSha256: string;
  promptLayers: PromptLayer[];
  toolsSignature: string;
  /** The model chosen when the session started (its chat's `model`); null = the global model. */
  model: string | null;
  promptRebuilds: number;
  requests: number;
  usage: Usage;
}

export interface NewSession {
  id: string;
  address: SessionAddress;
  personKey: string;
  startedAt: number;
  promptLayers: PromptLayer[];
  prompt: string;
  promptSha256: string;
  toolsSignature: string;
  /** The chat's own model (ARCHITECTURE.md §13), fixed for the session; absent = the global model. */
  model?: string;
}

export type PersonUsage = Usage & { requests: number; sessions: number };

export interface SessionRepo {
  findOpen(address: SessionAddress): Promise<SessionRecord | undefined>;
  /** Open sessions of one platform user in any chat, most recent first (`prompt` without --chat). */
  findOpenForUser(platform: PlatformId, userId: string): Promise<SessionRecord[]>;
  get(id: string): Promise<SessionRecord | undefined>;
  create(session: NewSession): Promise<SessionRecord>;
  end(id: string, reason: string, at: number): Promise<void>;
  /** Replaces the cached prompt (compression, tool change). Counted as a prefix-cache break. */
  replacePrompt(id: string, layers: PromptLayer[], prompt: string, sha256: string, toolsSignature: string): Promise<void>;
  recordTurn(id: string, at: number, usage: Usage, requests: number): Promise<void>;
  /** Usage spent outside turns (compression, search summaries), without touching last activity. */
  addUsage(id: string, usage: Usage, requests: number): Promise<void>;
  list(options?: { limit?: number; personKey?: string }): Promise<SessionRecord[]>;
  /** One page of every session, the most recently active first (the web console). */
  page(offset: number, limit: number): Promise<SessionRecord[]>;
  usageByPeople(): Promise<Array<PersonUsage & { personKey: string }>>;
  usageByPerson(personKey: string): Promise<PersonUsage>;
  count(): Promise<number>;
}

// ── messages ────────────────────────────────────────────────────────────────────────────────

export interface SearchHit {
  /** The matching message's row id. */
  messageId: number;
  sessionId: string;
  platform: string;
  sessionStartedAt: number;
  createdAt: number;
  role: string;
  snippet: string;
  rank: number;
}

export interface TranscriptLine {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  createdAt: number;
  /** A user message's images (ARCHITECTURE.md §15). */
  media?: readonly MessageMedia[];
  /** Its other files: a user's voice notes and documents, the files the agent sent with a reply. */
  files?: readonly MessageFile[];
}

/** Messages and model usage of one day (the web console's overview and chart). */
export interface DailyActivity {
  /** Days since the epoch, counted after shifting by the caller's `offsetMs` (its local day). */
  day: number;
  /** User and assistant messages stored that day. */
  messages: number;
  /** Model input tokens of the turns finished that day, and how many of them the prompt cache served. */
  inputTokens: number;
  cachedTokens: number;
}

/** Model usage of finished turns, per model the sessions ran on (null: the configured global model). */
export interface ModelUsage {
  model: string | null;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
}

export interface MessageRepo {
  /** The replayable history: the compression summary (if any), then the kept rows, oldest first; an array of the caller's own. */
  history(sessionId: string): Promise<ChatMessage[]>;
  /** Row ids with the history, for compression. */
  historyRows(sessionId: string): Promise<Array<{ id: number; message: ChatMessage }>>;
  append(sessionId: string, personKey: string, messages: readonly ChatMessage[], at: number, usage?: Usage): Promise<void>;
  /** Marks rows as compressed away (they stay searchable) and stores the summary replacing them. */
  compress(sessionId: string, rowIds: readonly number[], summary: string): Promise<void>;
  summary(sessionId: string): Promise<string | null>;
  /** User and assistant messages of a session, only when it belongs to `personKey`; all, or one page. */
  transcript(sessionId: string, personKey: string, page?: { offset: number; limit: number }): Promise<TranscriptLine[]>;
  count(sessionId: string): Promise<number>;
  /** Full-text search over one person's messages (never anyone else's). */
  search(personKey: string, query: string, options?: { excludeSessionId?: string; limit?: number }): Promise<SearchHit[]>;
  /** Operator search across everyone (`sessions search`). */
  searchAll(query: string, limit?: number): Promise<Array<SearchHit & { personKey: string }>>;
  /**
   * Per-day counts of messages created in [`since`, `until`) (epoch ms), days taken as
   * `floor((created_at + offsetMs) / 86 400 000)`; only days with messages are returned, oldest first.
   */
  daily(since: number, until: number, offsetMs: number): Promise<DailyActivity[]>;
  /** Usage of the turns finished since `since` (epoch ms): one person's, or that of one platform's sessions (cron). */
  usageSince(since: number, who: { personKey: string } | { platform: string }): Promise<ModelUsage[]>;
  /** Everyone's usage since `since`, per person and session model (the console's spending today). */
  usageByPeopleSince(since: number): Promise<Array<ModelUsage & { personKey: string }>>;
}

// ── memory ──────────────────────────────────────────────────────────────────────────────────

export type MemoryTarget = 'memory' | 'user';

/** A person's MEMORY.md / USER.md entries, uncut (files in $SWITCHBOARD_HOME/memories with SQLite). */
export interface MemoryRepo {
  read(personKey: string, target: MemoryTarget): Promise<string[]>;
  write(personKey: string, target: MemoryTarget, entries: readonly string[]): Promise<void>;
}
