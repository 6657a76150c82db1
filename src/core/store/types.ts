/**
 * The storage interface (DESIGN §7, §9): one repository per concern, every method asynchronous, so
 * an engine with a network round trip (PostgreSQL) stands behind the same calls as the embedded
 * one (SQLite). The engines live outside core (src/store/<engine>/) and own their schema and
 * migrations; core sees only these types and never a database handle.
 */
import type { Address, DeliverableAddress, SessionAddress } from '../../platform/address.js';
import type { PlatformId } from '../../platform/ids.js';
import type { PromptLayer } from '../providers/provider.js';
import type { ChatMessage, Usage } from '../messages.js';
import type { DeliveryTarget, InboundMessage, OutboundMessage } from '../types.js';
import type { CronJob, CronRunStatus } from '../cron/types.js';
import type { CronJobConfig } from '../config.js';

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
  /** The chat's own model (DESIGN §13), fixed for the session; absent = the global model. */
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
}

// ── inbound journal ─────────────────────────────────────────────────────────────────────────

export type InboundStatus = 'pending' | 'done' | 'refused' | 'ignored' | 'failed';

export interface InboundRepo {
  /** Records the event; false if this (platform, update id) was seen before. */
  claim(message: InboundMessage, sessionKey: string | null): Promise<boolean>;
  /**
   * Settles a pending event. True when this call settled it; false when it was no longer pending
   * (another instance answered it first): inside a transaction, the caller rolls back its reply.
   */
  mark(platform: PlatformId, updateId: string, status: InboundStatus): Promise<boolean>;
  /** Pending events in arrival order (crash recovery, the gateway's sweep). */
  pending(platforms?: readonly PlatformId[]): Promise<InboundMessage[]>;
  /** One session's pending events in arrival order (the next turn's batch). */
  pendingFor(sessionKey: string): Promise<InboundMessage[]>;
}

// ── outbox ──────────────────────────────────────────────────────────────────────────────────

export type OutboxStatus = 'pending' | 'sent' | 'failed';

export interface OutboxItem {
  id: number;
  sessionKey: string | null;
  target: DeliveryTarget;
  message: OutboundMessage;
  nextChunk: number;
  attempts: number;
  lastError: string | null;
  status: OutboxStatus;
  createdAt: number;
  nextAttemptAt: number;
}

export interface OutboxRepo {
  /** Stores a reply made at `at`; its first attempt is not before `notBefore` (default `at`). */
  enqueue(target: DeliveryTarget, message: OutboundMessage, at: number, sessionKey?: string | null, notBefore?: number): Promise<number>;
  /**
   * Stores a reply due at once, as `enqueue` does, and when no other reply of its chat is pending
   * takes it in the same write, for `leaseMs` (what takeHead would do next, without its own commit);
   * `taken` is the item then, null when an earlier reply of the chat is still pending (it waits its
   * turn). A reply committed at the same time by another instance may not be seen: two such replies
   * to one chat may go in either order, as they could when both were taken by takeHead.
   */
  enqueueTaken(target: DeliveryTarget, message: OutboundMessage, at: number, sessionKey: string | null, leaseMs: number): Promise<{ id: number; taken: OutboxItem | null }>;
  get(id: number): Promise<OutboxItem | undefined>;
  /** The oldest pending item of each chat (replies to one chat go strictly in order). */
  heads(): Promise<OutboxItem[]>;
  pending(): Promise<OutboxItem[]>;
  /**
   * Takes one chat's oldest pending item for one attempt, in one statement: when it is due
   * (next attempt <= `now`), its next attempt moves `leaseMs` ahead, so another process on the same
   * database skips it meanwhile, and it is returned (with that new next attempt). Undefined when the
   * chat has nothing pending, its oldest item is not due, or another process just took it. Only the
   * oldest is ever taken: replies to one chat go strictly in order.
   */
  takeHead(chat: Address, now: number, leaseMs: number): Promise<OutboxItem | undefined>;
  /** Keeps a taken item until `until` while its send is still running. */
  extendLease(id: number, until: number): Promise<void>;
  /** Chunk `index` was accepted: a retry resumes after it. */
  chunkSent(id: number, index: number): Promise<void>;
  /**
   * The reply is out: sent at `at`, with all `chunks` of it confirmed (next chunk = `chunks`), in one
   * write — the last chunk's confirmation and the outcome together.
   */
  sent(id: number, at: number, chunks: number): Promise<void>;
  retryLater(id: number, error: string, nextAttemptAt: number): Promise<void>;
  /** A permanent failure: kept with its reason, for the operator. */
  failed(id: number, error: string): Promise<void>;
  counts(): Promise<Record<OutboxStatus, number>>;
  /** Parked replies (failed for good or out of attempts), newest first, one page. */
  parked(offset: number, limit: number): Promise<OutboxItem[]>;
  /** Puts a parked reply back in line with fresh attempts, due at `at`; false when it was not parked. */
  retry(id: number, at: number): Promise<boolean>;
}

