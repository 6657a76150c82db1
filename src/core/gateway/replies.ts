import type { OutboxItem, Repositories, Store, TurnReply } from '../store/types.js';
import type { DeliveryTarget, OutboundMessage } from '../types.js';
import type { PlatformId } from '../../platform/ids.js';
import type { Address } from '../../platform/address.js';

/**
 * Markdown → what a platform shows (src/render), injected so core depends on no render details. A
 * long answer is rendered off the event loop (src/app-render.ts, ARCHITECTURE.md §6d): a promise.
 */
export type Renderer = (platform: PlatformId, markdown: string) => OutboundMessage | Promise<OutboundMessage>;

/**
 * What a reply may carry besides its text: an e-mail subject, and a time (epoch ms) before which it
 * must not be sent (the chat's platform asked for quiet with a 429 while the answer streamed).
 */
export interface ReplyExtra extends Pick<OutboundMessage, 'subject' | 'files'> {
  notBefore?: number;
}

/**
 * A reply rendered for its platform, ready for the outbox. Rendering (Markdown → mdast → chunks) is
 * CPU work and happens before the transaction that stores the reply: on SQLite a transaction holds
 * the one connection, and every other caller waits while it is open.
 */
export interface Outgoing {
  target: DeliveryTarget;
  message: OutboundMessage;
  notBefore?: number;
}

/** Puts one rendered reply into the outbox of the open transaction; null when there is none (it rendered to nothing). */
export type Reply = (outgoing: Outgoing | null) => Promise<number | null>;

export interface RepliesDeps {
  store: Store;
  render: Renderer;
  /** Starts delivering a chat's pending replies (the outbox dispatcher); not before `at` when given. */
  kick: (chat: Address, at?: number) => void;
  /**
   * When set: a reply due now that is its chat's only pending one is taken for `leaseMs` in the
   * transaction that stores it and given to `deliver` once committed — its delivery needs no write
   * of its own to take it (issue #14: one commit fewer per message).
   */
  handOver?: { leaseMs: number; deliver: (item: OutboxItem) => void };
  now: () => Date;
}

/**
 * Every reply goes through here: rendered for its platform, then stored in the outbox in the same
 * transaction as what it answers (journal rows, the turn's history), and only then handed to
 * delivery — so a crash between the two loses nothing and sends nothing twice.
 */
export class Replies {
  constructor(private readonly deps: RepliesDeps) {}

  /** Renders Markdown for a platform as a reply would be (streamed updates use it too). */
  async render(platform: PlatformId, markdown: string): Promise<OutboundMessage> {
    return this.deps.render(platform, markdown);
  }

  /** A reply to `target`, rendered now (before its transaction); null when it renders to nothing. */
  async prepare(target: DeliveryTarget, markdown: string, { notBefore, files, ...extra }: ReplyExtra = {}): Promise<Outgoing | null> {
    const rendered = await this.deps.render(target.platform, markdown);
    // Files the turn attached go after its text, as parts of the same reply (ARCHITECTURE.md §15).
    if (!rendered.chunks.length && !files?.length) return null;
    const message: OutboundMessage = { ...rendered, ...extra, ...(files?.length ? { files } : {}) };
    return { target, message, ...(notBefore === undefined ? {} : { notBefore }) };
  }

  /**
   * Runs `fn` in one transaction; the replies it stores (rendered beforehand with `prepare`) are
   * delivered once it has committed.
   */
  async commit<T>(sessionKey: string | null, fn: (tx: Repositories, reply: Reply) => Promise<T>): Promise<T> {
    const { handOver } = this.deps;
    const queued: Array<{ chat: Address; notBefore?: number; taken?: OutboxItem }> = [];
    const value = await this.deps.store.transaction((tx) =>
      fn(tx, async (outgoing) => {
        if (!outgoing) return null;
        const { target, message, notBefore } = outgoing;
        const at = this.deps.now().getTime();
        if (notBefore !== undefined && notBefore > at) {
          queued.push({ chat: target, notBefore });
          return tx.outbox.enqueue(target, message, at, sessionKey, notBefore);
        }
        if (!handOver) {
          queued.push({ chat: target });
          return tx.outbox.enqueue(target, message, at, sessionKey);
        }
        const { id, taken } = await tx.outbox.enqueueTaken(target, message, at, sessionKey, handOver.leaseMs);
        queued.push({ chat: target, taken: taken ?? undefined });
        return id;
      }),
    );
    for (const { chat, notBefore, taken } of queued) {
      if (taken) handOver?.deliver(taken);
      else this.deps.kick(chat, notBefore);
    }
    return value;
  }

  /**
   * The reply as part of a turn's one write (Store.turns.commit): taken for delivery by this instance in
   * that write when it is due now and its chat's only pending one (as `commit` does with enqueueTaken).
   */
  turnReply(outgoing: Outgoing | null): TurnReply | null {
    if (!outgoing) return null;
    const { target, message, notBefore } = outgoing;
    const { handOver } = this.deps;
    return { target, message, at: this.deps.now().getTime(), ...(notBefore === undefined ? {} : { notBefore }), ...(handOver ? { takeForMs: handOver.leaseMs } : {}) };
  }

  /** The turn's write committed: its reply, taken there, goes to delivery; otherwise its chat is kicked. */
  turnStored(reply: TurnReply | null, stored: { taken: OutboxItem | null } | null): void {
    if (!reply || !stored) return;
    if (stored.taken) this.deps.handOver?.deliver(stored.taken);
    else this.deps.kick(reply.target, reply.notBefore !== undefined && reply.notBefore > reply.at ? reply.notBefore : undefined);
  }

  /** One reply on its own (refusals, notices, cron reports): rendered, then stored in a transaction of its own. */
  async send(target: DeliveryTarget, markdown: string, sessionKey: string | null = null, extra?: ReplyExtra): Promise<number | null> {
    const outgoing = await this.prepare(target, markdown, extra);
    return this.commit(sessionKey, (_tx, reply) => reply(outgoing));
  }
}
