/** The Discord fake's world: who the bot is, which channels and messages exist, and what was posted. */
import type { APIMessage, APIUser } from 'discord-api-types/v10';

/** One message the bot posted (channel message, interaction edit or followup), as the fake accepted it. */
export interface PostedMessage {
  id: string;
  /** Channel id for channel messages; `webhook:<app id>` for interaction responses. */
  channelId: string;
  kind: 'channel' | 'interaction-original' | 'interaction-followup';
  content: string;
  /** `allowed_mentions` exactly as sent (undefined when the request had none). */
  allowedMentions: unknown;
  /** `message_reference` exactly as sent. */
  messageReference: unknown;
  /** The id this message replies to, when the reference resolved. */
  replyTo?: string;
  /** Would Discord have pinged @everyone/@here with this message? */
  pingsEveryone: boolean;
  /** `flags` exactly as sent (SUPPRESS_EMBEDS is 1 << 2). */
  flags: unknown;
  /** Any keys besides content/allowed_mentions/message_reference/flags (embeds, files, …). */
  extraKeys: string[];
  /** Message components (action rows of buttons) as sent; an UPDATE_MESSAGE interaction callback replaces them. */
  components?: unknown;
  /** Files uploaded with it (multipart `files[n]`), bytes as received. */
  files?: Array<{ filename: string; data: Buffer; contentType?: string }>;
}

/** What the user saw change, in order: a message posted or edited. */
export interface VisibleChange {
  kind: 'send' | 'edit';
  id: string;
  channelId: string;
  content: string;
  at: number;
}

/** Every REST request the fake answered (method, path below /api/v10, status). */
export interface RestRequest {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/** A failure the fake answers the next matching request with. */
export interface FailureSpec {
  /** Which requests it applies to: 'messages' (POST /channels/:id/messages), 'typing', 'webhook', or any path regex. */
  route: 'messages' | 'edits' | 'typing' | 'webhook' | RegExp;
  /** 429 (rate limit), 5xx, 403, 404… */
  status: number;
  /** 429 only: seconds (body retry_after; the header is rounded up as Discord does). */
  retryAfter?: number;
  /** Discord JSON error code for 4xx bodies. */
  code?: number;
  message?: string;
  /** How many requests in a row (default 1). */
  times?: number;
  /** Let this many matching requests through first (e.g. fail only the second chunk). */
  skip?: number;
}

export interface ChannelInfo {
  id: string;
  type: 'dm' | 'text' | 'thread';
  guildId?: string;
  /** For DMs: the user on the other side. */
  recipientId?: string;
}

export class FakeWorld {
  readonly token: string;
  readonly bot: APIUser;
  readonly applicationId: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly threadId: string;
  readonly channels = new Map<string, ChannelInfo>();
  /** Message ids known per channel (inbound and posted), so replies can resolve. */
  readonly knownMessages = new Map<string, Map<string, APIMessage>>();
  readonly messages: PostedMessage[] = [];
  /** Posts and edits as they happened (an edit also changes its PostedMessage's content in place). */
  readonly visible: VisibleChange[] = [];
  /** Edits per channel allowed in any rolling window before a 429 (Discord's observed 5 per 5 s). */
  editLimit = { count: 5, windowMs: 5000 };
  readonly editTimes = new Map<string, number[]>();
  readonly requests: RestRequest[] = [];
  readonly typing: string[] = [];
  readonly interactionCallbacks: { interactionId: string; token: string; type: number; data?: Record<string, unknown>; at: number }[] = [];
  readonly commandRegistrations: unknown[] = [];
  readonly failures: FailureSpec[] = [];
  private listeners: (() => void)[] = [];

  constructor(ids: { token: string; bot: APIUser; applicationId: string; guildId: string; channelId: string; threadId: string }) {
    this.token = ids.token;
    this.bot = ids.bot;
    this.applicationId = ids.applicationId;
    this.guildId = ids.guildId;
    this.channelId = ids.channelId;
    this.threadId = ids.threadId;
    this.channels.set(ids.channelId, { id: ids.channelId, type: 'text', guildId: ids.guildId });
    this.channels.set(ids.threadId, { id: ids.threadId, type: 'thread', guildId: ids.guildId });
  }

  remember(message: APIMessage): void {
    let map = this.knownMessages.get(message.channel_id);
    if (!map) this.knownMessages.set(message.channel_id, (map = new Map()));
    map.set(message.id, message);
  }

  record(message: PostedMessage): void {
    this.messages.push(message);
    this.visible.push({ kind: 'send', id: message.id, channelId: message.channelId, content: message.content, at: Date.now() });
    for (const l of this.listeners) l();
  }

  /** An accepted edit of a posted message. */
  recordEdit(message: PostedMessage, content: string): void {
    message.content = content;
    this.visible.push({ kind: 'edit', id: message.id, channelId: message.channelId, content, at: Date.now() });
    for (const l of this.listeners) l();
  }

  /** Resolves when at least `n` messages were posted, or rejects after `timeoutMs`. */
  waitForMessages(n: number, timeoutMs = 5000): Promise<PostedMessage[]> {
    if (this.messages.length >= n) return Promise.resolve(this.messages.slice());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== check);
        reject(new Error(`expected ${n} Discord messages, got ${this.messages.length} within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = (): void => {
        if (this.messages.length < n) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== check);
        resolve(this.messages.slice());
      };
      this.listeners.push(check);
    });
  }

  /** Takes the next failure matching this request, if any. */
  takeFailure(kind: 'messages' | 'edits' | 'typing' | 'webhook' | 'other', path: string): FailureSpec | undefined {
    const index = this.failures.findIndex((f) => (f.route instanceof RegExp ? f.route.test(path) : f.route === kind));
    if (index < 0) return undefined;
    const spec = this.failures[index];
    if (spec.skip) {
      this.failures[index] = { ...spec, skip: spec.skip - 1 };
      return undefined;
    }
    const left = (spec.times ?? 1) - 1;
    if (left <= 0) this.failures.splice(index, 1);
    else this.failures[index] = { ...spec, times: left };
    return spec;
  }
}
