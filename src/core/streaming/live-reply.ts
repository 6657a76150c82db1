/**
 * One answer shown while it is written (ARCHITECTURE.md §10). The agent reports the text so far; this decides
 * when the chat sees it and how: the first update once about 40 characters are there or 1 s has
 * passed, then at most one platform call per second; a 429 skips updates until the platform's
 * retry-after (never queued: the next update shows the latest text). Each update is the partial
 * Markdown, its open constructs closed, rendered by the real renderer — so it is valid for the
 * platform — and when it outgrows one message, that message is finished with its chunk and the
 * stream goes on in a new one. The finished answer is not sent from here: it goes through the outbox,
 * editing the messages this posted (their ids are saved as they are posted, for a restart).
 */
import type { DeliveryTarget, LiveMode, StreamingCapability } from '../types.js';
import type { Logger } from '../logger.js';
import { PlatformApiError, oneLine } from '../errors.js';
import { closeOpenMarkdown } from './partial.js';

export interface LiveReplyOptions {
  capability: StreamingCapability;
  mode: LiveMode;
  target: DeliveryTarget;
  /** Markdown → the platform's chunks (the real renderer, as for the finished answer; off the event loop when long). */
  render: (markdown: string) => string[] | Promise<string[]>;
  /** Messages an interrupted earlier run of this turn streamed into: they are edited, not posted again. */
  resume?: readonly string[];
  /** Saves the ids of the messages posted so far (before the next one is posted). */
  persist?: (messageIds: readonly string[]) => Promise<void>;
  logger: Logger;
  now?: () => number;
  /** Characters that show the first update at once (default 40). */
  firstChars?: number;
  /** The first update at the latest this long after the first text (default 1,000 ms). */
  firstMs?: number;
  /** Least time between two platform calls for this answer (default 1,000 ms). */
  intervalMs?: number;
}

/** Consecutive failures (other than 429) after which this answer stops streaming; it is still delivered. */
const MAX_FAILURES = 3;

/** Native streams stop growing past this (Slack's markdown_text limit); the final delivery shows the rest. */
const NATIVE_LIMIT = 12_000;

/** What a user reads while a tool works. */
const TOOL_STATUS: Record<string, string> = {
  session_search: 'searching earlier conversations…',
  memory: 'updating memory…',
  skill_view: 'reading a skill…',
  cron: 'updating scheduled jobs…',
};

export class LiveReply {
  private text = '';
  private status: string | null = null;
  private version = 0;
  private shownVersion = 0;
  private firstTextAt: number | null = null;
  private lastCallAt: number | null = null;
  private blockedUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private inFlight: Promise<void> | null = null;
  private closed = false;
  private failures = 0;
  private readonly ids: string[];
  private readonly shown: string[] = [];
  private shownDraft: string | null = null;
  /** Native mode: the Markdown appended so far, and what earlier model calls of the turn left in front of the current one. */
  private appended = '';
  private prefix = '';
  private lastText = '';
  /** The last update needs another call (a finished message, then the next one). */
  private more = false;
  private readonly draftId = 1 + Math.floor(Math.random() * 2_000_000_000);
  /** The platform refused drafts here: the rest of the answer streams by edits. */
  private draftsRefused = false;
  private readonly now: () => number;
  /** Platform calls made (updates shown) and updates skipped after a 429. */
  readonly stats = { calls: 0, skipped: 0 };

  constructor(private readonly options: LiveReplyOptions) {
    this.now = options.now ?? Date.now;
    this.ids = [...(options.resume ?? [])];
  }

  /** The answer text so far (what /stop keeps). */
  get partial(): string {
    return this.text;
  }

  /** The text so far of the current model call. */
  update(textSoFar: string): void {
    if (this.closed) return;
    // A new model call (after a tool) starts its text afresh: a native stream cannot take text back, so it goes on after it.
    if (this.options.mode === 'native' && !textSoFar.startsWith(this.lastText) && this.lastText.trim()) this.prefix = `${this.prefix}${this.lastText}\n\n`;
    this.lastText = textSoFar;
    this.text = textSoFar;
    this.status = null;
    if (this.firstTextAt === null && textSoFar.trim()) this.firstTextAt = this.now();
    this.version++;
    this.schedule();
  }

  /** A tool is about to run: one status line under the text. */
  tool(name: string): void {
    if (this.closed) return;
    this.status = TOOL_STATUS[name] ?? 'working…';
    this.firstTextAt ??= this.now();
    this.version++;
    this.schedule();
  }

  /**
   * Until when the platform asked for quiet (a 429's retry_after on an update), epoch ms; 0 when it
   * did not. The final delivery waits until then rather than meet the same 429 again.
   */
  get quietUntil(): number {
    return this.blockedUntil;
  }

