import type { OutboxItem, Store } from './store/types.js';
import type { Telemetry } from './telemetry.js';
import { partCount, type Adapter, type OutboundAttachment } from './types.js';
import { formatAddress, addressOf, type Address } from '../platform/address.js';
import type { Logger } from './logger.js';
import type { PlatformId } from '../platform/ids.js';
import { PlatformApiError, oneLine } from './errors.js';

export interface DeliveryOptions {
  store: Store;
  adapter: (platform: PlatformId) => Adapter | undefined;
  logger: Logger;
  now?: () => number;
  maxAttempts: number;
  /** Backoff for attempt n (1-based) when the platform gave no retry-after. */
  backoffMs?: (attempt: number) => number;
  /** How often the retry timer looks at the outbox. */
  pollMs?: number;
  /** Replies sent and failed deliveries for the metrics (ARCHITECTURE.md §18). */
  telemetry?: Telemetry;
}

/** How long a delivery attempt holds its item against other processes; renewed while the send runs. */
export const SEND_LEASE_MS = 10_000;

const defaultBackoff = (attempt: number): number => Math.min(1000 * 2 ** (attempt - 1), 5 * 60_000);

/**
 * The outbox dispatcher. Every reply is in SQLite before it is sent; chunks are marked as they go,
 * so a retry resumes after the last confirmed chunk (never lost, never twice). Replies to one chat
 * go strictly in order; different chats in parallel.
 */
export class DeliveryService {
  private readonly now: () => number;
  private readonly backoff: (attempt: number) => number;
  /** Chats being delivered, by their address text. */
  private readonly busy = new Set<string>();
  /** Chats kicked while their drain was running. */
  private readonly again = new Set<string>();
  /** Items taken when they were stored (handOver) whose chat's drain was running: its next look sends them. */
  private readonly handed = new Map<string, OutboxItem>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private pumping = false;
  private pumpAgain = false;
  private stopped = false;
  private readonly waiters = new Map<number, Array<(ok: boolean) => void>>();

  constructor(private readonly options: DeliveryOptions) {
    this.now = options.now ?? Date.now;
    this.backoff = options.backoffMs ?? defaultBackoff;
  }



