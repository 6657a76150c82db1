import type { Repositories, Store } from '../store/types.js';
import type { DeliveryTarget, OutboundMessage } from '../types.js';
import type { PlatformId } from '../../platform/ids.js';
import type { Address } from '../../platform/address.js';

/** Markdown → what a platform shows (src/render), injected so core depends on no render details. */
export type Renderer = (platform: PlatformId, markdown: string) => OutboundMessage;

/** Puts one reply into the outbox of the open transaction; null when it renders to nothing. */
export type Reply = (target: DeliveryTarget, markdown: string, extra?: Pick<OutboundMessage, 'subject'>) => Promise<number | null>;

export interface RepliesDeps {
  store: Store;
  render: Renderer;
  /** Starts delivering a chat's pending replies (the outbox dispatcher). */
  kick: (chat: Address) => void;
  now: () => Date;
}

/**
 * Every reply goes through here: rendered for its platform, stored in the outbox in the same
 * transaction as what it answers (journal rows, the turn's history), and only then handed to
 * delivery — so a crash between the two loses nothing and sends nothing twice.
 */
export class Replies {
  constructor(private readonly deps: RepliesDeps) {}

  /** Renders Markdown for a platform as a reply would be (streamed updates use it too). */
  render(platform: PlatformId, markdown: string): OutboundMessage {
    return this.deps.render(platform, markdown);
  }

  /** Runs `fn` in one transaction; the replies it makes are delivered once it has committed. */
  async commit<T>(sessionKey: string | null, fn: (tx: Repositories, reply: Reply) => Promise<T>): Promise<T> {
    const queued: Address[] = [];
    const value = await this.deps.store.transaction((tx) =>
      fn(tx, async (target, markdown, extra) => {
        const message = this.deps.render(target.platform, markdown);
        if (!message.chunks.length) return null;
        const id = await tx.outbox.enqueue(target, { ...message, ...extra }, this.deps.now().getTime(), sessionKey);
        queued.push(target);
        return id;
      }),
    );
    for (const chat of queued) this.deps.kick(chat);
    return value;
  }

  /** One reply on its own (refusals, notices). */
  send(target: DeliveryTarget, markdown: string, sessionKey: string | null = null): Promise<number | null> {
    return this.commit(sessionKey, (_tx, reply) => reply(target, markdown));
  }
}