  /** Ends the stream: no update after this. Resolves to the messages posted (edit mode; in draft mode the finished ones), for the final delivery. */
  async finish(): Promise<string[]> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
    if (this.options.mode === 'native' && this.ids.length) {
      try {
        await this.options.capability.stopNative?.(this.options.target, this.ids[0]);
      } catch (error) {
        this.options.logger.warn('streaming', `could not end the streaming message: ${oneLine(error)}`);
      }
    }
    return [...this.ids];
  }

  private schedule(): void {
    if (this.closed || this.inFlight || this.failures >= MAX_FAILURES) return;
    if ((this.version === this.shownVersion && !this.more) || this.firstTextAt === null) return;
    const now = this.now();
    let due: number;
    if (this.lastCallAt === null) {
      const enough = this.text.length >= (this.options.firstChars ?? 40) || this.status !== null;
      due = enough ? now : this.firstTextAt + (this.options.firstMs ?? 1000);
    } else due = this.lastCallAt + (this.options.intervalMs ?? 1000);
    due = Math.max(due, this.blockedUntil);
    // A timer already set for as soon (or sooner) stays; enough text may bring the first update forward.
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => this.tick(), Math.max(0, due - now));
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    if (this.closed) return;
    const calls = this.stats.calls;
    this.inFlight = this.push()
      .catch((error: unknown) => this.failed(error))
      .finally(() => {
        // The interval counts from the end of the call: the platform then sees the updates at least that far apart.
        if (this.stats.calls !== calls) this.lastCallAt = this.now();
        this.inFlight = null;
        this.schedule();
      });
  }

  private failed(error: unknown): void {
    if (error instanceof PlatformApiError && error.retryAfterMs !== undefined) {
      this.blockedUntil = this.now() + error.retryAfterMs;
      this.stats.skipped++;
      return;
    }
    this.failures++;
    const { logger, target } = this.options;
    logger.warn('streaming', `update to ${target.platform}:${target.chatId} failed${this.failures >= MAX_FAILURES ? ', not streaming this answer further' : ''}: ${oneLine(error)}`);
  }

  /** One platform call at most: the first message that differs from what it shows, or the next new one. */
  private async push(): Promise<void> {
    if (this.options.mode === 'native') return this.pushNative();
    const version = this.version;
    const markdown = closeOpenMarkdown(this.text) + (this.status ? `${this.text.trim() ? '\n\n' : ''}_${this.status}_` : '');
    const chunks = await this.options.render(markdown);
    this.shownVersion = version;
    this.more = false;
    if (!chunks.length) return;
    const { capability, target } = this.options;
    if (this.options.mode === 'draft' && !this.draftsRefused) {
      // A draft is a preview of the last message only: the messages the answer has outgrown are
      // finished as real messages (as in edit mode), so the chat keeps showing the whole text.
      if (await this.pushMessages(chunks, chunks.length - 1)) {
        this.more = true; // the draft of the rest comes next
        return;
      }
      const last = chunks[chunks.length - 1];
      if (last === this.shownDraft || !capability.draft) return;
      this.call();
      try {
        await capability.draft(target, this.draftId, last);
      } catch (error) {
        if (error instanceof PlatformApiError && error.retryAfterMs !== undefined) throw error;
        // A server without drafts (an older Bot API, a chat where they are refused): edit a message instead.
        this.draftsRefused = true;
        this.more = true;
        this.options.logger.info('streaming', `drafts refused in ${target.platform}:${target.chatId} (${oneLine(error)}); streaming by edits instead`);
        return;
      }
      this.shownDraft = last;
      this.failures = 0;
      return;
    }
    await this.pushMessages(chunks, chunks.length);
  }

  /**
   * At most one call for the first of `chunks[0..count)` that the chat does not show yet: an edit of
   * its message, or a new message (its id persisted). True when a call was made.
   */
  private async pushMessages(chunks: readonly string[], count: number): Promise<boolean> {
    const { capability, target } = this.options;
    for (let i = 0; i < count; i++) {
      if (i < this.ids.length) {
        if (this.shown[i] === chunks[i]) continue;
        this.call();
        this.more = true; // until this edit is through, and after it when a later message differs or is missing
        await capability.edit(target, this.ids[i], chunks[i]);
        this.shown[i] = chunks[i];
        this.failures = 0;
        this.more = chunks.some((c, j) => j > i && j < count && (j >= this.ids.length || this.shown[j] !== c));
        return true;
      }
      this.call();
      this.more = true;
      const id = await capability.post(target, chunks[i], i);
      this.ids.push(id);
      this.shown[i] = chunks[i];
      this.failures = 0;
      this.more = i < count - 1;
      await this.options.persist?.(this.ids);
      return true;
    }
    return false;
  }

  /**
   * Native mode: the Markdown as written (the platform renders it), appended in pieces. A stream
   * resumed after a restart is not fed again: its message is finished by the final delivery.
   */
  private async pushNative(): Promise<void> {
    const { capability, target } = this.options;
    this.shownVersion = this.version;
    this.more = false;
    if (this.options.resume?.length) return;
    const whole = this.prefix + this.text;
    if (whole.length > NATIVE_LIMIT || !whole.startsWith(this.appended)) return;
    const delta = whole.slice(this.appended.length);
    if (!delta.trim() && this.ids.length) return;
    this.call();
    if (!this.ids.length) {
      if (!capability.startNative || !whole.trim()) return;
      const id = await capability.startNative(target, whole);
      this.ids.push(id);
      this.appended = whole;
      this.failures = 0;
      await this.options.persist?.(this.ids);
      return;
    }
    await capability.appendNative?.(target, this.ids[0], delta);
    this.appended = whole;
    this.failures = 0;
  }

  private call(): void {
    this.lastCallAt = this.now();
    this.stats.calls++;
  }
}