  /** Starts the retry timer. */
  start(): void {
    this.stopped = false;
    if (!this.timer) {
      this.timer = setInterval(() => this.kick(), this.options.pollMs ?? 1000);
      this.timer.unref();
    }
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Resolves true once the outbox item is sent, false when it is parked as failed. */
  async waitFor(id: number): Promise<boolean> {
    const waiting = new Promise<boolean>((resolve) => {
      const list = this.waiters.get(id) ?? [];
      list.push(resolve);
      this.waiters.set(id, list);
    });
    const item = await this.options.store.outbox.get(id);
    if (item && item.status !== 'pending') {
      this.resolveWaiters(id, item.status === 'sent');
    }
    return waiting;
  }

  /**
   * Looks at the outbox: one chat (a reply to it was just stored), or every chat; with `at` (epoch
   * ms), not before then (a retry, or a reply held back by a platform's retry_after).
   */
  kick(chat?: Address, at?: number): void {
    if (this.stopped) return;
    if (at !== undefined) {
      setTimeout(() => this.kick(chat), Math.max(0, at - this.now()) + 5).unref();
      return;
    }
    if (chat !== undefined) {
      this.drain(addressOf(chat));
      return;
    }
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.pumpAgain = false;
          await this.pumpOnce();
        } while (this.pumpAgain && !this.stopped);
      } catch (error) {
        this.options.logger.warn('outbox', `cannot read the outbox: ${oneLine(error)}`);
      } finally {
        this.pumping = false;
      }
    })();
  }

  /**
   * Delivers an item that was taken (for SEND_LEASE_MS) in the transaction that stored it, as its
   * chat's only pending reply — so no take is needed. While the process is stopping it is left to
   * the outbox: due again once the lease runs out.
   */
  handOver(item: OutboxItem): void {
    if (this.stopped) return;
    this.drain(addressOf(item.target), item);
  }

  /** Waits until deliveries under way have finished (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private async pumpOnce(): Promise<void> {
    const now = this.now();
    for (const item of await this.options.store.outbox.heads()) {
      if (item.nextAttemptAt <= now) this.drain(addressOf(item.target));
    }
  }

  /** Starts delivering one chat's pending items (`taken` first) unless that chat is already being delivered. */
  private drain(chat: Address, taken?: OutboxItem): void {
    const key = formatAddress(chat);
    if (taken) this.handed.set(key, taken);
    if (this.busy.has(key)) {
      // The running drain may have just looked for work and be about to finish: look again after it.
      this.again.add(key);
      return;
    }
    this.busy.add(key);
    const p = this.drainChat(chat, key)
      .catch((error: unknown) => {
        // Only when the store went away under a running send (shutdown): the item stays pending.
        this.options.logger.warn('outbox', `delivery to ${key} interrupted: ${oneLine(error)}`);
      })
      .finally(() => {
        this.busy.delete(key);
        this.inFlight.delete(p);
        if (this.again.delete(key) && !this.stopped) this.drain(chat);
      });
    this.inFlight.add(p);
  }

  /** Delivers this chat's pending items in order, stopping at the first that cannot go now. */
  private async drainChat(chat: Address, key: string): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      // A handed-over item is the chat's head (taken because nothing else of it was pending). Else
      // the head is taken in the same statement that finds it: another process on this database may
      // be sending it right now, and then this one gets nothing (never twice).
      const handed = this.handed.get(key);
      if (handed) this.handed.delete(key);
      const item = handed ?? (await this.options.store.outbox.takeHead(chat, this.now(), SEND_LEASE_MS));
      if (!item) return;
      const ok = await this.deliverOne(item);
      if (!ok) return;
      // A handed-over item was its chat's only pending one when it was stored: no look for a next one
      // (a read per reply). A reply stored after it here kicks this chat, and `again` drains it once
      // this drain ends; one another instance stores is that instance's to deliver.
      if (handed) return;
    }
  }

  /** Delivers an item this process has taken; true when the chat's next item may go. */
  private async deliverOne(item: OutboxItem): Promise<boolean> {
    const { store, logger } = this.options;
    const adapter = this.options.adapter(item.target.platform);
    if (!adapter) {
      await store.outbox.retryLater(item.id, `no ${item.target.platform} adapter is running`, this.now() + 60_000);
      logger.warn('outbox', `reply ${item.id} for ${item.target.platform} waits: that platform is not configured or not running`);
      return false;
    }
    // A reply's parts: its text chunks, then its files (each confirmed like a chunk).
    const chunks = partCount(item.message);
    if (item.nextChunk >= chunks) {
      await store.outbox.sent(item.id, this.now(), chunks);
      this.resolveWaiters(item.id, true);
      return true;
    }
    // Chunk confirmations are written in order, each before the next (a retry resumes after the last
    // one written); the outcome is recorded only after them. The last chunk's confirmation is written
    // by `sent` itself, with the outcome: one write fewer per reply. Confirmations that arrive while
    // an earlier one is being written go in one write (the highest counts).
    let confirmed = item.nextChunk; // chunks the platform accepted, as reported by the adapter
    let recorded = item.nextChunk; // … as written to the store
    let progress: Promise<void> = Promise.resolve();
    const record = async (upTo: number): Promise<void> => {
      if (upTo <= recorded) return;
      recorded = upTo;
      await store.outbox.chunkSent(item.id, upTo - 1);
    };
    const onChunkSent = (index: number): Promise<void> => {
      confirmed = Math.max(confirmed, index + 1);
      progress = progress.then(() => record(Math.min(confirmed, chunks - 1)));
      return progress;
    };
    // An approval prompt's place, kept with the approval for whichever instance closes the prompt (§16).
    const approvalId = item.target.approvalId;
    let promptKept: Promise<void> = Promise.resolve();
    const onPromptPosted = (ref: object): void => {
      if (!approvalId) return;
      promptKept = store.approvals.setPromptRef(approvalId, JSON.stringify(ref)).catch((error: unknown) => {
        logger.warn('outbox', `where the prompt of approval ${approvalId} went could not be kept: ${oneLine(error)}`);
      });
    };
    try {
      const files = await this.filesOf(item);
      await this.holdingLease(item.id, () =>
        adapter.deliver({ id: item.id, target: item.target, message: item.message, firstChunk: item.nextChunk, onChunkSent, onPromptPosted, ...(files ? { files } : {}) }),
      );
      await promptKept;
      await progress;
      await store.outbox.sent(item.id, this.now(), chunks);
      this.options.telemetry?.sent(item.target.platform);
      this.resolveWaiters(item.id, true);
      return true;
    } catch (error) {
      await promptKept;
      await progress.catch(() => undefined);
      // The adapter failed after the platform accepted the last chunk: keep that, so a retry does not send it again.
      if (confirmed >= chunks) await record(chunks).catch(() => undefined);
      const attempts = item.attempts + 1;
      this.options.telemetry?.error('delivery');
      const retryable = !(error instanceof PlatformApiError) || error.retryable;
      const reason = oneLine(error);
      if (!retryable || attempts >= this.options.maxAttempts) {
        await store.outbox.failed(item.id, reason);
        logger.error('outbox', `reply ${item.id} to ${item.target.platform}:${item.target.chatId} failed for good after ${attempts} attempt(s): ${reason}`);
        this.resolveWaiters(item.id, false);
        return true; // the next reply of this chat may go
      }
      const wait = error instanceof PlatformApiError && error.retryAfterMs !== undefined ? error.retryAfterMs : this.backoff(attempts);
      await store.outbox.retryLater(item.id, reason, this.now() + wait);
      logger.warn('outbox', `reply ${item.id} to ${item.target.platform}:${item.target.chatId} not delivered (${reason}); retry in ${Math.round(wait / 1000)} s`);
      this.kick(undefined, this.now() + wait);
      return false;
    }
  }

  /**
   * The bytes of the item's files not yet confirmed, from the media store; the confirmed ones are
   * left empty (never read again). A file whose bytes are gone cannot be sent by any retry: a
   * permanent failure naming it, never a placeholder in its place.
   */
  private async filesOf(item: OutboxItem): Promise<OutboundAttachment[] | undefined> {
    const refs = item.message.files;
    if (!refs?.length) return undefined;
    const first = item.nextChunk - item.message.chunks.length;
    const out: OutboundAttachment[] = [];
    for (const [j, ref] of refs.entries()) {
      if (j < first) {
        out.push({ ...ref, data: new Uint8Array(0) });
        continue;
      }
      const data = await this.options.store.media.get(ref.media);
      if (!data) {
        throw new PlatformApiError({
          platform: item.target.platform,
          method: 'attachment',
          message: `the file ${ref.name} is no longer in the media store`,
          retryable: false,
        });
      }
      out.push({ ...ref, data });
    }
    return out;
  }

  /**
   * Keeps the item taken while `send` runs (a long send renews it); a process that dies mid-send frees
   * it within one lease, so the next start retries it soon.
   */
  private async holdingLease<T>(id: number, send: () => Promise<T>): Promise<T> {
    const renew = setInterval(() => {
      // The store may be closing (shutdown); the send's own outcome decides.
      this.options.store.outbox.extendLease(id, this.now() + SEND_LEASE_MS).catch(() => undefined);
    }, SEND_LEASE_MS / 3);
    renew.unref();
    try {
      return await send();
    } finally {
      clearInterval(renew);
    }
  }

  private resolveWaiters(id: number, ok: boolean): void {
    const list = this.waiters.get(id);
    if (!list) return;
    this.waiters.delete(id);
    for (const r of list) r(ok);
  }
}