// ── live streams ────────────────────────────────────────────────────────────────────────────

/**
 * Streamed replies (DESIGN §10): the platform ids of the messages a session's running turn streams
 * into. Saved as each message is posted; cleared in the transaction that stores the turn's reply.
 * A row still there at start belongs to a turn a crash cut short, whose message is answered again.
 */
export interface LiveStreamRepo {
  /** The message ids of the session's unfinished stream, oldest first; [] when none. */
  get(sessionKey: string): Promise<string[]>;
  save(sessionKey: string, messageIds: readonly string[], at: number): Promise<void>;
  clear(sessionKey: string): Promise<void>;
}

// ── cron ────────────────────────────────────────────────────────────────────────────────────

/** One row of the run log. `status` is 'running' until the run finishes. */
export interface CronRunRecord {
  id: number;
  jobId: string;
  slot: number;
  startedAt: number;
  finishedAt: number | null;
  status: CronRunStatus | 'running';
  detail: string | null;
}

/** Result of trying to claim a slot: ours to run, already claimed, or refused because the job still runs. */
export type ClaimOutcome = { kind: 'claimed'; runId: number } | { kind: 'taken' } | { kind: 'busy' };

export interface NewChatJob {
  id: string;
  owner: string;
  schedule: string;
  timezone: string | null;
  prompt: string;
  deliver: DeliverableAddress;
}

export interface CronRepo {
  list(): Promise<CronJob[]>;
  get(id: string): Promise<CronJob | undefined>;
  listByOwner(owner: string): Promise<CronJob[]>;
  /**
   * Makes the config rows match the config file (insert, update keeping history, delete); chat
   * jobs untouched except one whose id the config now claims (`replacedChatJobs`).
   */
  syncConfig(jobs: readonly CronJobConfig[], at: number): Promise<{ added: string[]; removed: string[]; replacedChatJobs: string[] }>;
  insertChatJob(job: NewChatJob, at: number): Promise<CronJob>;
  /**
   * Resuming moves the watermark to `at`, so slots passed while paused are not caught up. A pause
   * outlives `syncConfig` (the console's pause of a config job survives a restart); the config's
   * `enabled: false` still pauses a job whatever was set here.
   */
  setPaused(id: string, paused: boolean, at: number): Promise<void>;
  remove(id: string): Promise<boolean>;
  /** Claims a slot once across every scheduler on this database (the exactly-once guarantee). */
  claim(jobId: string, slot: number, at: number, busy: boolean): Promise<ClaimOutcome>;
  /** Records a missed slot not run (too late); true when this call recorded it. */
  skip(jobId: string, slot: number, at: number, detail: string): Promise<boolean>;
  /** Moves the watermark forward (never back). */
  advance(jobId: string, slot: number): Promise<void>;
  finish(runId: number, jobId: string, status: CronRunStatus, detail: string, at: number): Promise<void>;
  /** A run's report could not be delivered: the job's last result says so. */
  deliveryFailed(jobId: string, detail: string): Promise<void>;
  /**
   * Runs left 'running' by a process that stopped mid-run (started before `before`) are marked as
   * errors — except a run whose lease `cron-run:<id>` is still held at `at` (another instance is
   * running it).
   */
  closeInterrupted(before: number, at: number): Promise<number>;
  runs(jobId: string, limit?: number): Promise<CronRunRecord[]>;
}

// ── pairing ─────────────────────────────────────────────────────────────────────────────────

export type PairingRequest = { status: 'issued'; code: string } | { status: 'recent'; code: string } | { status: 'full' };

export interface PendingPairing {
  code: string;
  platform: PlatformId;
  userId: string;
  expiresAt: number;
}

/**
 * Pairing (DESIGN §4): an 8-character code valid 1 hour, at most 3 pending per platform, one
 * request per user per 10 minutes; approved with `switchboard pairing approve CODE`.
 */
export interface PairingRepo {
  isPaired(platform: PlatformId, userId: string): Promise<boolean>;
  request(platform: PlatformId, userId: string, chatId: string, now: number): Promise<PairingRequest>;
  /** Approves a pending, unexpired code: who was approved, or null. */
  approve(code: string, now: number): Promise<{ platform: PlatformId; userId: string } | null>;
  /** Refuses a pending code: true when there was one. */
  deny(code: string): Promise<boolean>;
  list(now: number): Promise<PendingPairing[]>;
}

// ── memory ──────────────────────────────────────────────────────────────────────────────────

export type MemoryTarget = 'memory' | 'user';

/** A person's MEMORY.md / USER.md entries, uncut (files in $SWITCHBOARD_HOME/memories with SQLite). */
export interface MemoryRepo {
  read(personKey: string, target: MemoryTarget): Promise<string[]>;
  write(personKey: string, target: MemoryTarget, entries: readonly string[]): Promise<void>;
}

// ── leases and instances (DESIGN §9) ───────────────────────────────────────────────────────

