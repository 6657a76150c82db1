/**
 * This instance on the shared database (ARCHITECTURE.md §9): its row in `instances`, refreshed by a
 * heartbeat, and the leases it holds (`session:<key>`, `door:<platform>`), all renewed by the same
 * tick. A lease the tick could not renew was lost (it expired and another instance took it): the
 * listeners hear of it, so a door stops polling at once.
 */
import { hostname } from 'node:os';
import type { LeaseClaim, Repositories, Store } from './store/types.js';
import type { Logger } from './logger.js';
import { oneLine } from './errors.js';

/** How long leases live and how often they are renewed (`gateway.lease_seconds`). */
export interface LeaseTiming {
  /** A lease (and a heartbeat) not renewed within this is free for another instance. */
  ttlMs: number;
  /** Renewal, heartbeat and standby retry period: a third of the TTL, so two ticks may fail. */
  renewMs: number;
}

export function leaseTiming(leaseSeconds: number): LeaseTiming {
  const ttlMs = Math.round(leaseSeconds * 1000);
  return { ttlMs, renewMs: Math.max(100, Math.round(ttlMs / 3)) };
}

/** Instance rows and leases expired longer than this are removed at the next start of any instance. */
const STALE_AFTER_MS = 24 * 60 * 60_000;

export interface PresenceDeps {
  store: Store;
  instanceId: string;
  timing: LeaseTiming;
  logger: Logger;
  now: () => Date;
}

export class Presence {
  readonly id: string;
  readonly timing: LeaseTiming;
  /** Leases this instance believes it holds, with the tick number they were taken in. */
  private readonly held = new Map<string, number>();
  /** Leases being given up inside a transaction that has not ended yet (see `releaseIn`). */
  private readonly releasing = new Set<string>();
  private readonly lostListeners = new Set<(name: string) => void>();
  private readonly tickListeners = new Set<() => void>();
  private tickNo = 0;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private readonly startedAt: number;

  constructor(private readonly deps: PresenceDeps) {
    this.id = deps.instanceId;
    this.timing = deps.timing;
    this.startedAt = deps.now().getTime();
  }

  /** Registers the instance, frees what dead processes of this machine held (SQLite), starts the heartbeat. */
  async start(): Promise<void> {
    if (this.timer) return;
    if (this.deps.store.engine === 'sqlite') await this.freeDeadLocalHolders();
    // Rows of instances that died long ago (doctor shows the recent ones as "stopped without a clean stop").
    const longAgo = this.deps.now().getTime() - STALE_AFTER_MS;
    await this.deps.store.leases.prune(longAgo);
    await this.deps.store.instances.prune(longAgo);
    await this.beat();
    this.timer = setInterval(() => void this.tick(), this.timing.renewMs);
    this.timer.unref();
  }

  /** Takes (or renews) a lease for this instance. */
  async acquire(name: string): Promise<boolean> {
    const ok = await this.deps.store.leases.acquire(name, this.id, this.deps.now().getTime(), this.timing.ttlMs);
    if (ok) this.held.set(name, this.tickNo);
    return ok;
  }

  async release(name: string): Promise<void> {
    this.held.delete(name);
    await this.deps.store.leases.release(name, this.id);
  }

  /**
   * Gives `name` up inside the open transaction `tx`, so it goes with what that transaction
   * commits (a turn's answer). The lease stays held here until `settled` says how the transaction
   * ended; meanwhile the renewal does not count it as lost.
   */
  async releaseIn(tx: Pick<Repositories, 'leases'>, name: string): Promise<void> {
    this.releasing.add(name);
    await tx.leases.release(name, this.id);
  }

  /**
   * Takes `name` through `take`: a store call that acquires it for this instance together with other
   * work in the same statement (Store.turns.begin). Held afterwards when `take` says `acquired`.
   */
  async acquireWith<T extends { acquired: boolean }>(name: string, take: (lease: LeaseClaim) => Promise<T>): Promise<T> {
    const result = await take({ name, holder: this.id, now: this.deps.now().getTime(), ttlMs: this.timing.ttlMs });
    if (result.acquired) this.held.set(name, this.tickNo);
    return result;
  }

  /**
   * Gives `name` up through `give`: a store call that may release it together with other writes in one
   * statement or transaction (Store.turns.commit), and says whether it did. Meanwhile the renewal does
   * not count it as lost; when `give` fails the lease is still held here.
   */
  async releaseWith<T>(name: string, give: (lease: { name: string; holder: string }) => Promise<T>, released: (result: T) => boolean): Promise<T> {
    this.releasing.add(name);
    try {
      const result = await give({ name, holder: this.id });
      if (released(result)) this.held.delete(name);
      return result;
    } finally {
      this.releasing.delete(name);
    }
  }

  /** The transaction of `releaseIn` ended: committed, the lease is gone; rolled back, still held. */
  settled(name: string, committed: boolean): void {
    this.releasing.delete(name);
    if (committed) this.held.delete(name);
  }

  holds(name: string): boolean {
    return this.held.has(name);
  }

  /** Called with the name of each lease found lost at a renewal. */
  onLost(listener: (name: string) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Called after each heartbeat (standby doors retry then, the sweep runs then). */
  onTick(listener: () => void): () => void {
    this.tickListeners.add(listener);
    return () => this.tickListeners.delete(listener);
  }

  /** Stops the heartbeat, gives every lease up and removes the instance row (clean stop). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    const wasStarted = this.timer !== undefined;
    this.timer = undefined;
    await this.ticking;
    this.held.clear();
    this.releasing.clear();
    try {
      await this.deps.store.leases.releaseAll(this.id);
      if (wasStarted) await this.deps.store.instances.remove(this.id);
    } catch (error) {
      this.deps.logger.warn('instances', `could not release this instance's leases (they expire by themselves): ${oneLine(error)}`);
    }
  }

  private tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = this.beat()
      .then(() => this.tickListeners.forEach((f) => f()))
      .catch((error: unknown) => this.deps.logger.warn('instances', `heartbeat failed: ${oneLine(error)}`))
      .finally(() => (this.ticking = null));
    return this.ticking;
  }

  private async beat(): Promise<void> {
    const { store, now } = this.deps;
    const tick = ++this.tickNo;
    const at = now().getTime();
    await store.instances.heartbeat({ id: this.id, host: hostname(), pid: process.pid, startedAt: this.startedAt }, at, this.timing.ttlMs);
    const renewed = new Set(await store.leases.renewAll(this.id, at, this.timing.ttlMs));
    for (const [name, since] of this.held) {
      // Taken during this renewal: its own expiry is fresh, whatever the renewal saw. Being given
      // up in a transaction: gone once it commits (then no longer held); a rollback kept the row.
      if (since >= tick || renewed.has(name) || this.releasing.has(name)) continue;
      this.held.delete(name);
      this.deps.logger.warn('instances', `lease ${name} was lost (not renewed in time; another instance may hold it now)`);
      this.lostListeners.forEach((f) => f(name));
    }
  }

  /**
   * With SQLite every instance runs on this machine: a lease held by a process that no longer
   * exists (killed) is free at once, so a restart does not wait for the TTL.
   */
  private async freeDeadLocalHolders(): Promise<void> {
    const { store } = this.deps;
    const host = hostname();
    for (const instance of await store.instances.list()) {
      if (instance.id === this.id || instance.host !== host || processAlive(instance.pid)) continue;
      await store.leases.releaseAll(instance.id);
      await store.instances.remove(instance.id);
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
