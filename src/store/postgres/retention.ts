import type { Runner } from './db.js';
import type { PruneCutoffs, PruneResult, RetentionRepo, TableSizes } from '../../core/store/types.js';

/** Tables `tableSizes` reports, in this order (the same as the SQLite engine's). */
const TABLES = ['sessions', 'messages', 'inbound', 'outbox', 'cron_jobs', 'cron_runs', 'pairing_codes', 'paired_users'] as const;

/**
 * Deletes finished rows past their cutoff, a batch per table per call, through the partial indexes
 * of migration 2. Any instance may run it: a row two instances both pick is deleted once.
 */
export class PgRetentionRepo implements RetentionRepo {
  constructor(private readonly run: Runner) {}

  async prune(cutoffs: PruneCutoffs, batch: number): Promise<PruneResult> {
    const out: PruneResult = { inbound: 0, outbox: 0, cronRuns: 0, sessions: 0, messages: 0 };
    const run = this.run;
    if (cutoffs.inboundBefore !== undefined) {
      out.inbound = await run.exec(
        `DELETE FROM inbound WHERE (platform, update_id) IN
           (SELECT platform, update_id FROM inbound WHERE status != 'pending' AND received_at < $1 ORDER BY received_at LIMIT $2)`,
        [cutoffs.inboundBefore, batch],
      );
    }
    if (cutoffs.outboxSentBefore !== undefined) {
      out.outbox = await run.exec(
        "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status = 'sent' AND sent_at < $1 ORDER BY sent_at LIMIT $2)",
        [cutoffs.outboxSentBefore, batch],
      );
    }
    if (cutoffs.cronRunsBefore !== undefined) {
      out.cronRuns = await run.exec(
        "DELETE FROM cron_runs WHERE id IN (SELECT id FROM cron_runs WHERE status != 'running' AND finished_at < $1 ORDER BY finished_at LIMIT $2)",
        [cutoffs.cronRunsBefore, batch],
      );
    }
    if (cutoffs.sessionsBefore !== undefined) {
      const before = cutoffs.sessionsBefore;
      await run.atomic(async (tx) => {
        // A batch of sessions, then at most `batch` of their messages; the sessions go once they have none.
        const ids = (await tx.rows<{ id: string }>('SELECT id FROM sessions WHERE ended_at IS NOT NULL AND ended_at < $1 ORDER BY ended_at LIMIT $2', [before, batch])).map(
          (r) => r.id,
        );
        if (!ids.length) return;
        out.messages = await tx.exec('DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE session_id = ANY($1) LIMIT $2)', [ids, batch]);
        out.sessions = await tx.exec(
          'DELETE FROM sessions s WHERE s.id = ANY($1) AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id)',
          [ids],
        );
      });
    }
    return out;
  }

  async tableSizes(): Promise<TableSizes> {
    const tables: TableSizes['tables'] = [];
    for (const name of TABLES) {
      const [row] = await this.run.rows<{ n: string }>(`SELECT count(*) AS n FROM ${name}`);
      tables.push({ name, rows: Number(row?.n ?? 0) });
    }
    const [size] = await this.run.rows<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return { tables, bytes: size ? Number(size.bytes) : null };
  }
}
