/**
 * CPU work off the event loop (ARCHITECTURE.md §6d): a few worker threads, started on the first job
 * and not keeping the process alive while idle, each doing one job at a time. What a thread runs is
 * the caller's (`spawn`); the protocol is `{ ready: true }` once the thread has loaded its code, then
 * `{ id, request }` in and `{ id, result }` or `{ id, error }` out. A job still running after
 * `timeoutMs` ends its thread — the job is rejected with WorkerTimeout and the next job gets a new
 * thread — and a thread that dies (an uncaught error, out of memory, an exit) or is not ready within
 * `startTimeoutMs` rejects its job with WorkerFailed; jobs waiting for a thread are not affected by
 * either. The timeout counts from when a ready thread takes the job: neither a queue behind a slow job
 * nor the loading of a new thread (on a busy machine, seconds) is counted against a job.
 */
import type { Worker } from 'node:worker_threads';

/** A job that took longer than the pool's timeout; its thread was ended. */
export class WorkerTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`took longer than ${timeoutMs} ms`);
    this.name = 'WorkerTimeout';
  }
}

/** A job its thread could not do: the thread reported an error, died or could not be started. */
export class WorkerFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerFailed';
  }
}

export interface WorkerPoolOptions {
  /** Starts one thread speaking the protocol above (may throw: the job it was for fails). */
  spawn: () => Worker;
  /** Most threads at once (at least 1). */
  size: number;
  /** A job still running after this ends its thread. */
  timeoutMs: number;
  /** A thread not ready after this is ended (default 30 s). */
  startTimeoutMs?: number;
}

/** What one job may set for itself. */
export interface JobOptions {
  /** This job's timeout instead of the pool's. */
  timeoutMs?: number;
  /** Buffers moved to the thread with the request, not copied (they are empty here afterwards). */
  transfer?: ArrayBuffer[];
}

interface Job<Req, Res> {
  request: Req;
  options: JobOptions;
  resolve: (result: Res) => void;
  reject: (error: Error) => void;
}

interface Slot<Req, Res> {
  worker: Worker;
  job: Job<Req, Res> | null;
  jobId: number;
  timer: NodeJS.Timeout | null;
  ready: boolean;
}

type Reply<Res> = { ready: true } | { id: number; result: Res; error?: undefined } | { id: number; error: string };

export class WorkerPool<Req, Res> {
  private readonly slots = new Set<Slot<Req, Res>>();
  private readonly queue: Job<Req, Res>[] = [];
  private nextId = 0;
  private closed = false;
  /** Threads started so far (a timeout or a death makes the next job start another). */
  started = 0;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Runs one job on a thread; rejects with WorkerTimeout or WorkerFailed. */
  run(request: Req, options: JobOptions = {}): Promise<Res> {
    if (this.closed) return Promise.reject(new WorkerFailed('the worker pool is closed'));
    return new Promise<Res>((resolve, reject) => {
      this.queue.push({ request, options, resolve, reject });
      this.dispatch();
    });
  }

  /** Threads running now (busy or idle). */
  get threads(): number {
    return this.slots.size;
  }

  /** Ends every thread; waiting and running jobs are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new WorkerFailed('the worker pool is closed'));
    const slots = [...this.slots];
    this.slots.clear();
    for (const slot of slots) this.release(slot)?.reject(new WorkerFailed('the worker pool is closed'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length && !this.closed) {
      let slot = [...this.slots].find((s) => s.job === null);
      if (!slot) {
        if (this.slots.size >= Math.max(1, this.options.size)) return;
        try {
          slot = this.start();
        } catch (error) {
          this.queue.shift()?.reject(new WorkerFailed(`the worker thread could not start: ${error instanceof Error ? error.message : String(error)}`));
          continue;
        }
      }
      this.assign(slot, this.queue.shift()!);
    }
  }

  private start(): Slot<Req, Res> {
    const worker = this.options.spawn();
    worker.unref();
    this.started++;
    const slot: Slot<Req, Res> = { worker, job: null, jobId: -1, timer: null, ready: false };
    const startTimeoutMs = this.options.startTimeoutMs ?? 30_000;
    const starting = setTimeout(() => {
      this.lost(slot, new WorkerFailed(`the worker thread was not ready within ${startTimeoutMs} ms`));
      void worker.terminate();
    }, startTimeoutMs);
    starting.unref(); // a thread loading is no reason to stay alive; one with a job is held by its ref
    worker.on('message', (reply: Reply<Res>) => {
      if ('ready' in reply) {
        clearTimeout(starting);
        slot.ready = true;
        if (slot.job) this.startClock(slot, slot.job);
        return;
      }
      if (slot.job === null || reply.id !== slot.jobId) return;
      const job = this.release(slot)!;
      if (reply.error !== undefined) job.reject(new WorkerFailed(reply.error));
      else job.resolve(reply.result);
      this.dispatch();
    });
    worker.on('error', (error: Error) => this.lost(slot, new WorkerFailed(`the worker thread failed: ${error.message}`)));
    worker.on('exit', (code: number) => {
      clearTimeout(starting);
      this.lost(slot, new WorkerFailed(`the worker thread stopped (exit code ${code})`));
    });
    this.slots.add(slot);
    return slot;
  }

  private assign(slot: Slot<Req, Res>, job: Job<Req, Res>): void {
    slot.job = job;
    slot.jobId = this.nextId++;
    // Held open while it has a job (its answer is awaited), let go when idle.
    slot.worker.ref();
    if (slot.ready) this.startClock(slot, job);
    try {
      slot.worker.postMessage({ id: slot.jobId, request: job.request }, job.options.transfer);
    } catch (error) {
      this.release(slot);
      job.reject(new WorkerFailed(`the job could not be sent: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  /** The job's timeout, from now (its thread is ready). */
  private startClock(slot: Slot<Req, Res>, job: Job<Req, Res>): void {
    const timeoutMs = job.options.timeoutMs ?? this.options.timeoutMs;
    slot.timer = setTimeout(() => {
      // Busy with this job for who knows how long: the thread is ended; the next job starts another.
      this.slots.delete(slot);
      this.release(slot);
      void slot.worker.terminate();
      job.reject(new WorkerTimeout(timeoutMs));
      this.dispatch();
    }, timeoutMs);
    slot.timer.unref();
  }

  /** The slot's job, taken off it; the slot is idle (and its thread unref'd) after. */
  private release(slot: Slot<Req, Res>): Job<Req, Res> | null {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
    return job;
  }

  private lost(slot: Slot<Req, Res>, error: WorkerFailed): void {
    if (!this.slots.delete(slot)) return;
    this.release(slot)?.reject(error);
    this.dispatch();
  }
}