/** A named lease (`session:<key>`, `door:<platform>`): held by one instance until it expires. */
export interface Lease {
  name: string;
  holder: string;
  acquiredAt: number;
  expiresAt: number;
}

/**
 * Leases in the database: the way instances on one database agree who runs a session or polls a
 * door. Times are the caller's clock (epoch ms); instances keep their clocks in sync (NTP).
 */
export interface LeaseRepo {
  /**
   * Takes `name` for `holder` until `now + ttlMs` when it is free, expired, or already the
   * holder's own (then it is renewed). True when `holder` holds it afterwards.
   */
  acquire(name: string, holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** Renews every unexpired lease `holder` still holds; the names renewed (a lease missing was lost). */
  renewAll(holder: string, now: number, ttlMs: number): Promise<string[]>;
  /** Gives `name` up if `holder` holds it; true when it did. */
  release(name: string, holder: string): Promise<boolean>;
  /** Gives up every lease of `holder` (clean stop, or a dead instance's on SQLite). */
  releaseAll(holder: string): Promise<number>;
  get(name: string): Promise<Lease | undefined>;
  /** Removes leases that expired before `before` (left by instances that died); how many. */
  prune(before: number): Promise<number>;
  /** Every lease row (expired ones too), by name. */
  list(): Promise<Lease[]>;
}

export interface InstanceRecord {
  id: string;
  host: string;
  pid: number;
  startedAt: number;
  heartbeatAt: number;
  /** The heartbeat's validity: an instance not heard of by then is taken for dead. */
  expiresAt: number;
}

/** The instances table: one row per running `switchboard start`, refreshed by its heartbeat. */
export interface InstanceRepo {
  heartbeat(instance: { id: string; host: string; pid: number; startedAt: number }, now: number, ttlMs: number): Promise<void>;
  remove(id: string): Promise<void>;
  /** Removes rows whose heartbeat expired before `before` (instances that died); how many. */
  prune(before: number): Promise<number>;
  /** Every row (stale ones too), by id. */
  list(): Promise<InstanceRecord[]>;
}

// ── retention ───────────────────────────────────────────────────────────────────────────────

/**
 * What may go (epoch ms cutoffs; an absent one keeps that table). Only rows that are finished are
 * ever removed: pending inbound events, pending or failed outbox rows and running cron runs stay.
 */
export interface PruneCutoffs {
  /** Handled inbound journal rows received before this. */
  inboundBefore?: number;
  /** Outbox rows sent before this. */
  outboxSentBefore?: number;
  /** Finished cron run records (the job's watermark and last result live on the job). */
  cronRunsBefore?: number;
  /** Ended sessions (ended before this) with their messages and search index entries. */
  sessionsBefore?: number;
}

/** Rows removed per table by one prune. */
export interface PruneResult {
  inbound: number;
  outbox: number;
  cronRuns: number;
  sessions: number;
  messages: number;
}

export interface TableSizes {
  /** Rows per table, in a stable order. */
  tables: Array<{ name: string; rows: number }>;
  /** Database size on disk (main file and write-ahead log), bytes; null where unknown. */
  bytes: number | null;
}

export interface RetentionRepo {
  /**
   * Removes at most `batch` rows per table whose cutoff passed (one short write each, so a big
   * backlog never holds the database for long); call again while it returns any.
   */
  prune(cutoffs: PruneCutoffs, batch: number): Promise<PruneResult>;
  /** Row counts and size, for `doctor` and the benchmark. */
  tableSizes(): Promise<TableSizes>;
}

// ── the store ───────────────────────────────────────────────────────────────────────────────

export interface Repositories {
  readonly sessions: SessionRepo;
  readonly messages: MessageRepo;
  readonly inbound: InboundRepo;
  readonly outbox: OutboxRepo;
  readonly cron: CronRepo;
  readonly pairing: PairingRepo;
  readonly memory: MemoryRepo;
  readonly streams: LiveStreamRepo;
  /**
   * Leases (sessions, single-consumer doors). Inside a transaction only a turn's last commit uses
   * them: it gives its session's lease up together with what it answered (DESIGN §9).
   */
  readonly leases: LeaseRepo;
}

export interface Store extends Repositories {
  /** `sqlite` or `postgres`, for `doctor` and the console. */
  readonly engine: string;
  /** Pruning by the retention policy (src/core/retention.ts) and table sizes; outside transactions. */
  readonly retention: RetentionRepo;
  /** The instances on this database and their heartbeats. */
  readonly instances: InstanceRepo;
  /**
   * Runs `fn` in one transaction with repositories bound to it: everything it writes to the
   * database commits together or not at all. Use only `tx` inside. Outside it, the store's own
   * repositories never see its uncommitted writes: on SQLite (one connection) they wait for it to
   * end; on PostgreSQL they run on other pooled connections, as another instance would, and see
   * what is committed. Memory is not part of it where the engine keeps memory as files (SQLite).
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Schema version applied (number of migrations). */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}
