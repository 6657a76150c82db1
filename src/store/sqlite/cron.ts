import { prepare, type Runner } from './db.js';
import type { CronJobConfig } from '../../core/config.js';
import type { CronJob, CronRunStatus } from '../../core/cron/types.js';
import type { ClaimOutcome, CronRepo, CronRunRecord, NewChatJob } from '../../core/store/types.js';
import { cronJobFromRow, deliverColumns, type CronJobRow } from '../rows.js';




/**
 * Cron jobs and their runs in SQLite. Slot claims are the exactly-once guarantee: `cron_runs` has
 * UNIQUE(job_id, slot), so of two schedulers (a restart, a doubled timer, a second process) only the
 * one whose INSERT succeeds runs the slot.
 */
export class SqliteCronRepo implements CronRepo {
  constructor(private readonly run: Runner) {}

  private get db() {
    return this.run.db;
  }

  async list(): Promise<CronJob[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return (prepare(this.db, 'SELECT * FROM cron_jobs ORDER BY id').all() as CronJobRow[]).map(cronJobFromRow);
  }

  async get(id: string): Promise<CronJob | undefined> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return this.read(id);
  }

  private read(id: string): CronJob | undefined {
    const row = prepare(this.db, 'SELECT * FROM cron_jobs WHERE id = ?').get(id) as CronJobRow | undefined;
    return row && cronJobFromRow(row);
  }

  async listByOwner(owner: string): Promise<CronJob[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return (prepare(this.db, "SELECT * FROM cron_jobs WHERE source = 'chat' AND owner = ? ORDER BY id").all(owner) as CronJobRow[]).map(cronJobFromRow);
  }

  /**
   * Makes the `config` rows match the config file: inserts new jobs, updates changed ones (keeping
   * their run history), deletes config jobs no longer in the file. Chat jobs are untouched, except
   * one whose id the config now claims (the file wins; returned in `replacedChatJobs`).
   */
  async syncConfig(jobs: readonly CronJobConfig[], at: number): Promise<{ added: string[]; removed: string[]; replacedChatJobs: string[] }> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const added: string[] = [];
    const replacedChatJobs: string[] = [];
    let removed: string[] = [];
    this.db.transaction(() => {
      const keep = new Set(jobs.map((j) => j.id));
      for (const job of jobs) {
        const existing = this.read(job.id);
        if (!existing) added.push(job.id);
        else if (existing.source === 'chat') replacedChatJobs.push(job.id);
        prepare(this.db, 
            `INSERT INTO cron_jobs (id, source, owner, schedule, timezone, prompt, deliver_platform, deliver_chat, deliver_thread, paused, created_at)
             VALUES (?, 'config', NULL, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT(id) DO UPDATE SET source = 'config', owner = NULL, schedule = excluded.schedule,
               timezone = excluded.timezone, prompt = excluded.prompt, deliver_platform = excluded.deliver_platform,
               deliver_chat = excluded.deliver_chat, deliver_thread = excluded.deliver_thread,
               held = CASE WHEN cron_jobs.source = 'config' THEN cron_jobs.held ELSE 0 END,
               paused = CASE WHEN excluded.paused = 1 OR (cron_jobs.source = 'config' AND cron_jobs.held = 1) THEN 1 ELSE 0 END,
               last_slot = CASE WHEN cron_jobs.paused = 1 AND excluded.paused = 0 AND NOT (cron_jobs.source = 'config' AND cron_jobs.held = 1)
                           THEN MAX(COALESCE(cron_jobs.last_slot, 0), ?) ELSE cron_jobs.last_slot END`,
          )
          .run(job.id, job.schedule, job.timezone ?? null, job.prompt, ...deliverColumns(job.deliver), job.enabled ? 0 : 1, at, at);
      }
      const stale = (prepare(this.db, "SELECT id FROM cron_jobs WHERE source = 'config'").all() as Array<{ id: string }>)
        .map((r) => r.id)
        .filter((id) => !keep.has(id));
      for (const id of stale) this.delete(id);
      removed = stale;
    })();
    return { added, removed, replacedChatJobs };
  }

  async insertChatJob(job: NewChatJob, at: number): Promise<CronJob> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, 
        `INSERT INTO cron_jobs (id, source, owner, schedule, timezone, prompt, deliver_platform, deliver_chat, deliver_thread, paused, created_at)
         VALUES (?, 'chat', ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      )
      .run(job.id, job.owner, job.schedule, job.timezone, job.prompt, ...deliverColumns(job.deliver), at);
    return this.read(job.id)!;
  }

  /**
   * Pauses or resumes. Resuming moves the watermark to `at`, so slots that passed while paused are
   * not caught up later.
   */
  async setPaused(id: string, paused: boolean, at: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    // `held`: the pause outlives the config sync at the next start (a config job's `enabled` is re-read then).
    if (paused) prepare(this.db, 'UPDATE cron_jobs SET paused = 1, held = 1 WHERE id = ?').run(id);
    else prepare(this.db, 'UPDATE cron_jobs SET paused = 0, held = 0, last_slot = MAX(COALESCE(last_slot, 0), ?) WHERE id = ?').run(at, id);
  }

  async remove(id: string): Promise<boolean> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return this.delete(id);
  }

  private delete(id: string): boolean {
    return this.db.transaction(() => {
      prepare(this.db, 'DELETE FROM cron_runs WHERE job_id = ?').run(id);
      return prepare(this.db, 'DELETE FROM cron_jobs WHERE id = ?').run(id).changes === 1;
    })();
  }

  /**
   * Claims `slot` of a job in one immediate transaction: refused ('taken') if any scheduler already
   * claimed it; recorded as skipped ('busy') if `busy` says a run of the job is in progress.
   * A claim also advances the job's watermark.
   */
  async claim(jobId: string, slot: number, at: number, busy: boolean): Promise<ClaimOutcome> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return this.db.transaction((): ClaimOutcome => {
      const taken = prepare(this.db, 'SELECT 1 FROM cron_runs WHERE job_id = ? AND slot = ?').get(jobId, slot);
      if (taken) return { kind: 'taken' };
      this.moveWatermark(jobId, slot);
      if (busy) {
        prepare(this.db, "INSERT INTO cron_runs (job_id, slot, started_at, finished_at, status, detail) VALUES (?, ?, ?, ?, 'skipped', ?)")
          .run(jobId, slot, at, at, 'the previous run was still going');
        return { kind: 'busy' };
      }
      const r = prepare(this.db, "INSERT INTO cron_runs (job_id, slot, started_at, status) VALUES (?, ?, ?, 'running')")
        .run(jobId, slot, at);
      return { kind: 'claimed', runId: Number(r.lastInsertRowid) };
    }).immediate();
  }

  /** Records a missed slot that is not run (too late): claimed as skipped, shown as the job's last result. */
  async skip(jobId: string, slot: number, at: number, detail: string): Promise<boolean> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return this.db.transaction(() => {
      const r = prepare(this.db, "INSERT OR IGNORE INTO cron_runs (job_id, slot, started_at, finished_at, status, detail) VALUES (?, ?, ?, ?, 'skipped', ?)")
        .run(jobId, slot, at, at, detail);
      this.moveWatermark(jobId, slot);
      if (r.changes === 1) {
        prepare(this.db, "UPDATE cron_jobs SET last_run_at = ?, last_status = 'skipped', last_result = ? WHERE id = ?")
          .run(slot, detail, jobId);
      }
      return r.changes === 1;
    }).immediate();
  }

  /** Moves the watermark forward (never back). */
  async advance(jobId: string, slot: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    this.moveWatermark(jobId, slot);
  }

  private moveWatermark(jobId: string, slot: number): void {
    prepare(this.db, 'UPDATE cron_jobs SET last_slot = MAX(COALESCE(last_slot, 0), ?) WHERE id = ?').run(slot, jobId);
  }

  async finish(runId: number, jobId: string, status: CronRunStatus, detail: string, at: number): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    this.db.transaction(() => {
      prepare(this.db, 'UPDATE cron_runs SET finished_at = ?, status = ?, detail = ? WHERE id = ?').run(at, status, detail, runId);
      prepare(this.db, 'UPDATE cron_jobs SET last_run_at = ?, last_status = ?, last_result = ? WHERE id = ?')
        .run(at, status, detail, jobId);
    })();
  }

  /**
   * A run's report could not be delivered (refused for good): the job's last result says so, so
   * `cron list` does not show a bounced report as ok.
   */
  async deliveryFailed(jobId: string, detail: string): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    prepare(this.db, "UPDATE cron_jobs SET last_status = 'error', last_result = ? WHERE id = ?").run(detail, jobId);
  }

  /** Runs left 'running' by a process that stopped mid-run (started before `before`) are marked as errors. */
  async closeInterrupted(before: number, at: number): Promise<number> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return prepare(this.db, `UPDATE cron_runs SET status = 'error', finished_at = ?, detail = 'interrupted: the gateway stopped during the run' WHERE status = 'running' AND started_at < ?
       AND NOT EXISTS (SELECT 1 FROM leases WHERE name = 'cron-run:' || cron_runs.id AND expires_at > ?)`)
      .run(at, before, at).changes;
  }

  async runs(jobId: string, limit = 20): Promise<CronRunRecord[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return prepare(this.db, 
        'SELECT id, job_id AS jobId, slot, started_at AS startedAt, finished_at AS finishedAt, status, detail FROM cron_runs WHERE job_id = ? ORDER BY slot DESC, id DESC LIMIT ?',
      )
      .all(jobId, limit) as CronRunRecord[];
  }
}
