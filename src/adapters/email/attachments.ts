/**
 * The files of inbound mail (ARCHITECTURE.md §11, §15). Unlike the chat platforms, a mail brings its
 * attachments' bytes with it: there is no file host to fetch them from later. So the door keeps them
 * itself, by the SHA-256 of their bytes (the attachment's `ref`):
 *
 * - while a mail is handed to the gateway, its parts are held in memory;
 * - once the gateway has taken the mail (the sender passed the allow-list: `accepted`, or `deferred`
 *   during a stop), they go into the media store, where a turn on any instance (and after a restart)
 *   finds them; for any other verdict (a stranger: `refused`) they are dropped — a stranger's
 *   attachment is never kept;
 * - the core's media intake reads them through `fetch`, like any door's: from memory, else the store,
 *   waiting briefly for a store write still under way (a turn can start before the door stored them).
 */
import type { AttachmentFetcher, FetchLimits, InboundAttachment, InboundVerdict } from '../../core/types.js';
import type { MediaStore } from '../../core/media/types.js';
import { isMediaId } from '../../core/media/types.js';
import { AttachmentError } from '../../core/media/errors.js';
import { tooLarge } from '../../core/media/fetch.js';
import type { MailAttachment } from './parse.js';

/** How often a fetch looks again for bytes another instance is still storing. */
const POLL_MS = 200;
/** Longest a fetch waits for bytes that are not stored yet. */
const MAX_WAIT_MS = 10_000;

/** Verdicts after which a mail's files are kept: the gateway took the mail from an allowed sender. */
const KEPT: ReadonlySet<InboundVerdict> = new Set(['accepted', 'deferred']);

export class MailAttachments implements AttachmentFetcher {
  /** Parts of mail being handed over, by SHA-256, with how many mails hold each. */
  private readonly held = new Map<string, { data: Uint8Array; holders: number }>();

  /** `media`: the media store once it is open (absent: held bytes only). */
  constructor(private readonly media: () => MediaStore | undefined) {}

  /** Holds the parts of a mail about to be handed to the gateway. */
  hold(parts: readonly MailAttachment[]): void {
    for (const p of parts) {
      if (!p.sha256 || !p.data) continue;
      const entry = this.held.get(p.sha256);
      if (entry) entry.holders++;
      else this.held.set(p.sha256, { data: p.data, holders: 1 });
    }
  }

  /**
   * What became of the mail: kept (into the media store) when `verdict` says the gateway took it,
   * else dropped. The held bytes are let go either way. Rejects when the store cannot write them
   * (the mail then stays unseen and is read again).
   */
  async settle(parts: readonly MailAttachment[], verdict: InboundVerdict | null): Promise<void> {
    try {
      const store = verdict && KEPT.has(verdict) ? this.media() : undefined;
      if (store) for (const p of parts) if (p.data && p.sha256) await store.put(p.data, p.type);
    } finally {
      this.release(parts);
    }
  }

  /** Lets go of a mail's held parts (a hand-over that failed). */
  release(parts: readonly MailAttachment[]): void {
    for (const p of parts) {
      if (!p.sha256 || !p.data) continue;
      const entry = this.held.get(p.sha256);
      if (entry && --entry.holders <= 0) this.held.delete(p.sha256);
    }
  }

  /** The bytes of an attachment this door reported; an AttachmentError line when they are not kept. */
  async fetch(attachment: InboundAttachment, limits: FetchLimits): Promise<Uint8Array> {
    const id = attachment.ref;
    if (!isMediaId(id)) throw new AttachmentError('not_found', 'the mail did not bring its bytes along');
    const deadline = Date.now() + Math.min(limits.timeoutMs, MAX_WAIT_MS);
    for (;;) {
      const bytes = this.held.get(id)?.data ?? (await this.media()?.get(id));
      if (bytes) {
        if (bytes.byteLength > limits.maxBytes) throw tooLarge(bytes.byteLength, limits.maxBytes);
        return bytes;
      }
      if (limits.signal?.aborted) throw limits.signal.reason;
      if (Date.now() >= deadline) throw new AttachmentError('not_found', 'the file of this mail is no longer kept; please send it again');
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}
