/**
 * Notices an IMAP connection whose server stopped answering without closing it (a hung server, a link
 * that drops packets, a NAT that forgot the connection): without this, imapflow's socket timeout (5 min)
 * is the first to see it, and until then `/readyz` calls the mailbox read. Every `everyMs` a NOOP
 * (imapflow breaks IDLE for it and goes back to IDLE a second later); when it has no answer within
 * `deadlineMs` and not one byte came from the server meanwhile — a long FETCH streaming in is an answer
 * too — the connection is hung.
 */
import type { ImapFlow } from 'imapflow';

export interface LivenessOptions {
  /** How long the connection may be quiet before a NOOP asks whether the server is there. */
  everyMs: number;
  /** How long that NOOP may go unanswered, with nothing else arriving, before the connection is hung. */
  deadlineMs: number;
}

/** A hung connection is noticed within 20 s at most, for three small commands per 15 s. */
export const IMAP_LIVENESS: LivenessOptions = { everyMs: 15_000, deadlineMs: 5_000 };

/** Probes `client` until the returned stop is called; `onHung` runs at most once, and then probing ends. */
export function watchLiveness(client: Pick<ImapFlow, 'noop' | 'stats'>, options: LivenessOptions, onHung: () => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const later = (ms: number, then: () => void) => {
    timer = setTimeout(then, ms);
    timer.unref();
  };
  const probe = () => {
    if (stopped) return;
    let answered = false;
    // A failed NOOP means the connection closed or errored; the intake's close handler reports that.
    client.noop().then(
      () => (answered = true),
      () => (answered = true),
    );
    const check = (receivedBefore: number) => {
      if (stopped) return;
      if (answered) return later(options.everyMs, probe);
      const received = client.stats().received;
      if (received === receivedBefore) {
        stopped = true;
        onHung();
        return;
      }
      later(options.deadlineMs, () => check(received)); // bytes are coming: the NOOP waits its turn
    };
    const before = client.stats().received;
    later(options.deadlineMs, () => check(before));
  };
  later(options.everyMs, probe);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
