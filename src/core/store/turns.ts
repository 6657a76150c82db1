/**
 * A session's turns in the store (ARCHITECTURE.md §7, §9): what a turn reads before it starts and everything
 * it writes when it ends, each as ONE store call — on PostgreSQL one statement (one round trip), on
 * SQLite one transaction. The gateway's turn loop uses nothing else on its hot path.
 */
import type { PlatformId } from '../../platform/ids.js';
import type { ChatMessage, Usage } from '../messages.js';
import type { DeliveryTarget, InboundMessage, OutboundMessage } from '../types.js';
import type { NewApproval } from './approvals.js';
import type { InboundStatus, OutboxItem } from './traffic.js';

/** A lease named for a holder, as the instance's Presence gives it (ARCHITECTURE.md §9). */
export interface LeaseClaim {
  name: string;
  holder: string;
  now: number;
  ttlMs: number;
}

/** What a session's turn loop starts from. */
export interface TurnStart {
  /** True when `holder` holds the session's lease now (taken, or renewed when it was its own). */
  acquired: boolean;
  /** The session's pending journal rows in arrival order; [] when the lease was not acquired. */
  batch: InboundMessage[];
  /** The message ids of the session's unfinished stream (a turn a crash cut short), oldest first. */
  streamIds: string[];
}

/** The one reply a turn stores (rendered beforehand). */
export interface TurnReply {
  target: DeliveryTarget;
  message: OutboundMessage;
  /** Made at (epoch ms). */
  at: number;
  /** Not sent before this (a 429 met while streaming); absent: due at `at`. */
  notBefore?: number;
  /**
   * Take it for delivery by this instance for `leaseMs` in the same write, when it is due now and no
   * other reply of its chat is pending (what OutboxRepo.enqueueTaken does); absent: only stored.
   */
  takeForMs?: number;
}

/** Everything one turn writes, applied all together or not at all. */
export interface TurnWrites {
  sessionKey: string;
  /**
   * The journal rows the turn answers, settled to `status`. Only if every one of them is still
   * pending is anything written: one answered elsewhere first (another instance) and nothing is.
   */
  settle: ReadonlyArray<{ platform: PlatformId; updateId: string }>;
  status: InboundStatus;
  /** History rows (MessageRepo.append). */
  append?: { sessionId: string; personKey: string; messages: readonly ChatMessage[]; at: number; usage?: Usage };
  /** The session's activity and usage (SessionRepo.recordTurn). */
  recordTurn?: { sessionId: string; at: number; usage: Usage; requests: number };
  /** An approval the turn paused for (ApprovalRepo.create). */
  createApproval?: NewApproval;
  /** The approval whose resumed turn this is, moved to done (ApprovalRepo.finish). */
  finishApproval?: string;
  reply?: TurnReply | null;
  /** Forget the session's live stream (its messages are now the reply's to edit). */
  clearStream: boolean;
  /** Give this lease up when nothing else of the session is pending after the settle. */
  releaseLease?: { name: string; holder: string };
}

export type TurnCommit =
  | {
      /** False: a journal row was no longer pending (answered elsewhere); nothing was written. */
      settled: false;
    }
  | {
      settled: true;
      /** The stored reply: its outbox id, and the item when it was taken for delivery here. */
      reply: { id: number; taken: OutboxItem | null } | null;
      /** True when the lease was given up (nothing else of the session was pending). */
      released: boolean;
      /**
       * The lease given up was asked for by another instance while it was held (it journaled a message
       * of the session and found the session taken), or the engine cannot tell: the caller reads the
       * journal once more after its loop. False when not released.
       */
      contested: boolean;
      /** The session's journal rows still pending after the settle (the next turn's), in arrival order. */
      pending: InboundMessage[];
      /** The session's live-stream ids after the write ([] once cleared). */
      streamIds: string[];
    };

export interface TurnRepo {
  /** Takes the session's lease and reads what its first turn needs, in one call. */
  begin(sessionKey: string, lease: LeaseClaim): Promise<TurnStart>;
  /** Writes everything one turn ends with, in one call (see TurnWrites). */
  commit(writes: TurnWrites): Promise<TurnCommit>;
}
