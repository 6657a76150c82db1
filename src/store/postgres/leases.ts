import type { Runner } from './db.js';
import type { InstanceRecord, InstanceRepo, Lease, LeaseRepo } from '../../core/store/types.js';

const LEASE_COLUMNS = 'name, holder, acquired_at AS "acquiredAt", expires_at AS "expiresAt"';

/**
 * Leases shared by every instance on the database. `acquire` is one conditional upsert: of two
 * instances racing for a free or expired lease, the row lock lets one update it and the other
 * re-check the condition against the winner's row and change nothing.
 */
export class PgLeaseRepo implements LeaseRepo {
  constructor(private readonly run: Runner) {}

  async acquire(name: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
    const n = await this.run.exec(
      `INSERT INTO leases (name, holder, acquired_at, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO UPDATE SET
         acquired_at = CASE WHEN leases.holder = EXCLUDED.holder THEN leases.acquired_at ELSE EXCLUDED.acquired_at END,
         holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE leases.holder = EXCLUDED.holder OR leases.expires_at <= EXCLUDED.acquired_at`,
      [name, holder, now, now + ttlMs],
    );
    return n === 1;
  }

  async renewAll(holder: string, now: number, ttlMs: number): Promise<string[]> {
    const rows = await this.run.rows<{ name: string }>('UPDATE leases SET expires_at = $1 WHERE holder = $2 AND expires_at > $3 RETURNING name', [
      now + ttlMs,
      holder,
      now,
    ]);
    return rows.map((r) => r.name).sort();
  }

  async release(name: string, holder: string): Promise<boolean> {
    return (await this.run.exec('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder])) === 1;
  }

  releaseAll(holder: string): Promise<number> {
    return this.run.exec('DELETE FROM leases WHERE holder = $1', [holder]);
  }

  async get(name: string): Promise<Lease | undefined> {
    return (await this.run.rows<Lease>(`SELECT ${LEASE_COLUMNS} FROM leases WHERE name = $1`, [name]))[0];
  }

  prune(before: number): Promise<number> {
    return this.run.exec('DELETE FROM leases WHERE expires_at < $1', [before]);
  }

  list(): Promise<Lease[]> {
    return this.run.rows<Lease>(`SELECT ${LEASE_COLUMNS} FROM leases ORDER BY name`);
  }
}

export class PgInstanceRepo implements InstanceRepo {
  constructor(private readonly run: Runner) {}

  async heartbeat(instance: { id: string; host: string; pid: number; startedAt: number }, now: number, ttlMs: number): Promise<void> {
    await this.run.exec(
      `INSERT INTO instances (id, host, pid, started_at, heartbeat_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, started_at = EXCLUDED.started_at,
         heartbeat_at = EXCLUDED.heartbeat_at, expires_at = EXCLUDED.expires_at`,
      [instance.id, instance.host, instance.pid, instance.startedAt, now, now + ttlMs],
    );
  }

  async remove(id: string): Promise<void> {
    await this.run.exec('DELETE FROM instances WHERE id = $1', [id]);
  }

  prune(before: number): Promise<number> {
    return this.run.exec('DELETE FROM instances WHERE expires_at < $1', [before]);
  }

  list(): Promise<InstanceRecord[]> {
    return this.run.rows<InstanceRecord>(
      'SELECT id, host, pid, started_at AS "startedAt", heartbeat_at AS "heartbeatAt", expires_at AS "expiresAt" FROM instances ORDER BY id',
    );
  }
}
