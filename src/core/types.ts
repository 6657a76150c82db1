import type { PlatformId } from '../platform/ids.js';
import type { Address, SessionAddress } from '../platform/address.js';
import type { RenderedMessage } from '../render/index.js';
import type { PlatformHint } from './prompt/hints.js';
import type { StreamingMode } from './config.js';

/**
 * One inbound event, normalized by an adapter. Everything platform-specific stays in the adapter;
 * the core decides policy (auth, sessions, commands) from these fields alone.
 */
export interface InboundMessage extends SessionAddress {
  // platform, chatId, threadId (Slack thread_ts, Telegram forum topic, Discord thread) and userId
  // (the sender) are the session's address: every user has their own session, also in groups.
  /** Sender-controlled label: never enters the system prompt, only the user message as metadata. */
  displayName?: string;
  /** Sender-controlled chat title (groups/channels), same treatment as displayName. */
  chatTitle?: string;
  /** Message text, with the bot mention already stripped by the adapter where it makes sense. */
  text: string;
  /** A one-to-one chat (DM, private chat, mail, terminal). */
  isDirect: boolean;
  /**
   * The bot was mentioned by name (`@bot`, a Telegram text_mention, Slack `<@U…>`, Discord `<@id>`).
   * A fact, not a decision: whether the message is answered is the gateway's `addressed` step.
   */
  mentionsBot: boolean;
  /** The message replies to one of the bot's own messages. */
  isReplyToBot: boolean;
  /** A command the platform itself marked (see PlatformCommand); absent for plain text. */
  command?: PlatformCommand;
  /** The platform's id of this message (used for replies/threading). */
  messageId: string;
  /**
   * Deduplication key, unique per platform for this delivery of the event
   * (Telegram update_id, Slack event_id, Discord message id…). A redelivered event carries the same one.
   */
  updateId: string;
  receivedAt: Date;
  /**
   * When the platform says the message was sent, in ms since the epoch (Slack's `ts`), where the door
   * knows it. A session's pending messages are answered in this order (ARCHITECTURE.md §9): instances
   * that receive a session's messages at once may journal them in another order.
   */
  sentAt?: number;
  /** Where the answer goes. */
  replyTarget: DeliveryTarget;
  /**
   * Set by the core, never by a door: this journal row resumes the turn paused for approval `id`
   * (ARCHITECTURE.md §16) once it was answered or expired.
   */
  resumesApproval?: string;
  /**
   * Someone else's words the person passed on inside `text` (a forwarded or quoted mail): a fact from the
   * door, so the core can read them as data and mark the turn (TurnTaint 'quoted_mail', §17).
   */
  quoted?: string;
  /**
   * Files sent with the message (ARCHITECTURE.md §15), as the platform described them; the bytes are
   * fetched later, only for an accepted message, through the door's `attachments` capability.
   */
  attachments?: InboundAttachment[];
}

/** What a door says an attachment is (the core sniffs the bytes and decides). */
export type AttachmentKind = 'image' | 'voice' | 'audio' | 'video' | 'document' | 'file';

/**
 * One attachment of an inbound message, as facts: journaled with the message, so plain data. `ref`
 * is what the door needs to fetch the bytes from its platform's own file host (a Telegram file_id,
 * a Slack `url_private`, a Discord CDN URL, a MIME part's index): never a URL from the message text.
 */
export interface InboundAttachment {
  kind: AttachmentKind;
  /** The platform's file name, or one the door made up (`photo.jpg`, `voice.ogg`). */
  name: string;
  /** The type the platform declared (not trusted: the core sniffs the bytes). */
  declaredMime?: string;
  /** The size the platform declared, in bytes (checked against media.max_bytes before any download). */
  declaredSize?: number;
  /** Voice, audio and video: length in seconds, where the platform says. */
  durationSeconds?: number;
  ref: string;
}

