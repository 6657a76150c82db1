/**
 * Which code runs inside a store's transaction, so that a call on the store's own repositories from
 * there fails at once (issue 37). Both have the same type, and the mistake is easy: on SQLite such a
 * call waits for the transaction to end (one connection), which waits for the call — forever, and
 * silently; on PostgreSQL it runs on another pooled connection outside the transaction, sees none of
 * its writes and may wait on a row lock the transaction holds.
 *
 * The transaction's callback runs in an AsyncLocalStorage frame that the calls it makes, however deep,
 * carry with them; the engines ask `assertOutside()` before every call on the store's own repositories.
 * AsyncLocalStorage makes Node run a hook for every promise created while it is enabled, so it is
 * enabled only while one of this store's transactions is open (measured: always on, it added about a
 * tenth to the CPU time of a store-bound loop). A frame outlives its transaction in work the
 * transaction started and left behind (a timer, a promise it did not await); `open` tells those apart.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { StorageError } from '../core/errors.js';

/** A call on the store's own repositories (or a second transaction) from inside one of its transactions. */
export class TransactionMisuseError extends StorageError {
  constructor() {
    super(
      "a call on the store was made inside store.transaction(): use the transaction's repositories (tx.*) there — " +
        'the store itself waits for the transaction to end (SQLite) or runs outside it (PostgreSQL)',
    );
    this.name = 'TransactionMisuseError';
  }
}

interface Frame {
  open: boolean;
}

export class TransactionScope {
  private readonly frames = new AsyncLocalStorage<Frame>();
  private openCount = 0;

  /** Runs `fn` as one transaction's callback: calls it makes on the store throw until it has settled. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const frame: Frame = { open: true };
    this.openCount++;
    try {
      return await this.frames.run(frame, fn);
    } finally {
      frame.open = false;
      // The last open transaction ended: no promise hooks until the next one begins.
      if (--this.openCount === 0) this.frames.disable();
    }
  }

  /** Throws TransactionMisuseError when called from inside one of this store's open transactions. */
  assertOutside(): void {
    if (this.openCount && this.frames.getStore()?.open) throw new TransactionMisuseError();
  }
}
