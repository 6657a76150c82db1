import { statSync } from 'node:fs';
import { prepare, type Runner } from './db.js';
import type { PruneCutoffs, PruneResult, RetentionRepo, TableSizes } from '../../core/store/types.js';

/** Tables `tableSizes` reports, in this order. */
const TABLES = ['sessions', 'messages', 'inbound', 'outbox', 'cron_jobs', 'cron_runs', 'pairing_codes', 'paired_users'] as const;

/**
 * Deletes finished rows past their cutoff, a batch per table per call. Each statement picks its
 * victims through the partial indexes of migration 3, so a pass costs what it deletes, not the
 * table size. Sessions go with their messages; the delete trigger (migration 9) removes from the FTS
 * index the rows that were indexed, and a row not yet indexed simply never will be.
 */
export class SqliteRetentionRepo implements RetentionRepo {
  constructor(
    private readonly run: Runner,
    /** Database file, for its size (null for `:memory:`). */
    private readonly path: string | null,
    /** Called when messages were deleted (the history cache then checks what it holds). */
    private readonly messagesDeleted: () => void = () => undefined,
  ) {}

  private get db() {
    return this.run.db;
  }

  async prune(cutoffs: PruneCutoffs, batch: number): Promise<PruneResult> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const out: PruneResult = { inbound: 0, outbox: 0, cronRuns: 0, sessions: 0, messages: 0 };
    const db = this.db;
    db.transaction(() => {
      if (cutoffs.inboundBefore !== undefined) {
        out.inbound = prepare(
          db,
          "DELETE FROM inbound WHERE rowid IN (SELECT rowid FROM inbound WHERE status != 'pending' AND received_at < ? ORDER BY received_at LIMIT ?)",
        ).run(cutoffs.inboundBefore, batch).changes;
      }
      if (cutoffs.outboxSentBefore !== undefined) {
        out.outbox = prepare(db, "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status = 'sent' AND sent_at < ? ORDER BY sent_at LIMIT ?)")
          .run(cutoffs.outboxSentBefore, batch).changes;
      }
      if (cutoffs.cronRunsBefore !== undefined) {
        out.cronRuns = prepare(
          db,
          "DELETE FROM cron_runs WHERE id IN (SELECT id FROM cron_runs WHERE status != 'running' AND finished_at < ? ORDER BY finished_at LIMIT ?)",
        ).run(cutoffs.cronRunsBefore, batch).changes;
      }
      if (cutoffs.sessionsBefore !== undefined) {
        // A batch of sessions, then at most `batch` of their messages; the sessions go once they have none.
        const ids = prepare(db, 'SELECT id FROM sessions WHERE ended_at IS NOT NULL AND ended_at < ? ORDER BY ended_at LIMIT ?')
          .pluck()
          .all(cutoffs.sessionsBefore, batch) as string[];
        if (ids.length) {
          const list = JSON.stringify(ids);
          out.messages = prepare(db, 'DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE session_id IN (SELECT value FROM json_each(?)) LIMIT ?)')
            .run(list, batch).changes;
          out.sessions = prepare(
            db,
            'DELETE FROM sessions WHERE id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM messages WHERE messages.session_id = sessions.id)',
          ).run(list).changes;
        }
      }
    }).immediate();
    if (out.messages) this.messagesDeleted();
    return out;
  }

  async tableSizes(): Promise<TableSizes> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const tables = TABLES.map((name) => ({ name, rows: prepare(this.db, `SELECT count(*) FROM ${name}`).pluck().get() as number }));
    let bytes: number | null = null;
    if (this.path) {
      bytes = 0;
      for (const file of [this.path, `${this.path}-wal`]) {
        try {
          bytes += statSync(file).size;
        } catch {
          // no write-ahead log right now
        }
      }
    }
    return { tables, bytes };
  }
}
