/** Approvals (ARCHITECTURE.md §16): a paused tool call, the turn so far, and the person's answer. */
import type { PlatformId } from '../../platform/ids.js';

/**
 * Where an approval is in its life: `pending` (asked, waiting), `answered` (approved, denied or
 * expired — `decision` says which), `running` (its approved call started), `ran` (the call's result is
 * stored), `done` (the resumed turn committed). Every step is one conditional statement, so a press,
 * a replay and a second instance cannot both move it.
 */
export type ApprovalState = 'pending' | 'answered' | 'running' | 'ran' | 'done';
export type ApprovalDecision = 'approved' | 'denied' | 'expired';

export interface NewApproval {
  id: string;
  /** Short code a person types (`approve CODE` in an e-mail reply). */
  code: string;
  sessionKey: string;
  personKey: string;
  /** Where it was asked: the prompt's chat, and the person whose turn it is. */
  platform: PlatformId;
  chatId: string;
  userId: string;
  tool: string;
  /** The MCP server of the tool; null for a built-in one. */
  server: string | null;
  /** The call's arguments as the model wrote them (JSON text). */
  args: string;
  /** Why it is asked: "this turn read a web page (…)", "the operator asks before …". */
  reason: string;
  /** The paused turn (src/core/approvals/paused.ts), as JSON. */
  turn: string;
  createdAt: number;
  expiresAt: number;
}

export interface ApprovalRecord extends NewApproval {
  state: ApprovalState;
  decision: ApprovalDecision | null;
  /** Who answered (`telegram:1001`, `console`); null while pending or when it expired. */
  answeredBy: string | null;
  answeredAt: number | null;
  /** The approved call's result, once it ran. */
  result: string | null;
  /** Where the prompt was posted, as its door reported it (Delivery.onPromptPosted, JSON); null until then. */
  promptRef: string | null;
}

export interface ApprovalRepo {
  create(approval: NewApproval): Promise<void>;
  get(id: string): Promise<ApprovalRecord | null>;
  byCode(code: string): Promise<ApprovalRecord | null>;
  /**
   * pending → answered with `decision`, if still pending and not past its expiry: one statement.
   * Returns the answered record, or null when someone answered first (or it expired).
   */
  decide(id: string, decision: 'approved' | 'denied', by: string, at: number): Promise<ApprovalRecord | null>;
  /** Every pending approval past its expiry → answered/expired, returned. */
  expireDue(at: number): Promise<ApprovalRecord[]>;
  /** answered (approved) → running; false if it was not there (the call started before: a crash mid-call). */
  startCall(id: string): Promise<boolean>;
  /** running → ran, keeping the call's result. */
  recordResult(id: string, result: string): Promise<void>;
  /** → done (the resumed turn committed). */
  finish(id: string): Promise<void>;
  /** Keeps where the prompt was posted (`ref` JSON), for whichever instance closes it. */
  setPromptRef(id: string, ref: string): Promise<void>;
  /** The session's pending approval (a session's turn waits on one at most), or null. */
  pendingOf(sessionKey: string): Promise<ApprovalRecord | null>;
  /** Pending first, then the most recent, at most `limit`. */
  list(limit: number): Promise<ApprovalRecord[]>;
}
