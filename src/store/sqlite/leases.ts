import { prepare, type Runner } from './db.js';
import type { InstanceRecord, InstanceRepo, Lease, LeaseRepo } from '../../core/store/types.js';

const LEASE_COLUMNS = 'name, holder, acquired_at AS acquiredAt, expires_at AS expiresAt';

/**
 * Leases on the embedded engine. One process uses the file, so a lease is rarely contended here;
 * the gateway takes them all the same, so SQLite and PostgreSQL run one code path.
 */
export class SqliteLeaseRepo implements LeaseRepo {
  constructor(private readonly run: Runner) {}

  private async ready(): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
  }

  async acquire(name: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
    await this.ready();
    const r = prepare(
      this.run.db,
      `INSERT INTO leases (name, holder, acquired_at, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET
         acquired_at = CASE WHEN leases.holder = excluded.holder THEN leases.acquired_at ELSE excluded.acquired_at END,
         holder = excluded.holder, expires_at = excluded.expires_at
       WHERE leases.holder = excluded.holder OR leases.expires_at <= excluded.acquired_at`,
    ).run(name, holder, now, now + ttlMs);
    return r.changes === 1;
  }

  async renewAll(holder: string, now: number, ttlMs: number): Promise<string[]> {
    await this.ready();
    const rows = prepare(this.run.db, 'UPDATE leases SET expires_at = ? WHERE holder = ? AND expires_at > ? RETURNING name').all(now + ttlMs, holder, now) as Array<{
      name: string;
    }>;
    return rows.map((r) => r.name).sort();
  }

  async release(name: string, holder: string): Promise<boolean> {
    await this.ready();
    return prepare(this.run.db, 'DELETE FROM leases WHERE name = ? AND holder = ?').run(name, holder).changes === 1;
  }

  async releaseAll(holder: string): Promise<number> {
    await this.ready();
    return prepare(this.run.db, 'DELETE FROM leases WHERE holder = ?').run(holder).changes;
  }

  async get(name: string): Promise<Lease | undefined> {
    await this.ready();
    return prepare(this.run.db, `SELECT ${LEASE_COLUMNS} FROM leases WHERE name = ?`).get(name) as Lease | undefined;
  }

  async prune(before: number): Promise<number> {
    await this.ready();
    return prepare(this.run.db, 'DELETE FROM leases WHERE expires_at < ?').run(before).changes;
  }

  async list(): Promise<Lease[]> {
    await this.ready();
    return prepare(this.run.db, `SELECT ${LEASE_COLUMNS} FROM leases ORDER BY name`).all() as Lease[];
  }
}

export class SqliteInstanceRepo implements InstanceRepo {
  constructor(private readonly run: Runner) {}

  private async ready(): Promise<void> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
  }

  async heartbeat(instance: { id: string; host: string; pid: number; startedAt: number }, now: number, ttlMs: number): Promise<void> {
    await this.ready();
    prepare(
      this.run.db,
      `INSERT INTO instances (id, host, pid, started_at, heartbeat_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, started_at = excluded.started_at,
         heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at`,
    ).run(instance.id, instance.host, instance.pid, instance.startedAt, now, now + ttlMs);
  }

  async remove(id: string): Promise<void> {
    await this.ready();
    prepare(this.run.db, 'DELETE FROM instances WHERE id = ?').run(id);
  }

  async prune(before: number): Promise<number> {
    await this.ready();
    return prepare(this.run.db, 'DELETE FROM instances WHERE expires_at < ?').run(before).changes;
  }

  async list(): Promise<InstanceRecord[]> {
    await this.ready();
    return prepare(
      this.run.db,
      'SELECT id, host, pid, started_at AS startedAt, heartbeat_at AS heartbeatAt, expires_at AS expiresAt FROM instances ORDER BY id',
    ).all() as InstanceRecord[];
  }
}
