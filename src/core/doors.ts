/**
 * Doors under leases (ARCHITECTURE.md §9). A door whose intake has one consumer per bot
 * (`Adapter.exclusiveIntake`: Telegram long polling, the Discord gateway, the IMAP mailbox) runs on
 * one instance at a time, under the lease `door:<platform>`; the other instances stand by and try
 * again at every heartbeat, so one takes the door over within the lease TTL plus a heartbeat once
 * its holder dies. Stopping finishes the last poll (`adapter.stop()` confirms what it handled)
 * before the lease goes, so two instances never poll at once. Other doors run everywhere. Outbound
 * (`deliver`) works on every instance either way.
 */
import type { Adapter, InboundHandler } from './types.js';
import type { PlatformId } from '../platform/ids.js';
import { doorOf } from '../platform/doors/index.js';
import type { Store } from './store/types.js';
import type { Logger } from './logger.js';
import type { Presence } from './presence.js';
import { oneLine } from './errors.js';

/** What the console and `doctor` show of one door. */
export interface DoorStatus {
  platform: PlatformId;
  /** Whether the door runs under a lease (one instance at a time). */
  exclusive: boolean;
  /** running: this instance takes its events; standby: another instance holds it (or nobody yet); stopped: not started. */
  state: 'running' | 'standby' | 'stopped';
  /** The instance holding the door's lease (exclusive doors), or null when none does. */
  holder: string | null;
  /** This instance's id. */
  instance: string;
}

/** `work`, or what `late()` returns (or throws) once `ms` have passed without it settling. */
function within<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export const doorLease = (platform: PlatformId): string => `door:${platform}`;

/** Each door's own log lines while the doors open together (see DoorKeeper.open). */
export interface DoorLogs {
  /** Writes what the door has logged so far, and from then on each line as it comes. */
  release(platform: PlatformId): void;
  /** Forgets what the door has logged, and whatever it logs later. */
  drop(platform: PlatformId): void;
}

interface Door {
  adapter: Adapter;
  state: DoorStatus['state'];
  /** A start or stop in progress: transitions of one door never overlap. */
  busy: Promise<void> | null;
}

export interface DoorKeeperDeps {
  store: Store;
  presence: Presence;
  logger: Logger;
  /** How long a door may take to connect before the start fails (default DOOR_OPEN_TIMEOUT_MS). */
  openTimeoutMs?: number;
}

/** A door that has not connected after this long fails the start with one line (a hung server, a black-holed address). */
export const DOOR_OPEN_TIMEOUT_MS = 30_000;

/** How long a stop waits for one door (a door still connecting may never answer). */
const DOOR_STOP_WAIT_MS = 5_000;

export class DoorKeeper {
  private readonly doors = new Map<PlatformId, Door>();
  private handler: InboundHandler | undefined;
  private closing = false;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(private readonly deps: DoorKeeperDeps) {}

  /**
   * Opens every door, all at once (their connections' round trips overlap): non-exclusive ones start
   * now; an exclusive one starts when its lease is free, else it stands by. When a door fails (bad
   * credentials are one error line), open() rejects with the error of the first failing door in
   * `adapters` order once every door has settled; the doors that did start are stopped by close().
   * The terminal (cli) starts after the others are up.
   *
   * The log reads as if the doors had opened one by one, in order: with `logs`, what each door logs
   * while the doors open is held, then told door by door up to the first failing one; the lines of
   * the doors after it (which a one-by-one start would never have started) are dropped.
   */
  async open(adapters: readonly Adapter[], handler: InboundHandler, logs?: DoorLogs): Promise<void> {
    this.handler = handler;
    this.unsubscribe.push(this.deps.presence.onTick(() => void this.retryStandby()));
    this.unsubscribe.push(this.deps.presence.onLost((name) => void this.lost(name)));
    const doors = adapters.map((adapter) => {
      const door: Door = { adapter, state: 'stopped', busy: null };
      this.doors.set(adapter.platform, door);
      return door;
    });
    const notes = new Map<Door, string>();
    const start = (door: Door) => this.transition(door, () => this.openDoor(door, handler, (note) => notes.set(door, note)));
    const network = doors.filter((d) => d.adapter.platform !== 'cli');
    // Each door's outcome in order: the first failure decides as soon as the doors before it have
    // settled, without waiting for the doors after it (one of them may hang).
    const outcomes = network.map((door) => start(door).then(() => null, (error: unknown) => ({ error })));
    for (const [i, door] of network.entries()) {
      const outcome = await outcomes[i];
      logs?.release(door.adapter.platform);
      const note = notes.get(door);
      if (note) this.deps.logger.info('doors', note);
      if (outcome) {
        for (const later of network.slice(i + 1)) logs?.drop(later.adapter.platform);
        throw outcome.error;
      }
    }
    // The terminal last: its prompt shows once the other doors are up, never before a failed start's error.
    for (const door of doors.filter((d) => d.adapter.platform === 'cli')) {
      logs?.release(door.adapter.platform);
      await start(door);
    }
  }

