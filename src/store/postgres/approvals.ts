import type { Runner } from './db.js';
import type { ApprovalRecord, ApprovalRepo, NewApproval } from '../../core/store/types.js';
import { APPROVAL_COLUMNS, approvalFromRow, type ApprovalRow } from '../approval-rows.js';

/**
 * Approvals (ARCHITECTURE.md §16) on the shared engine: every state change is one conditional UPDATE,
 * so a press that reaches two instances (or is replayed) moves it once.
 */
export class PgApprovalRepo implements ApprovalRepo {
  constructor(private readonly run: Runner) {}

  async create(a: NewApproval): Promise<void> {
    await this.run.exec(
      `INSERT INTO approvals (id, code, session_key, person_key, platform, chat_id, user_id, tool, server, args, reason, turn, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [a.id, a.code, a.sessionKey, a.personKey, a.platform, a.chatId, a.userId, a.tool, a.server, a.args, a.reason, a.turn, a.createdAt, a.expiresAt],
    );
  }

  async get(id: string): Promise<ApprovalRecord | null> {
    const [row] = await this.run.rows<ApprovalRow>(`SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE id = $1`, [id]);
    return row ? approvalFromRow(row) : null;
  }

  async byCode(code: string): Promise<ApprovalRecord | null> {
    const [row] = await this.run.rows<ApprovalRow>(`SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE code = $1`, [code.trim().toUpperCase()]);
    return row ? approvalFromRow(row) : null;
  }

  async pendingOf(sessionKey: string): Promise<ApprovalRecord | null> {
    const [row] = await this.run.rows<ApprovalRow>(`SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE session_key = $1 AND state = 'pending' ORDER BY created_at DESC LIMIT 1`, [sessionKey]);
    return row ? approvalFromRow(row) : null;
  }

  async decide(id: string, decision: 'approved' | 'denied', by: string, at: number): Promise<ApprovalRecord | null> {
    const [row] = await this.run.rows<ApprovalRow>(
      `UPDATE approvals SET state = 'answered', decision = $1, answered_by = $2, answered_at = $3
       WHERE id = $4 AND state = 'pending' AND expires_at > $3 RETURNING ${APPROVAL_COLUMNS}`,
      [decision, by, at, id],
    );
    return row ? approvalFromRow(row) : null;
  }

  async expireDue(at: number): Promise<ApprovalRecord[]> {
    const rows = await this.run.rows<ApprovalRow>(
      `UPDATE approvals SET state = 'answered', decision = 'expired', answered_at = $1
       WHERE state = 'pending' AND expires_at <= $1 RETURNING ${APPROVAL_COLUMNS}`,
      [at],
    );
    return rows.map(approvalFromRow);
  }

  async startCall(id: string): Promise<boolean> {
    return (await this.run.exec("UPDATE approvals SET state = 'running' WHERE id = $1 AND state = 'answered' AND decision = 'approved'", [id])) === 1;
  }

  async recordResult(id: string, result: string): Promise<void> {
    await this.run.exec("UPDATE approvals SET state = 'ran', result = $1 WHERE id = $2 AND state = 'running'", [result, id]);
  }

  async setPromptRef(id: string, ref: string): Promise<void> {
    await this.run.exec('UPDATE approvals SET prompt_ref = $1 WHERE id = $2', [ref, id]);
  }

  async finish(id: string): Promise<void> {
    await this.run.exec("UPDATE approvals SET state = 'done' WHERE id = $1", [id]);
  }

  async list(limit: number): Promise<ApprovalRecord[]> {
    const rows = await this.run.rows<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM approvals ORDER BY CASE WHEN state = 'pending' THEN 0 ELSE 1 END, created_at DESC LIMIT $1`,
      [limit],
    );
    return rows.map(approvalFromRow);
  }
}
