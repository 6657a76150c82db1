/** The store's housekeeping: pairing codes, leases and instances (ARCHITECTURE.md §4, §9), retention. */
import type { PlatformId } from '../../platform/ids.js';

// ── pairing ─────────────────────────────────────────────────────────────────────────────────

export type PairingRequest = { status: 'issued'; code: string } | { status: 'recent'; code: string } | { status: 'full' };

export interface PendingPairing {
  code: string;
  platform: PlatformId;
  userId: string;
  expiresAt: number;
}

/**
 * Pairing (ARCHITECTURE.md §4): an 8-character code valid 1 hour, at most 3 pending per platform, one
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

// ── leases and instances (ARCHITECTURE.md §9) ───────────────────────────────────────────────────────

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
