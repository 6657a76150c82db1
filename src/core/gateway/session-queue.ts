import { getEventListeners } from 'node:events';
import type { InboundMessage } from '../types.js';

/**
 * How many /stop controllers of finished turns are kept for the next turns. On Node 20 an
 * AbortSignal is never collected by a scavenge: each one made for a turn and dropped after it
 * became about 0.9 KB of old-space garbage (a loop making one per operation: 870 B an operation
 * outlived a scavenge, against 14 B without), which grows the heap until a full collection. A
 * controller that was not aborted and that nobody listens to any more is as good as new.
 */
const SPARE_CONTROLLERS = 64;

/**
 * Per-session turn queue (DESIGN §7): one turn at a time per session; messages that arrive during a
 * turn wait (at most `maxQueued`) and are answered together in one follow-up turn, in arrival order.
 */
export class SessionQueues {
  /** `controller`: the /stop of the session's next or running turn, made when first asked for (most turns are never stopped). */
  private readonly running = new Map<string, { controller: AbortController | null; waiting: InboundMessage[] }>();
  private readonly spare: AbortController[] = [];

  constructor(private readonly maxQueued: number) {}

  isRunning(key: string): boolean {
    return this.running.has(key);
  }

  /** 'start' = caller runs a turn now; 'queued' = it will be picked up; 'full' = too many waiting. */
  offer(key: string, message: InboundMessage): 'start' | 'queued' | 'full' {
    const entry = this.running.get(key);
    if (!entry) {
      this.running.set(key, { controller: null, waiting: [] });
      return 'start';
    }
    if (entry.waiting.length >= this.maxQueued) return 'full';
    entry.waiting.push(message);
    return 'queued';
  }

  signal(key: string): AbortSignal {
    const entry = this.running.get(key)!;
    return (entry.controller ??= this.spare.pop() ?? new AbortController()).signal;
  }

  /** A finished turn's controller goes back to the spares unless it was aborted or still has a listener. */
  private recycle(controller: AbortController | null): void {
    if (!controller || controller.signal.aborted || this.spare.length >= SPARE_CONTROLLERS) return;
    if (getEventListeners(controller.signal, 'abort').length === 0) this.spare.push(controller);
  }

  /** After a turn: the messages to answer next (all that waited), or null when the session is idle again. */
  next(key: string): InboundMessage[] | null {
    const entry = this.running.get(key);
    if (!entry) return null;
    this.recycle(entry.controller);
    if (!entry.waiting.length) {
      this.running.delete(key);
      return null;
    }
    const batch = entry.waiting;
    this.running.set(key, { controller: null, waiting: [] });
    return batch;
  }

  /** Before the next turn of a running session: a fresh /stop signal; the waiting ones are in the journal. */
  reset(key: string): void {
    const entry = this.running.get(key);
    if (!entry) return;
    this.recycle(entry.controller);
    entry.controller = null;
    if (entry.waiting.length) entry.waiting = [];
  }

  /** The session is idle again (its loop ended). */
  finish(key: string): void {
    const entry = this.running.get(key);
    if (!entry) return;
    this.recycle(entry.controller);
    this.running.delete(key);
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
