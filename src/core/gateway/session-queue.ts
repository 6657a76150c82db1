import type { InboundMessage } from '../types.js';

/**
 * Per-session turn queue (ARCHITECTURE.md §7): one turn at a time per session; messages that arrive during a
 * turn wait (at most `maxQueued`) and are answered together in one follow-up turn, in arrival order.
 */
export class SessionQueues {
  /**
   * `controller`: the /stop of the session's next or running turn, made when first asked for (most
   * turns are never stopped). A new one each turn: recycling those of finished turns saved 0.2–0.3 %
   * of a message's CPU (docs/bespoke.md), not worth its rules.
   */
  private readonly running = new Map<string, { controller: AbortController | null; waiting: InboundMessage[]; queued: boolean }>();

  constructor(private readonly maxQueued: number) {}

  isRunning(key: string): boolean {
    return this.running.has(key);
  }

  /** 'start' = caller runs a turn now; 'queued' = it will be picked up; 'full' = too many waiting. */
  offer(key: string, message: InboundMessage): 'start' | 'queued' | 'full' {
    const entry = this.running.get(key);
    if (!entry) {
      this.running.set(key, { controller: null, waiting: [], queued: false });
      return 'start';
    }
    if (entry.waiting.length >= this.maxQueued) return 'full';
    entry.waiting.push(message);
    entry.queued = true;
    return 'queued';
  }

  signal(key: string): AbortSignal {
    const entry = this.running.get(key)!;
    return (entry.controller ??= new AbortController()).signal;
  }

  /** After a turn: the messages to answer next (all that waited), or null when the session is idle again. */
  next(key: string): InboundMessage[] | null {
    const entry = this.running.get(key);
    if (!entry) return null;
    if (!entry.waiting.length) {
      this.running.delete(key);
      return null;
    }
    const batch = entry.waiting;
    this.running.set(key, { controller: null, waiting: [], queued: entry.queued });
    return batch;
  }

  /** Before the next turn of a running session: a fresh /stop signal; the waiting ones are in the journal. */
  reset(key: string): void {
    const entry = this.running.get(key);
    if (!entry) return;
    entry.controller = null;
    if (entry.waiting.length) entry.waiting = [];
  }

  /** The session is idle again (its loop ended): true when a message was queued behind its turns at any time. */
  finish(key: string): boolean {
    const entry = this.running.get(key);
    if (!entry) return false;
    this.running.delete(key);
    return entry.queued;
  }

  /** /stop: cancels the running turn. True if one was running. */
  cancel(key: string): boolean {
    const entry = this.running.get(key);
    if (!entry) return false;
    (entry.controller ??= new AbortController()).abort();
    return true;
  }

  cancelAll(): void {
    for (const entry of this.running.values()) (entry.controller ??= new AbortController()).abort();
  }

  get size(): number {
    return this.running.size;
  }
}

/** A counting semaphore bounding turns across sessions. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  async acquire(): Promise<() => void> {
    // A released slot is handed straight to the first waiter (active stays the same), so an
    // acquire() between the release and the waiter waking cannot take it as well.
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
