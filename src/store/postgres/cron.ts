import type { Runner } from './db.js';
import type { CronJobConfig } from '../../core/config.js';
import type { CronJob, CronJobSource, CronRunStatus } from '../../core/cron/types.js';
import type { ClaimOutcome, CronRepo, CronRunRecord, NewChatJob } from '../../core/store/types.js';
import { cronJobFromRow, deliverColumns, type CronJobRow } from '../rows.js';




const WATERMARK = 'UPDATE cron_jobs SET last_slot = GREATEST(COALESCE(last_slot, 0), $1) WHERE id = $2';

/**
 * Cron jobs and runs on the shared engine. A slot is claimed by `INSERT … ON CONFLICT (job_id, slot)
 * DO NOTHING` on UNIQUE(job_id, slot): of every instance's scheduler trying the same slot, the one
 * whose row went in runs it; the others wait for that insert to commit and then see it taken.
 */
export class PgCronRepo implements CronRepo {
  constructor(private readonly run: Runner) {}

  async list(): Promise<CronJob[]> {
    return (await this.run.rows<CronJobRow>('SELECT * FROM cron_jobs ORDER BY id COLLATE "C"')).map(cronJobFromRow);
  }

  async get(id: string): Promise<CronJob | undefined> {
    const [row] = await this.run.rows<CronJobRow>('SELECT * FROM cron_jobs WHERE id = $1', [id]);
    return row && cronJobFromRow(row);
  }

  async listByOwner(owner: string): Promise<CronJob[]> {
    return (await this.run.rows<CronJobRow>("SELECT * FROM cron_jobs WHERE source = 'chat' AND owner = $1 ORDER BY id COLLATE \"C\"", [owner])).map(cronJobFromRow);
  }

  async syncConfig(jobs: readonly CronJobConfig[], at: number): Promise<{ added: string[]; removed: string[]; replacedChatJobs: string[] }> {
    return this.run.atomic(async (run) => {
      // Two instances starting with the same config sync one after the other.
      await run.exec("SELECT pg_advisory_xact_lock(hashtext('switchboard:cron-sync'))");
      const added: string[] = [];
      const replacedChatJobs: string[] = [];
      for (const job of jobs) {
        const [existing] = await run.rows<{ source: CronJobSource }>('SELECT source FROM cron_jobs WHERE id = $1', [job.id]);
        if (!existing) added.push(job.id);
        else if (existing.source === 'chat') replacedChatJobs.push(job.id);
        await run.exec(
          `INSERT INTO cron_jobs (id, source, owner, schedule, timezone, prompt, deliver_platform, deliver_chat, deliver_thread, paused, created_at)
           VALUES ($1, 'config', NULL, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (id) DO UPDATE SET source = 'config', owner = NULL, schedule = excluded.schedule,
             timezone = excluded.timezone, prompt = excluded.prompt, deliver_platform = excluded.deliver_platform,
             deliver_chat = excluded.deliver_chat, deliver_thread = excluded.deliver_thread,
             held = cron_jobs.source = 'config' AND cron_jobs.held,
             paused = excluded.paused OR (cron_jobs.source = 'config' AND cron_jobs.held),
             last_slot = CASE WHEN cron_jobs.paused AND NOT excluded.paused AND NOT (cron_jobs.source = 'config' AND cron_jobs.held)
                         THEN GREATEST(COALESCE(cron_jobs.last_slot, 0), $9) ELSE cron_jobs.last_slot END`,
          [job.id, job.schedule, job.timezone ?? null, job.prompt, ...deliverColumns(job.deliver), !job.enabled, at],
        );
      }
      const keep = jobs.map((j) => j.id);
      const stale = (
        await run.rows<{ id: string }>("SELECT id FROM cron_jobs WHERE source = 'config' AND NOT (id = ANY($1::text[])) ORDER BY id COLLATE \"C\"", [keep])
      ).map((r) => r.id);
      if (stale.length) {
        await run.exec('DELETE FROM cron_runs WHERE job_id = ANY($1::text[])', [stale]);
        await run.exec('DELETE FROM cron_jobs WHERE id = ANY($1::text[])', [stale]);
      }
      return { added, removed: stale, replacedChatJobs };
    });
  }

  async insertChatJob(job: NewChatJob, at: number): Promise<CronJob> {
    const [row] = await this.run.rows<CronJobRow>(
      `INSERT INTO cron_jobs (id, source, owner, schedule, timezone, prompt, deliver_platform, deliver_chat, deliver_thread, paused, created_at)
       VALUES ($1, 'chat', $2, $3, $4, $5, $6, $7, $8, FALSE, $9) RETURNING *`,
      [job.id, job.owner, job.schedule, job.timezone, job.prompt, ...deliverColumns(job.deliver), at],
    );
    return cronJobFromRow(row);
  }

