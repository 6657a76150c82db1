/**
 * WAL checkpoints off the event loop (issue #14).
 *
 * In WAL mode every commit appends the pages it changed to `state.db-wal`; a checkpoint copies them
 * back into `state.db`. With `synchronous = NORMAL` the checkpoint is the only moment SQLite waits
 * for the disk: it fsyncs the log, copies, and fsyncs the database — about 16 µs a page here, so the
 * ~21 pages a message writes cost a stall of 20–110 ms every few hundred messages when SQLite runs
 * the checkpoint itself, inside whichever commit crossed `wal_autocheckpoint`. better-sqlite3 is
 * synchronous, so that stall froze the whole gateway: every door, every turn.
 *
 * A worker thread with its own connection runs `PRAGMA wal_checkpoint(PASSIVE)` whenever the log
 * has grown (`data_version` changed): every 50 ms under load, once a second when quiet. PASSIVE takes
 * no lock a writer needs: the gateway keeps committing while the worker copies and waits for the
 * disk. The connection's own `wal_autocheckpoint` stays as it was, as the fallback: under a load that
 * never pauses the log is never wholly copied at the moment a writer could start it over, so the
 * connection's checkpoint still runs when the log reaches its size — and finds nearly everything
 * copied and synced already (db.ts cuts the log file back to that size when it starts over). Should
 * the worker not start or die, nothing changes but where the waiting happens.
 *
 * The worker (about 8 MiB: a V8 isolate of its own) starts only once the connection has committed
 * START_AFTER_COMMITS transactions, so one-shot commands and a quiet gateway never pay for it.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

/** Transactions committed before the worker is started. */
export const START_AFTER_COMMITS = 100;
/**
 * How often the worker looks whether the log grew, ms: every MIN while it keeps growing, so what the
 * connection's own checkpoint finds left to copy stays small; doubling up to MAX while it does not.
 */
export const CHECK_MIN_MS = 50;
export const CHECK_MAX_MS = 1000;

/**
 * The worker's program (CommonJS, run with `eval`: the bundle needs no file of its own). It opens the
 * database with a timeout of 0 (it never waits on a lock: a checkpoint that cannot run now is tried
 * at the next look) and the same `synchronous` as the gateway's connection.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true, timeout: 0 });
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -256');
const version = db.prepare('PRAGMA data_version').pluck();
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let seen = -1;
let runs = 0;
let wait = workerData.minMs;
let timer = null;
const look = () => {
  try {
    const now = version.get();
    if (now === seen) {
      // Quiet: look less often, at most every maxMs.
      wait = Math.min(wait * 2, workerData.maxMs);
      return;
    }
    seen = now;
    wait = workerData.minMs;
    const row = checkpoint.get();
    runs++;
    parentPort.postMessage({ runs, log: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  } finally {
    if (timer !== null) timer = setTimeout(look, wait);
  }
};
timer = setTimeout(look, wait);
parentPort.on('message', (m) => {
  if (m !== 'close') return;
  clearTimeout(timer);
  timer = null;
  db.close();
  parentPort.close();
});
`;

export interface CheckpointReport {
  /** Checkpoints the worker ran. */
  runs: number;
  /** Frames in the log and frames copied into the database at the last one. */
  log: number;
  checkpointed: number;
}

/** Starts and stops the checkpoint worker of one database file. */
export class WalCheckpointer {
  private commits = 0;
  /** Started once: a worker that failed is not started again (checkpoints stay the connection's). */
  private started = false;
  private worker: Worker | null = null;
  private exited: Promise<void> | null = null;
  private closed = false;
  private last: CheckpointReport = { runs: 0, log: 0, checkpointed: 0 };
  private failure: string | null = null;

  constructor(
    private readonly path: string,
    private readonly options: {
      startAfterCommits?: number;
      minMs?: number;
      maxMs?: number;
      /** Told once when checkpoints fall back to the connection's own (the worker stopped or its looks fail). */
      onFailure?: (reason: string) => void;
    } = {},
  ) {}

  /** A transaction committed on the gateway's connection: starts the worker at the threshold. */
  committed(): void {
    if (this.started || this.closed) return;
    if (++this.commits < (this.options.startAfterCommits ?? START_AFTER_COMMITS)) return;
    this.start();
  }

  /** True while the worker runs. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** What the worker last reported (tests). */
  get report(): CheckpointReport {
    return this.last;
  }

  /** The worker's last error, if its last look failed. */
  get error(): string | null {
    return this.failure;
  }

  private start(): void {
    this.started = true;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.path, module: createRequire(import.meta.url).resolve('better-sqlite3'), minMs: this.options.minMs ?? CHECK_MIN_MS, maxMs: this.options.maxMs ?? CHECK_MAX_MS },
      // The worker holds a handful of objects: a small heap, so its isolate stays small.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    worker.on('message', (m: CheckpointReport | { error: string }) => {
      if ('error' in m) this.failed(m.error);
      else {
        this.last = m;
        this.failure = null;
      }
    });
    // A worker that fails leaves checkpoints to the connection's own wal_autocheckpoint.
    worker.on('error', (error) => this.failed(error.message));
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    void this.exited.then(() => {
      if (this.worker === worker) this.worker = null;
    });
    this.worker = worker;
  }

  private failed(reason: string): void {
    // Said once per failure: a look that fails every 50 ms is one line, not a flood.
    if (this.failure === null) this.options.onFailure?.(reason);
    this.failure = reason;
  }

  /**
   * Stops the worker and closes its connection, before the gateway's connection closes (the last
   * connection to close checkpoints the whole log and removes it).
   */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    worker.postMessage('close');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 2000)));
    if ((await Promise.race([this.exited, late])) === 'late') await worker.terminate();
    clearTimeout(timer);
    this.worker = null;
  }
}