/** Limits a door's fetch of attachment bytes keeps. */
export interface FetchLimits {
  /** More bytes than this: the fetch fails with AttachmentError (`too_large`) without reading on. */
  maxBytes: number;
  /** The whole fetch (lookups, redirects, body) gives up after this. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Optional capability: the bytes of an attachment this door reported, from its platform's file host. */
export interface AttachmentFetcher {
  /** Rejects with an AttachmentError (one line for the user) when the bytes cannot be had. */
  fetch(attachment: InboundAttachment, limits: FetchLimits): Promise<Uint8Array>;
}

/**
 * A person's answer to an approval prompt, as a door saw it (ARCHITECTURE.md §16): a button press
 * (Telegram callback query, Slack block action, Discord component interaction), a `y`/`n` in the
 * terminal, an e-mail `approve CODE`. A fact: whether it counts is the core's decision.
 */
export interface InboundAction {
  platform: PlatformId;
  approvalId: string;
  decision: 'approve' | 'deny';
  /** Who answered, on this platform. */
  userId: string;
  /** Where they pressed (the prompt's chat). */
  chatId: string;
  /** The platform's id of the press (callback query id, interaction id, action ts), for the log. */
  actionId: string;
  /** How the presser is shown ("@ann"): sender-controlled, only ever displayed. */
  displayName?: string;
}

/**
 * What became of an action, for the person who pressed: `text` is the one line they are shown (a toast,
 * an ephemeral message); `resolved`, when the press decided the approval, is what the prompt now says
 * instead of its buttons ("Approved by @ann").
 */
export interface ActionOutcome {
  status: 'approved' | 'denied' | 'refused' | 'answered' | 'unknown';
  text: string;
  resolved?: string;
}

export type ActionHandler = (action: InboundAction) => Promise<ActionOutcome>;

/**
 * A command as the platform marked it: a Telegram `bot_command` entity at the start of the text
 * (`/new`, `/new@thisbot`, `/new@otherbot`), a Slack slash command, a Discord application command.
 * The door reports who it is addressed to; the core decides what that means.
 */
export interface PlatformCommand {
  /** The command's name without the slash or the `@bot` suffix (`new`, Slack's `ask`). */
  readonly name: string;
  /** false: `/cmd@otherbot` — addressed to another bot in the chat. */
  readonly forBot: boolean;
}

/** Where a reply is delivered: an address plus what the platform needs to deliver it just so. */
export interface DeliveryTarget extends Address {
  /** Reply to this platform message (Telegram groups: first chunk replies; Discord guild: message_reference). */
  replyToMessageId?: string;
  /** Only the target user should see it where the platform supports that (Slack ephemeral). */
  ephemeral?: boolean;
  /** The user the ephemeral/DM reply is for. */
  userId?: string;
  /**
   * A one-to-one chat, as the door reported it for the message this answers (InboundMessage.isDirect);
   * absent where nobody said (a cron job's `deliver` address). Doors decide from this, never from
   * the shape of the chat id.
   */
  isDirect?: boolean;
  /** Platform details the adapter needs (e.g. Slack response_url, e-mail threading headers). */
  extra?: Record<string, string>;
  /**
   * Streaming by edits (ARCHITECTURE.md §10): platform ids of the messages that already show this reply while
   * it was written, one per chunk. Chunk i is delivered by editing message i (to its final text)
   * instead of sending a new one; chunks past the list are sent as new messages.
   */
  streamedMessageIds?: string[];
  /** This reply is the prompt of approval `id` (ARCHITECTURE.md §16): the door adds Approve / Deny buttons to its last chunk. */
  approvalId?: string;
}

/**
 * A file in a reply (ARCHITECTURE.md §15): a reference into the media store, never the bytes and never a
 * path. The outbox keeps only this; the bytes are read from the store when the part is sent.
 */
export interface AttachmentRef {
  /** The media store's id of the bytes (content-addressed). */
  media: string;
  /** The file name the recipient sees. */
  name: string;
  /** Sniffed from the bytes (file-type), `application/octet-stream` when unknown. */
  mime: string;
  size: number;
  /** Plain text shown with the file where the platform has captions. */
  caption?: string;
}

/** A file of a delivery with its bytes, as a door sends it. */
export interface OutboundAttachment extends AttachmentRef {
  data: Uint8Array;
}

/**
 * One rendered answer on its way out: what the renderer wrote (a cron report may get its own
 * subject), defined by src/render so the renderer needs nothing from the core, and the files sent
 * with it. Its parts are the text chunks, then the files, one part each: part `chunks.length + j`
 * is `files[j]`, confirmed like any chunk (so a file is never sent twice).
 */
export interface OutboundMessage extends RenderedMessage {
  files?: AttachmentRef[];
}

/** How many parts a reply has: its text chunks, then its files. */
export function partCount(message: OutboundMessage): number {
  return message.chunks.length + (message.files?.length ?? 0);
}

/** A delivery job handed to an adapter by the outbox. */
export interface Delivery {
  /** Outbox id (stable across retries; adapters may use it for idempotency keys). */
  id: number;
  target: DeliveryTarget;
  message: OutboundMessage;
  /** Index of the first part (chunk, then file) not yet confirmed sent. */
  firstChunk: number;
  /**
   * The message's files with their bytes, read from the media store, in `message.files` order;
   * only those from `firstChunk` on are read (the entries before are confirmed and left empty).
   */
  files?: OutboundAttachment[];
  /**
   * Adapters call this after each chunk the platform accepted, so a retry resumes after it. The
   * outbox records confirmations in call order; awaiting it is optional.
   */
  onChunkSent(index: number): Promise<void> | void;
  /**
   * An approval prompt's buttons were posted (`target.approvalId`): where, as the door needs it to close the
   * prompt (plain JSON). The core keeps it with the approval, so any instance, and this one after a restart,
   * can close that prompt (closeApprovalPrompt's `posted`).
   */
  onPromptPosted?(ref: object): void;
}

/**
 * What became of an inbound event: `accepted` (journaled, will be answered), `refused` (the sender may
 * not talk to the bot; a refusal is on its way), `ignored` (not addressed to the bot, or empty),
 * `duplicate` (seen before), `deferred` (journaled during shutdown; answered after the next start).
 */
export type InboundVerdict = 'accepted' | 'refused' | 'ignored' | 'duplicate' | 'deferred';

/**
 * What an adapter calls for each inbound event. Resolves once the event is journaled (safe to confirm),
 * with what became of it (an adapter may use that, e.g. to keep an acknowledgement quiet for a refusal).
 */
export interface InboundHandler {
  (message: InboundMessage): Promise<InboundVerdict | void>;
  /** Answers to approval prompts (ARCHITECTURE.md §16); absent where nothing can be approved (tests driving a door alone). */
  action?: ActionHandler;
}

/**
 * How a door shows an answer while it is written, for one target: a draft preview, a message edited
 * as it grows, or the platform's own streaming message fed with Markdown as it comes (Slack).
 */
export type LiveMode = 'draft' | 'edit' | 'native';

/**
 * Optional capability: streamed replies (ARCHITECTURE.md §10). The core throttles, renders and decides; the
 * door only translates each call. A call refused with 429 throws a PlatformApiError with
 * `retryAfterMs` (the core then skips updates until then); "message is not modified" is success.
 */
export interface StreamingCapability {
  /** What a configured mode (never `off`) means for this target (`auto` resolved); null: not streamed there. */
  resolve(target: DeliveryTarget, mode: StreamingMode): LiveMode | null;
  /**
   * Edit mode: posts a new message showing `chunk` (rendered for the platform), the answer's message
   * number `index` (0 first: it replies where the first chunk of a reply would); resolves to its id.
   */
  post(target: DeliveryTarget, chunk: string, index: number): Promise<string>;
  /** Edit mode: message `messageId` now shows `chunk`. */
  edit(target: DeliveryTarget, messageId: string, chunk: string): Promise<void>;
  /** Draft mode: shows `chunk` as the preview `draftId` (a non-zero integer, one per answer). */
  draft?(target: DeliveryTarget, draftId: number, chunk: string): Promise<void>;
  /**
   * Native mode: starts the platform's streaming message with the Markdown written so far (as the
   * model wrote it: the platform renders it); resolves to the message's id. The finished answer is
   * delivered by editing that message, like an edit-mode stream.
   */
  startNative?(target: DeliveryTarget, markdown: string): Promise<string>;
  /** Native mode: appends Markdown to the streaming message. */
  appendNative?(target: DeliveryTarget, messageId: string, markdown: string): Promise<void>;
  /** Native mode: ends the streaming message (before the finished answer replaces its text). */
  stopNative?(target: DeliveryTarget, messageId: string): Promise<void>;
}

/**
 * A platform door. Required: start, stop, close, deliver, profile.
 *
 * Intake and outbound have separate lifetimes: a shutdown stops intake on every door first, lets the
 * running turns finish and their replies go out, and only then closes the doors. So `stop()` ends
 * intake only and `close()` releases what sending holds.
 *
 * Optional capabilities (`sendTyping`, `diagnose`, later edits or streaming) are optional members: an
 * adapter declares one only where its platform really has it, and callers check for it before use.
 * None is ever stubbed with a no-op.
 */
export interface Adapter {
  readonly platform: PlatformId;
  /** The PLATFORM_HINTS entry this adapter writes for. */
  readonly profile: PlatformHint;
  /** Connect and begin receiving; inbound events go to `handler`. Rejects with a SwitchboardError on bad credentials. */
  start(handler: InboundHandler): Promise<void>;
  /**
   * Stop intake: take no new events, give an event being handed over a short grace, and confirm to the
   * platform exactly the events the handler took — never one it was not given (it comes again after the
   * next start). Outbound keeps working: deliver() and the capabilities still send. Harmless when not
   * started.
   */
  stop(): Promise<void>;
  /**
   * Release outbound resources (SMTP pool, SDK clients, sockets) once the last reply is out, so nothing
   * of this adapter keeps the process alive. Stops intake first if it is still running. Idempotent;
   * the adapter is not used after it.
   */
  close(): Promise<void>;
  /**
   * Send the parts from `firstChunk` on, in order — the text chunks, then the files as real
   * attachments (ARCHITECTURE.md §15) — calling onChunkSent after each.
   * Waits out platform 429s itself (retry_after) and sends the chunk once. Throws PlatformApiError
   * (retryable or not) when a chunk cannot be delivered now. Works without start() and after stop()
   * (cron delivery, the outbox draining at shutdown).
   */
  deliver(delivery: Delivery): Promise<void>;
  /**
   * Optional capability (ARCHITECTURE.md §16): an approval prompt this door posted was closed without a
   * press on it — it expired, was answered in the console or on another door, or the person wrote a new
   * message meanwhile. The door shows `text` in place of the prompt's buttons: the prompt's place is what
   * it reported when it posted it (`posted`, from the store), or what it remembers itself. A press on the
   * prompt is handled by the door itself.
   */
  closeApprovalPrompt?(approvalId: string, text: string, posted?: unknown): Promise<void>;
  /** Optional capability: show "typing…" in the chat while a turn runs. */
  sendTyping?(target: DeliveryTarget): Promise<void>;
  /** Optional capability: show the answer while it is written (ARCHITECTURE.md §10). */
  readonly streaming?: StreamingCapability;
  /** Optional capability: fetch the bytes of attachments this door reported (ARCHITECTURE.md §15). */
  readonly attachments?: AttachmentFetcher;
  /** Optional capability: checks for `switchboard doctor` (token valid, etc.). Returns problems, empty when fine. */
  diagnose?(): Promise<string[]>;
  /**
   * True when only one process at a time may run this door's intake (Telegram long polling, the
   * Discord gateway connection, the IMAP mailbox): with several instances on one database the
   * intake runs under a lease (ARCHITECTURE.md §9). Absent or false: every instance runs it (webhooks, Slack).
   */
  readonly exclusiveIntake?: boolean;
  /**
   * Optional capability: whether the started door's intake works now — null when it does, else what is
   * wrong in one line (polling fails, the gateway connection is down). `/readyz` reports it (ARCHITECTURE.md §18).
   */
  problem?(): string | null;
  /**
   * Optional capability: the sender's display name, looked up when a turn needs it (a message in a
   * group or channel journaled without one: the door hands messages over before any look-up, so
   * that they are journaled in the order they came). Undefined when it cannot be had.
   */
  senderName?(userId: string): Promise<string | undefined>;
}
