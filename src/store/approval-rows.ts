import type { ApprovalDecision, ApprovalRecord, ApprovalState } from '../core/store/types.js';
import type { PlatformId } from '../platform/ids.js';

/** The columns of `approvals`, as both engines select them. */
export const APPROVAL_COLUMNS =
  'id, code, session_key, person_key, platform, chat_id, user_id, tool, server, args, reason, turn, created_at, expires_at, state, decision, answered_by, answered_at, result, prompt_ref';

export interface ApprovalRow {
  id: string;
  code: string;
  session_key: string;
  person_key: string;
  platform: string;
  chat_id: string;
  user_id: string;
  tool: string;
  server: string | null;
  args: string;
  reason: string;
  turn: string;
  created_at: number;
  expires_at: number;
  state: string;
  decision: string | null;
  answered_by: string | null;
  answered_at: number | null;
  result: string | null;
  prompt_ref: string | null;
}

export function approvalFromRow(r: ApprovalRow): ApprovalRecord {
  return {
    id: r.id,
    code: r.code,
    sessionKey: r.session_key,
    personKey: r.person_key,
    platform: r.platform as PlatformId,
    chatId: r.chat_id,
    userId: r.user_id,
    tool: r.tool,
    server: r.server,
    args: r.args,
    reason: r.reason,
    turn: r.turn,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    state: r.state as ApprovalState,
    decision: r.decision as ApprovalDecision | null,
    answeredBy: r.answered_by,
    answeredAt: r.answered_at === null ? null : Number(r.answered_at),
    result: r.result,
    promptRef: r.prompt_ref,
  };
}