  async setPaused(id: string, paused: boolean, at: number): Promise<void> {
    // `held`: the pause outlives the config sync at the next start (a config job's `enabled` is re-read then).
    if (paused) await this.run.exec('UPDATE cron_jobs SET paused = TRUE, held = TRUE WHERE id = $1', [id]);
    else await this.run.exec('UPDATE cron_jobs SET paused = FALSE, held = FALSE, last_slot = GREATEST(COALESCE(last_slot, 0), $1) WHERE id = $2', [at, id]);
  }

  async remove(id: string): Promise<boolean> {
    return this.run.atomic(async (run) => {
      await run.exec('DELETE FROM cron_runs WHERE job_id = $1', [id]);
      return (await run.exec('DELETE FROM cron_jobs WHERE id = $1', [id])) === 1;
    });
  }

  async claim(jobId: string, slot: number, at: number, busy: boolean): Promise<ClaimOutcome> {
    return this.run.atomic(async (run): Promise<ClaimOutcome> => {
      const [row] = busy
        ? await run.rows<{ id: number }>(
            `INSERT INTO cron_runs (job_id, slot, started_at, finished_at, status, detail) VALUES ($1, $2, $3, $3, 'skipped', 'the previous run was still going')
             ON CONFLICT (job_id, slot) DO NOTHING RETURNING id`,
            [jobId, slot, at],
          )
        : await run.rows<{ id: number }>(
            `INSERT INTO cron_runs (job_id, slot, started_at, status) VALUES ($1, $2, $3, 'running')
             ON CONFLICT (job_id, slot) DO NOTHING RETURNING id`,
            [jobId, slot, at],
          );
      if (!row) return { kind: 'taken' };
      await run.exec(WATERMARK, [slot, jobId]);
      return busy ? { kind: 'busy' } : { kind: 'claimed', runId: row.id };
    });
  }

  async skip(jobId: string, slot: number, at: number, detail: string): Promise<boolean> {
    return this.run.atomic(async (run) => {
      const n = await run.exec(
        `INSERT INTO cron_runs (job_id, slot, started_at, finished_at, status, detail) VALUES ($1, $2, $3, $3, 'skipped', $4)
         ON CONFLICT (job_id, slot) DO NOTHING`,
        [jobId, slot, at, detail],
      );
      await run.exec(WATERMARK, [slot, jobId]);
      if (n === 1) await run.exec("UPDATE cron_jobs SET last_run_at = $1, last_status = 'skipped', last_result = $2 WHERE id = $3", [slot, detail, jobId]);
      return n === 1;
    });
  }

  async advance(jobId: string, slot: number): Promise<void> {
    await this.run.exec(WATERMARK, [slot, jobId]);
  }

  async finish(runId: number, jobId: string, status: CronRunStatus, detail: string, at: number): Promise<void> {
    await this.run.atomic(async (run) => {
      await run.exec('UPDATE cron_runs SET finished_at = $1, status = $2, detail = $3 WHERE id = $4', [at, status, detail, runId]);
      await run.exec('UPDATE cron_jobs SET last_run_at = $1, last_status = $2, last_result = $3 WHERE id = $4', [at, status, detail, jobId]);
    });
  }

  async deliveryFailed(jobId: string, detail: string): Promise<void> {
    await this.run.exec("UPDATE cron_jobs SET last_status = 'error', last_result = $1 WHERE id = $2", [detail, jobId]);
  }

  async closeInterrupted(before: number, at: number): Promise<number> {
    return this.run.exec(
      `UPDATE cron_runs SET status = 'error', finished_at = $1, detail = 'interrupted: the gateway stopped during the run' WHERE status = 'running' AND started_at < $2
       AND NOT EXISTS (SELECT 1 FROM leases WHERE name = 'cron-run:' || cron_runs.id AND expires_at > $1)`,
      [at, before],
    );
  }

  async runs(jobId: string, limit = 20): Promise<CronRunRecord[]> {
    return this.run.rows<CronRunRecord & { [column: string]: unknown }>(
      `SELECT id, job_id AS "jobId", slot, started_at AS "startedAt", finished_at AS "finishedAt", status, detail
       FROM cron_runs WHERE job_id = $1 ORDER BY slot DESC, id DESC LIMIT $2`,
      [jobId, limit],
    );
  }
}
