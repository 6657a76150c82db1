/**
 * What comes in and goes out (ARCHITECTURE.md §7, §10): the inbound journal, the outbox of replies and the
 * message ids of replies being streamed.
 */
import type { Address } from '../../platform/address.js';
import type { PlatformId } from '../../platform/ids.js';
import type { DeliveryTarget, InboundMessage, OutboundMessage } from '../types.js';

// ── inbound journal ─────────────────────────────────────────────────────────────────────────

export type InboundStatus = 'pending' | 'done' | 'refused' | 'ignored' | 'failed';

export interface InboundRepo {
  /** Records the event; false if this (platform, update id) was seen before. */
  claim(message: InboundMessage, sessionKey: string | null): Promise<boolean>;
  /**
   * `claim`, and in the same statement the id of the session's approval still pending, if any (a turn of
   * `sessionKey` waits for a yes: the message closes it, ARCHITECTURE.md §16) — whichever instance paused it.
   */
  journal(message: InboundMessage, sessionKey: string | null): Promise<{ claimed: boolean; pendingApproval: string | null }>;
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
 * Streamed replies (ARCHITECTURE.md §10): the platform ids of the messages a session's running turn streams
 * into. Saved as each message is posted; cleared in the transaction that stores the turn's reply.
 * A row still there at start belongs to a turn a crash cut short, whose message is answered again.
 */
export interface LiveStreamRepo {
  /** The message ids of the session's unfinished stream, oldest first; [] when none. */
  get(sessionKey: string): Promise<string[]>;
  save(sessionKey: string, messageIds: readonly string[], at: number): Promise<void>;
  clear(sessionKey: string): Promise<void>;
}