  /** `adapter.start(handler)`, failing with one line when the door has not connected in time. */
  private startWithin(adapter: Adapter, handler: InboundHandler): Promise<void> {
    const ms = this.deps.openTimeoutMs ?? DOOR_OPEN_TIMEOUT_MS;
    return within(adapter.start(handler), ms, () => {
      // The variable that says where the door connects (its definition's endpoint).
      const setting = doorOf(adapter.platform)?.variables.endpoint;
      throw new Error(`${adapter.platform}: no answer after ${Math.round(ms / 1000)} s while connecting${setting ? ` (check ${setting} and the network)` : ''}`);
    });
  }

  private async openDoor(door: Door, handler: InboundHandler, note: (line: string) => void): Promise<void> {
    const { adapter } = door;
    if (!adapter.exclusiveIntake) {
      await this.startWithin(adapter, handler);
      door.state = 'running';
    } else if (await this.deps.presence.acquire(doorLease(adapter.platform))) {
      try {
        await this.startWithin(adapter, handler);
      } catch (error) {
        await this.deps.presence.release(doorLease(adapter.platform)).catch(() => undefined);
        throw error;
      }
      door.state = 'running';
    } else {
      door.state = 'standby';
      note(`${adapter.platform}: standby (${await this.holderOf(adapter.platform)} holds the door)`);
    }
  }

  /** The doors' state, with the lease holder of each exclusive door. */
  async status(): Promise<DoorStatus[]> {
    const out: DoorStatus[] = [];
    for (const [platform, door] of this.doors) {
      const exclusive = Boolean(door.adapter.exclusiveIntake);
      out.push({
        platform,
        exclusive,
        state: door.state,
        holder: exclusive ? await this.holderOf(platform).catch(() => null) : null,
        instance: this.deps.presence.id,
      });
    }
    return out;
  }

  /** Stops intake on every door; an exclusive door's lease goes only after its last poll is confirmed. */
  async close(): Promise<void> {
    this.closing = true;
    this.unsubscribe.splice(0).forEach((f) => f());
    // A door still connecting (its start never answered) is not waited for past DOOR_STOP_WAIT_MS.
    await Promise.allSettled(
      [...this.doors.values()].map((door) => within(this.transition(door, () => this.stopDoor(door)), DOOR_STOP_WAIT_MS, () => undefined)),
    );
  }

  private async stopDoor(door: Door): Promise<void> {
    const wasRunning = door.state === 'running';
    door.state = 'stopped';
    try {
      if (wasRunning) await door.adapter.stop();
    } finally {
      if (door.adapter.exclusiveIntake) await this.deps.presence.release(doorLease(door.adapter.platform));
    }
  }

  private async holderOf(platform: PlatformId): Promise<string | null> {
    const lease = await this.deps.store.leases.get(doorLease(platform));
    return lease && lease.expiresAt > Date.now() ? lease.holder : null;
  }

  private transition(door: Door, fn: () => Promise<void>): Promise<void> {
    const run = (door.busy ?? Promise.resolve()).then(fn);
    const settled = run.catch(() => undefined).finally(() => {
      if (door.busy === settled) door.busy = null;
    });
    door.busy = settled;
    return run;
  }

  /** Standby doors try for their lease at every heartbeat. */
  private async retryStandby(): Promise<void> {
    if (this.closing || !this.handler) return;
    for (const door of this.doors.values()) {
      if (door.state !== 'standby' || door.busy) continue;
      void this.transition(door, async () => {
        const platform = door.adapter.platform;
        if (this.closing || door.state !== 'standby' || !(await this.deps.presence.acquire(doorLease(platform)))) return;
        try {
          await door.adapter.start(this.handler!);
          door.state = 'running';
          this.deps.logger.info('doors', `${platform}: took the door over (this instance ${this.deps.presence.id} runs it now)`);
        } catch (error) {
          this.deps.logger.warn('doors', `${platform}: could not take the door over: ${oneLine(error)}`);
          await this.deps.presence.release(doorLease(platform)).catch(() => undefined);
        }
      }).catch((error: unknown) => this.deps.logger.warn('doors', `${door.adapter.platform}: ${oneLine(error)}`));
    }
  }

  /** The lease was lost (this instance could not renew it in time): stop polling at once and stand by. */
  private async lost(name: string): Promise<void> {
    for (const door of this.doors.values()) {
      if (doorLease(door.adapter.platform) !== name || door.state !== 'running') continue;
      await this.transition(door, async () => {
        if (door.state !== 'running') return;
        door.state = 'standby';
        await door.adapter.stop();
        this.deps.logger.warn('doors', `${door.adapter.platform}: lost the door's lease; standing by`);
      }).catch((error: unknown) => this.deps.logger.warn('doors', `${door.adapter.platform}: ${oneLine(error)}`));
    }
  }
}
