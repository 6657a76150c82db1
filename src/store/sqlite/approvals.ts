import { prepare, type Runner } from './db.js';
import type { ApprovalRecord, ApprovalRepo, NewApproval } from '../../core/store/types.js';
import { APPROVAL_COLUMNS, approvalFromRow, type ApprovalRow } from '../approval-rows.js';

/** Approvals (ARCHITECTURE.md §16) on the embedded engine: every state change is one conditional UPDATE. */
export class SqliteApprovalRepo implements ApprovalRepo {
  constructor(private readonly run: Runner) {}

  private get db() {
    return this.run.db;
  }

  private async ready(): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
  }

  async create(a: NewApproval): Promise<void> {
    await this.ready();
    prepare(
      this.db,
      `INSERT INTO approvals (id, code, session_key, person_key, platform, chat_id, user_id, tool, server, args, reason, turn, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(a.id, a.code, a.sessionKey, a.personKey, a.platform, a.chatId, a.userId, a.tool, a.server, a.args, a.reason, a.turn, a.createdAt, a.expiresAt);
  }

  async get(id: string): Promise<ApprovalRecord | null> {
    await this.ready();
    const row = prepare(this.db, `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE id = ?`).get(id) as ApprovalRow | undefined;
    return row ? approvalFromRow(row) : null;
  }

  async byCode(code: string): Promise<ApprovalRecord | null> {
    await this.ready();
    const row = prepare(this.db, `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE code = ?`).get(code.trim().toUpperCase()) as ApprovalRow | undefined;
    return row ? approvalFromRow(row) : null;
  }

  async pendingOf(sessionKey: string): Promise<ApprovalRecord | null> {
    await this.ready();
    const row = prepare(this.db, `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE session_key = ? AND state = 'pending' ORDER BY created_at DESC LIMIT 1`).get(sessionKey) as ApprovalRow | undefined;
    return row ? approvalFromRow(row) : null;
  }

  async decide(id: string, decision: 'approved' | 'denied', by: string, at: number): Promise<ApprovalRecord | null> {
    await this.ready();
    const row = prepare(
      this.db,
      `UPDATE approvals SET state = 'answered', decision = ?, answered_by = ?, answered_at = ?
       WHERE id = ? AND state = 'pending' AND expires_at > ? RETURNING ${APPROVAL_COLUMNS}`,
    ).get(decision, by, at, id, at) as ApprovalRow | undefined;
    return row ? approvalFromRow(row) : null;
  }

  async expireDue(at: number): Promise<ApprovalRecord[]> {
    await this.ready();
    const rows = prepare(
      this.db,
      `UPDATE approvals SET state = 'answered', decision = 'expired', answered_at = ?
       WHERE state = 'pending' AND expires_at <= ? RETURNING ${APPROVAL_COLUMNS}`,
    ).all(at, at) as ApprovalRow[];
    return rows.map(approvalFromRow);
  }

  async startCall(id: string): Promise<boolean> {
    await this.ready();
    return prepare(this.db, "UPDATE approvals SET state = 'running' WHERE id = ? AND state = 'answered' AND decision = 'approved'").run(id).changes === 1;
  }

  async recordResult(id: string, result: string): Promise<void> {
    await this.ready();
    prepare(this.db, "UPDATE approvals SET state = 'ran', result = ? WHERE id = ? AND state = 'running'").run(result, id);
  }

  async setPromptRef(id: string, ref: string): Promise<void> {
    await this.ready();
    prepare(this.db, 'UPDATE approvals SET prompt_ref = ? WHERE id = ?').run(ref, id);
  }

  async finish(id: string): Promise<void> {
    await this.ready();
    prepare(this.db, "UPDATE approvals SET state = 'done' WHERE id = ?").run(id);
  }

  async list(limit: number): Promise<ApprovalRecord[]> {
    await this.ready();
    const rows = prepare(
      this.db,
      `SELECT ${APPROVAL_COLUMNS} FROM approvals ORDER BY CASE WHEN state = 'pending' THEN 0 ELSE 1 END, created_at DESC LIMIT ?`,
    ).all(limit) as ApprovalRow[];
    return rows.map(approvalFromRow);
  }
}
