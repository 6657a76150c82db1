/**
 * The storage interface (ARCHITECTURE.md §7, §9): one repository per concern, every method asynchronous, so
 * an engine with a network round trip (PostgreSQL) stands behind the same calls as the embedded
 * one (SQLite). The engines live outside core (src/store/<engine>/) and own their schema and
 * migrations; core sees only these types and never a database handle.
 */
import type { SessionRepo, MessageRepo, MemoryRepo } from './conversations.js';
import type { InboundRepo, OutboxRepo, LiveStreamRepo } from './traffic.js';
import type { CronRepo } from './scheduling.js';
import type { PairingRepo, LeaseRepo, InstanceRepo, RetentionRepo } from './operations.js';
import type { ApprovalRepo } from './approvals.js';
import type { TurnRepo } from './turns.js';
import type { MediaStore } from '../media/types.js';

export type * from './conversations.js';
export type * from './traffic.js';
export type * from './scheduling.js';
export type * from './operations.js';
export type * from './approvals.js';
export type * from './turns.js';

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
   * them: it gives its session's lease up together with what it answered (ARCHITECTURE.md §9).
   */
  readonly leases: LeaseRepo;
  /** Paused tool calls waiting for a person's yes (ARCHITECTURE.md §16). */
  readonly approvals: ApprovalRepo;
}

export interface Store extends Repositories {
  /** `sqlite` or `postgres`, for `doctor` and the console. */
  readonly engine: string;
  /** Pruning by the retention policy (src/core/retention.ts) and table sizes; outside transactions. */
  readonly retention: RetentionRepo;
  /**
   * A session's turns (ARCHITECTURE.md §9): the lease and the first batch read in one call, and everything a
   * turn writes in one call (one statement on PostgreSQL, one transaction on SQLite); outside transactions.
   */
  readonly turns: TurnRepo;
  /** The instances on this database and their heartbeats. */
  readonly instances: InstanceRepo;
  /** Stored media, content-addressed (ARCHITECTURE.md §15); outside transactions. */
  readonly media: MediaStore;
  /**
   * Runs `fn` in one transaction with repositories bound to it: everything it writes to the
   * database commits together or not at all. Use only `tx` inside: a call on the store's own
   * repositories, or another `transaction`, from inside `fn` (however deep) throws a StorageError at
   * once. Outside it, the store's own repositories never see its uncommitted writes: on SQLite (one
   * connection) they wait for it to end; on PostgreSQL they run on other pooled connections, as
   * another instance would, and see what is committed. Memory is not part of it where the engine
   * keeps memory as files (SQLite). Do CPU work (rendering) before it: on SQLite it holds the one
   * connection, and every other caller waits.
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Schema version applied (number of migrations). */
  schemaVersion(): Promise<number>;
  /** The schema version this code migrates to (`/readyz` compares the two). */
  readonly currentSchema: number;
  close(): Promise<void>;
}
