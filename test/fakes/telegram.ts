/**
 * A loopback Telegram Bot API server for tests: `${url}/bot<token>/<method>`, as grammY calls it.
 *
 * It behaves like the real one where a sender can get it wrong: getUpdates confirms everything below
 * `offset` and long-polls up to `timeout`; sendMessage parses `parse_mode: HTML` like Telegram
 * (see telegram-html.ts) and enforces 1..4096 UTF-16 units after parsing, with Telegram's error texts;
 * an unknown token gets 401; a 429 with `retry_after` (or a dropped connection, or any error) can be
 * queued with `failNext`. Every request is recorded.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { num, readParams } from './telegram-body.js';
import type { MultipartFile } from './multipart.js';
import { parseTelegramHtml, utf16Length, type ParsedEntity } from './telegram-html.js';

export const TELEGRAM_TEXT_LIMIT = 4096;

export interface TelegramFakeOptions {
  /** The token the fake accepts (default `123456789:TEST-token_abcdefghijklmnopqrstuvwxyz`). */
  token?: string;
  username?: string;
  firstName?: string;
  /** Upper bound on how long a long poll is held, whatever `timeout` asks (default 2000 ms). */
  maxPollHoldMs?: number;
  /** First update_id handed out (default 1000). */
  firstUpdateId?: number;
  /**
   * Edits and drafts per chat in any rolling second before Telegram answers 429 with `retry_after`
   * (default 3 per second, retry_after 1).
   */
  editLimit?: { perSecond: number; retryAfter: number };
}

/** What the user saw change, in order: a message sent, edited, or a draft preview shown. */
export interface VisibleUpdate {
  kind: 'send' | 'edit' | 'draft';
  chatId: string;
  /** The message (send, edit) or draft id. */
  id: number;
  plain: string;
  at: number;
}

export interface RecordedRequest {
  method: string;
  token: string;
  params: Record<string, unknown>;
  status: number;
  /** Telegram's `description` of a refusal. */
  description?: string;
  at: number;
}

export interface SentMessage {
  chatId: string;
  messageId: number;
  /** The text as sent (HTML when parseMode is HTML). */
  text: string;
  /** What the user sees: the text after entity parsing. */
  plain: string;
  entities: ParsedEntity[];
  parseMode?: string;
  threadId?: number;
  replyToMessageId?: number;
  params: Record<string, unknown>;
}

/** A file accepted by sendPhoto, sendVoice or sendDocument: the bytes as uploaded (multipart). */
export interface SentFile {
  method: 'sendPhoto' | 'sendVoice' | 'sendDocument';
  chatId: string;
  messageId: number;
  filename: string;
  data: Buffer;
  caption?: string;
  threadId?: number;
  replyToMessageId?: number;
}

/** Telegram's caption limit (after entity parsing). */
export const TELEGRAM_CAPTION_LIMIT = 1024;

/** A failure queued for the next call(s) of a method. */
export type Failure =
  | 'network'
  /** The request is read and never answered (a process killed mid-upload sees no answer). */
  | 'hang'
  | '429'
  | 'blocked'
  | 'chat_not_found'
  | '500'
  | { kind: 'rate_limit'; retryAfter: number }
  | { kind: 'error'; code: number; description: string; parameters?: Record<string, unknown> };

export interface PushTextOptions {
  text: string;
  userId?: number;
  /** Defaults to the user id (a private chat). */
  chatId?: number;
  chatType?: 'private' | 'group' | 'supergroup';
  chatTitle?: string;
  firstName?: string;
  lastName?: string;
  username?: string;
  isBot?: boolean;
  /** Forum topic: sets message_thread_id and is_topic_message. */
  threadId?: number;
  /** Reply to this message; `fromBot` makes it a reply to one of the bot's messages. */
  replyTo?: { messageId: number; fromBot?: boolean };
  edited?: boolean;
}

export interface TelegramFake {
  /** Pass as apiRoot (TELEGRAM_API_ROOT). */
  readonly url: string;
  readonly token: string;
  /** A well-formed token the fake refuses with 401. */
  readonly badToken: string;
  readonly bot: { id: number; is_bot: true; first_name: string; username: string };
  readonly requests: RecordedRequest[];
  /** Accepted sendMessage calls, in order (an edit changes the message's text, plain and entities in place). */
  readonly sent: SentMessage[];
  /** Every accepted send, edit and draft, in order. */
  readonly visible: VisibleUpdate[];
  /** Files accepted by sendPhoto / sendVoice / sendDocument, in order. */
  readonly files: SentFile[];
  /** Everything below this update_id was confirmed by a getUpdates offset. */
  readonly confirmedOffset: number;
  /** Updates queued and not yet confirmed. */
  readonly pendingUpdates: readonly Record<string, unknown>[];
  readonly commands: unknown;
  readonly webhook: { url: string; secretToken?: string } | undefined;
  /** Queues an update; assigns update_id when missing. Returns the update_id. */
  pushUpdate(update: Record<string, unknown>): number;
  /** Queues a text message update (entities for @mentions and a leading /command are computed). */
  pushText(options: PushTextOptions): number;
  /** Builds the message object pushText would send, for custom updates (photos, etc.). */
  makeMessage(options: Omit<PushTextOptions, 'text'> & { text?: string }): Record<string, unknown>;
  /**
   * Queues a `callback_query` update: `userId` pressed the inline button carrying `data` under the bot's
   * message `messageId` in `chatId` (default: the user's private chat). Returns the query's id.
   */
  pushCallback(options: { userId: number; data: string; messageId: number; chatId?: number; username?: string; queryId?: string }): string;
  /** answerCallbackQuery calls accepted, in order (Telegram refuses a second answer to one query). */
  readonly callbackAnswers: Array<{ queryId: string; text?: string; showAlert: boolean }>;
  /** The next `times` calls of `method` fail as described. */
  failNext(method: string, failure: Failure, times?: number): void;
  waitForMessages(count: number, timeoutMs?: number): Promise<SentMessage[]>;
  waitForRequests(method: string, count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Resolves once confirmedOffset reaches `offset`. */
  waitForConfirmed(offset: number, timeoutMs?: number): Promise<void>;
  callsOf(method: string): RecordedRequest[];
  /** Client connections open right now, idle keep-alive ones included. */
  openConnections(): number;
  /** Long polls ended by another getUpdates (409, as on Telegram): two consumers polled at once. */
  readonly conflicts: number;
  /**
   * Keeps a file as Telegram does for bots: `getFile(file_id)` answers its `file_path`, and
   * `/file/bot<token>/<file_path>` serves the bytes (`missing`: 404; `hang`: never answers). Returns
   * the fields a message carries (file_id, file_unique_id, file_size).
   */
  addFile(bytes: Uint8Array, options?: { path?: string; missing?: boolean; hang?: boolean; declaredSize?: number }): { file_id: string; file_unique_id: string; file_size: number };
  /** File downloads made, by path (token checked). */
  readonly downloads: string[];
  close(): Promise<void>;
}

interface Poller {
  respond(updates: Record<string, unknown>[]): void;
  conflict(): void;
  limit: number;
}

let lastDescription: string | undefined;

/** JPEG, PNG, WebP or GIF by their magic bytes: what Telegram can make a photo of. */
function isPhoto(data: Buffer): boolean {
  const hex = data.subarray(0, 12).toString('hex');
  return hex.startsWith('ffd8ff') || hex.startsWith('89504e47') || hex.startsWith('47494638') || (hex.startsWith('52494646') && data.subarray(8, 12).toString() === 'WEBP');
}

function apiError(res: ServerResponse, code: number, description: string, parameters?: Record<string, unknown>): number {
  lastDescription = description;
  const body: Record<string, unknown> = { ok: false, error_code: code, description };
  if (parameters) body.parameters = parameters;
  res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  return code;
}

function ok(res: ServerResponse, result: unknown): number {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result }));
  return 200;
}

/** Entities Telegram computes for incoming text: @mentions and a leading /command. */
function detectEntities(text: string): { type: string; offset: number; length: number }[] {
  const entities: { type: string; offset: number; length: number }[] = [];
  const command = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]{3,32})?/.exec(text);
  if (command) entities.push({ type: 'bot_command', offset: 0, length: command[0].length });
  for (const m of text.matchAll(/(^|[^A-Za-z0-9_@/])(@[A-Za-z0-9_]{4,32})/g)) {
    entities.push({ type: 'mention', offset: (m.index ?? 0) + m[1].length, length: m[2].length });
  }
  return entities;
}

export async function startTelegramFake(options: TelegramFakeOptions = {}): Promise<TelegramFake> {
  const token = options.token ?? '123456789:TEST-token_abcdefghijklmnopqrstuvwxyz';
  const botId = Number(token.split(':')[0]) || 123456789;
  const bot = { id: botId, is_bot: true as const, first_name: options.firstName ?? 'Switchboard', username: options.username ?? 'switchboard_test_bot' };
  const maxHold = options.maxPollHoldMs ?? 2000;
  let nextUpdateId = options.firstUpdateId ?? 1000;
  let nextMessageId = 1;
  let confirmedOffset = 0;
  let commands: unknown;
  let webhook: { url: string; secretToken?: string } | undefined;
  const queue: Record<string, unknown>[] = [];
  const requests: RecordedRequest[] = [];
  const sent: SentMessage[] = [];
  const visible: VisibleUpdate[] = [];
  const sentFiles: SentFile[] = [];
  const knownMessages = new Set<string>();
  /** Callback queries handed out and not yet answered. */
  const openQueries = new Set<string>();
  const callbackAnswers: Array<{ queryId: string; text?: string; showAlert: boolean }> = [];
  let nextQueryId = 1;
  /** The last allowed_updates a getUpdates asked for: Telegram delivers only those kinds. */
  let allowedUpdates: string[] | undefined;
  const failures = new Map<string, Failure[]>();
  const listeners = new Set<() => void>();
  let poller: Poller | undefined;
  let conflicts = 0;

  const notify = () => {
    for (const l of [...listeners]) l();
  };

  const confirm = (offset: number) => {
    if (offset > confirmedOffset) confirmedOffset = offset;
    while (queue.length && Number(queue[0].update_id) < confirmedOffset) queue.shift();
  };

  function sendFailure(res: ServerResponse, failure: Failure): number {
    if (failure === 'network') {
      res.socket?.destroy();
      return 0;
    }
    if (failure === 'hang') return 0;
    if (failure === '429') return apiError(res, 429, 'Too Many Requests: retry after 1', { retry_after: 1 });
    if (failure === 'blocked') return apiError(res, 403, 'Forbidden: bot was blocked by the user');
    if (failure === 'chat_not_found') return apiError(res, 400, 'Bad Request: chat not found');
    if (failure === '500') return apiError(res, 500, 'Internal Server Error');
    if (failure.kind === 'rate_limit') {
      return apiError(res, 429, `Too Many Requests: retry after ${failure.retryAfter}`, { retry_after: failure.retryAfter });
    }
    return apiError(res, failure.code, failure.description, failure.parameters);
  }

  /** Parses text + parse_mode as Telegram does: the text the user sees and its entities, or the error Telegram gives. */
  function parseText(params: Record<string, unknown>, allowEmpty = false): { ok: true; raw: string; plain: string; entities: ParsedEntity[]; parseMode?: string } | { ok: false; error: string } {
    const raw = typeof params.text === 'string' ? params.text : params.text === undefined ? '' : String(params.text);
    const parseMode = typeof params.parse_mode === 'string' && params.parse_mode !== '' ? params.parse_mode : undefined;
    let plain = raw;
    let entities: ParsedEntity[] = [];
    if (parseMode !== undefined) {
      if (parseMode.toLowerCase() === 'html') {
        const parsed = parseTelegramHtml(raw);
        if (!parsed.ok) return { ok: false, error: `Bad Request: can't parse entities: ${parsed.error}` };
        plain = parsed.text;
        entities = parsed.entities;
      } else if (!['markdown', 'markdownv2'].includes(parseMode.toLowerCase())) {
        return { ok: false, error: 'Bad Request: unsupported parse_mode' };
      }
    }
    plain = plain.trim();
    if (plain.length === 0 && !allowEmpty) return { ok: false, error: 'Bad Request: message text is empty' };
    if (utf16Length(plain) > TELEGRAM_TEXT_LIMIT) return { ok: false, error: 'Bad Request: message is too long' };
    return { ok: true, raw, plain, entities, parseMode };
  }

  const editLimit = options.editLimit ?? { perSecond: 3, retryAfter: 1 };
  const editTimes = new Map<string, number[]>();
  /** Edits and drafts are rate limited per chat: 429 with retry_after past the limit. */
  function tooFrequent(res: ServerResponse, chatId: string): number | null {
    const now = Date.now();
    const times = (editTimes.get(chatId) ?? []).filter((t) => now - t < 1000);
    if (times.length >= editLimit.perSecond) {
      editTimes.set(chatId, times);
      return apiError(res, 429, `Too Many Requests: retry after ${editLimit.retryAfter}`, { retry_after: editLimit.retryAfter });
    }
    times.push(now);
    editTimes.set(chatId, times);
    return null;
  }

  function editMessageText(res: ServerResponse, params: Record<string, unknown>): number {
    const chatId = params.chat_id === undefined ? '' : String(params.chat_id);
    if (!chatId) return apiError(res, 400, 'Bad Request: chat_id is empty');
    const messageId = num(params.message_id);
    const message = messageId === undefined ? undefined : sent.find((m) => m.chatId === chatId && m.messageId === messageId);
    if (!message) return apiError(res, 400, 'Bad Request: message to edit not found');
    const parsed = parseText(params);
    if (!parsed.ok) return apiError(res, 400, parsed.error);
    if (parsed.plain === message.plain && JSON.stringify(parsed.entities) === JSON.stringify(message.entities)) {
      return apiError(res, 400, 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
    }
    const limited = tooFrequent(res, chatId);
    if (limited !== null) return limited;
    Object.assign(message, { text: parsed.raw, plain: parsed.plain, entities: parsed.entities, parseMode: parsed.parseMode });
    // As Telegram: a reply_markup given with the edit replaces the message's (an empty keyboard removes it).
    if (params.reply_markup !== undefined) {
      message.params = { ...message.params, reply_markup: typeof params.reply_markup === 'string' ? (JSON.parse(params.reply_markup) as unknown) : params.reply_markup };
    }
    visible.push({ kind: 'edit', chatId, id: message.messageId, plain: parsed.plain, at: Date.now() });
    notify();
    const id = num(chatId) ?? chatId;
    return ok(res, { message_id: message.messageId, from: bot, chat: { id, type: typeof id === 'number' && id < 0 ? 'supergroup' : 'private' }, date: Math.floor(Date.now() / 1000), edit_date: Math.floor(Date.now() / 1000), text: parsed.plain });
  }

  /** Bot API 9.5: a draft preview, in private chats only (elsewhere Telegram answers TEXTDRAFT_PEER_INVALID). */
  function sendMessageDraft(res: ServerResponse, params: Record<string, unknown>): number {
    const chatId = params.chat_id === undefined ? '' : String(params.chat_id);
    if (!chatId) return apiError(res, 400, 'Bad Request: chat_id is empty');
    if (!/^\d+$/.test(chatId)) return apiError(res, 400, 'Bad Request: TEXTDRAFT_PEER_INVALID');
    const draftId = num(params.draft_id);
    if (!draftId) return apiError(res, 400, 'Bad Request: draft_id must be non-zero');
    const parsed = parseText(params, true);
    if (!parsed.ok) return apiError(res, 400, parsed.error);
    const limited = tooFrequent(res, chatId);
    if (limited !== null) return limited;
    visible.push({ kind: 'draft', chatId, id: draftId, plain: parsed.plain, at: Date.now() });
    notify();
    return ok(res, true);
  }

  /**
   * sendPhoto / sendVoice / sendDocument with an upload: the parameter is `attach://<part>` naming a
   * multipart file part (a bare string would be a file_id or URL, which this fake does not host).
   */
  function sendFile(res: ServerResponse, method: SentFile['method'], field: string, params: Record<string, unknown>): number {
    const chatId = params.chat_id === undefined ? '' : String(params.chat_id);
    if (!chatId) return apiError(res, 400, 'Bad Request: chat_id is empty');
    const ref = params[field];
    const part = typeof ref === 'string' && ref.startsWith('attach://') ? params[ref.slice('attach://'.length)] : undefined;
    const file = part && typeof part === 'object' && 'data' in part ? (part as MultipartFile) : undefined;
    if (!file) return apiError(res, 400, 'Bad Request: wrong remote file identifier specified: Wrong string length');
    if (file.data.length === 0) return apiError(res, 400, 'Bad Request: file must be non-empty');
    const caption = typeof params.caption === 'string' ? params.caption : undefined;
    if (caption !== undefined && utf16Length(caption) > TELEGRAM_CAPTION_LIMIT) return apiError(res, 400, 'Bad Request: message caption is too long');
    if (method === 'sendPhoto' && !isPhoto(file.data)) return apiError(res, 400, 'Bad Request: IMAGE_PROCESS_FAILED');
    const messageId = nextMessageId++;
    knownMessages.add(`${chatId}:${messageId}`);
    const reply = params.reply_parameters as { message_id?: unknown } | undefined;
    sentFiles.push({ method, chatId, messageId, filename: file.filename, data: file.data, caption, threadId: num(params.message_thread_id), replyToMessageId: num(reply?.message_id) });
    visible.push({ kind: 'send', chatId, id: messageId, plain: caption ?? '', at: Date.now() });
    notify();
    return ok(res, { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: num(chatId) ?? chatId, type: 'private' }, ...(caption ? { caption } : {}) });
  }

  function sendMessage(res: ServerResponse, params: Record<string, unknown>): number {
    const chatId = params.chat_id === undefined ? '' : String(params.chat_id);
    if (!chatId) return apiError(res, 400, 'Bad Request: chat_id is empty');
    const parsed = parseText(params);
    if (!parsed.ok) return apiError(res, 400, parsed.error);
    const { raw, plain, entities, parseMode } = parsed;
    const keyboard = badKeyboard(params);
    if (keyboard) return apiError(res, 400, keyboard);
    const reply = params.reply_parameters as { message_id?: unknown; allow_sending_without_reply?: unknown } | undefined;
    const replyTo = num(reply?.message_id) ?? num(params.reply_to_message_id);
    const allowWithout = reply?.allow_sending_without_reply === true || reply?.allow_sending_without_reply === 'true';
    if (replyTo !== undefined && !allowWithout && !knownMessages.has(`${chatId}:${replyTo}`)) {
      return apiError(res, 400, 'Bad Request: message to be replied not found');
    }
    const messageId = nextMessageId++;
    knownMessages.add(`${chatId}:${messageId}`);
    const threadId = num(params.message_thread_id);
    sent.push({ chatId, messageId, text: raw, plain, entities, parseMode, threadId, replyToMessageId: replyTo, params });
    visible.push({ kind: 'send', chatId, id: messageId, plain, at: Date.now() });
    notify();
    const id = num(chatId) ?? chatId;
    return ok(res, {
      message_id: messageId,
      from: bot,
      chat: { id, type: typeof id === 'number' && id < 0 ? 'supergroup' : 'private' },
      date: Math.floor(Date.now() / 1000),
      text: plain,
      ...(entities.length ? { entities } : {}),
      ...(threadId !== undefined ? { message_thread_id: threadId } : {}),
    });
  }

  /** Updates of kinds the bot did not ask for are dropped, as Telegram does with allowed_updates. */
  function dropUnwanted(): void {
    if (!allowedUpdates) return;
    const wanted = allowedUpdates;
    for (let i = queue.length - 1; i >= 0; i--) {
      const kinds = Object.keys(queue[i]).filter((k) => k !== 'update_id');
      if (!kinds.some((k) => wanted.includes(k))) queue.splice(i, 1);
    }
  }

  function answerCallbackQuery(res: ServerResponse, params: Record<string, unknown>): number {
    const id = typeof params.callback_query_id === 'string' ? params.callback_query_id : '';
    if (!openQueries.has(id)) return apiError(res, 400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
    openQueries.delete(id);
    const text = typeof params.text === 'string' ? params.text : undefined;
    if (text !== undefined && text.length > 200) return apiError(res, 400, 'Bad Request: MESSAGE_TOO_LONG');
    callbackAnswers.push({ queryId: id, ...(text === undefined ? {} : { text }), showAlert: params.show_alert === true || params.show_alert === 'true' });
    notify();
    return ok(res, true);
  }

  function editMessageReplyMarkup(res: ServerResponse, params: Record<string, unknown>): number {
    const chatId = params.chat_id === undefined ? '' : String(params.chat_id);
    const messageId = num(params.message_id);
    const message = sent.find((m) => m.chatId === chatId && m.messageId === messageId);
    if (!message) return apiError(res, 400, 'Bad Request: message to edit not found');
    const markup = typeof params.reply_markup === 'string' ? (JSON.parse(params.reply_markup) as unknown) : params.reply_markup;
    if (JSON.stringify(markup ?? null) === JSON.stringify(message.params.reply_markup ?? null)) {
      return apiError(res, 400, 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
    }
    message.params = { ...message.params, reply_markup: markup };
    notify();
    return ok(res, true);
  }

  /** Inline keyboard buttons as Telegram checks them: callback_data of 1–64 bytes. */
  function badKeyboard(params: Record<string, unknown>): string | null {
    const markup = (typeof params.reply_markup === 'string' ? JSON.parse(params.reply_markup) : params.reply_markup) as { inline_keyboard?: unknown } | undefined;
    if (!markup?.inline_keyboard) return null;
    if (!Array.isArray(markup.inline_keyboard)) return 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays';
    for (const row of markup.inline_keyboard as unknown[]) {
      if (!Array.isArray(row)) return 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays';
      for (const b of row as Array<{ text?: unknown; callback_data?: unknown }>) {
        if (typeof b.text !== 'string' || !b.text) return 'Bad Request: text buttons are unallowed in the inline keyboard';
        if (typeof b.callback_data === 'string' && (Buffer.byteLength(b.callback_data) > 64 || !b.callback_data)) return 'Bad Request: BUTTON_DATA_INVALID';
      }
    }
    return null;
  }

  function getUpdates(res: ServerResponse, params: Record<string, unknown>): number {
    if (webhook) return apiError(res, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
    const offset = num(params.offset);
    if (offset !== undefined && offset > 0) confirm(offset);
    const allowed = typeof params.allowed_updates === 'string' ? (JSON.parse(params.allowed_updates) as unknown) : params.allowed_updates;
    if (Array.isArray(allowed) && allowed.length) allowedUpdates = allowed.map(String);
    dropUnwanted();
    const limit = Math.min(Math.max(num(params.limit) ?? 100, 1), 100);
    const timeout = Math.max(num(params.timeout) ?? 0, 0);
    if (queue.length > 0 || timeout === 0) return ok(res, queue.slice(0, limit));
    // A second long poll terminates the first, as on Telegram.
    poller?.conflict();
    let done = false;
    const finish = () => {
      done = true;
      clearTimeout(timer);
      listeners.delete(onPush);
      res.off('close', onClose);
      if (poller === self) poller = undefined;
    };
    const self: Poller = {
      limit,
      respond(updates) {
        if (done) return;
        finish();
        ok(res, updates);
      },
      conflict() {
        if (done) return;
        conflicts++;
        finish();
        apiError(res, 409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
      },
    };
    const onPush = () => {
      dropUnwanted();
      if (queue.length) self.respond(queue.slice(0, limit));
    };
    const onClose = () => finish();
    const timer = setTimeout(() => self.respond([]), Math.min(timeout * 1000, maxHold));
    listeners.add(onPush);
    res.on('close', onClose);
    poller = self;
    return 200;
  }

  const files = new Map<string, { bytes: Uint8Array; path: string; missing?: boolean; hang?: boolean; declaredSize?: number }>();
  const downloads: string[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
      if (download) {
        const path = decodeURIComponent(download[2]);
        const f = [...files.values()].find((x) => x.path === path);
        if (download[1] !== token || !f || f.missing) {
          res.writeHead(404).end('Not Found');
          return;
        }
        downloads.push(path);
        if (f.hang) {
          hanging.push(res);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(f.bytes.byteLength) }).end(Buffer.from(f.bytes));
        return;
      }
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (!match) {
        apiError(res, 404, 'Not Found');
        return;
      }
      const [, reqToken, methodRaw] = match;
      const method = methodRaw.toLowerCase();
      let params: Record<string, unknown>;
      try {
        params = await readParams(req, url);
      } catch {
        apiError(res, 400, "Bad Request: can't parse JSON object");
        return;
      }
      const record: RecordedRequest = { method: methodRaw, token: reqToken, params, status: 0, at: Date.now() };
      requests.push(record);
      lastDescription = undefined;
      const status = (() => {
        if (reqToken !== token) return apiError(res, 401, 'Unauthorized');
        const queued = failures.get(method);
        if (queued?.length) {
          const failure = queued.shift() as Failure;
          return sendFailure(res, failure);
        }
        switch (method) {
          case 'getfile': {
            const f = files.get(String(params.file_id));
            if (!f) return apiError(res, 400, 'Bad Request: invalid file_id');
            if (f.bytes.byteLength > 20_000_000) return apiError(res, 400, 'Bad Request: file is too big');
            return ok(res, { file_id: params.file_id, file_unique_id: `u${String(params.file_id)}`, file_size: f.declaredSize ?? f.bytes.byteLength, file_path: f.path });
          }
          case 'getme':
            return ok(res, { ...bot, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
          case 'getupdates':
            return getUpdates(res, params);
          case 'setmycommands':
            commands = params.commands;
            return ok(res, true);
          case 'getmycommands':
            return ok(res, commands ?? []);
          case 'deletewebhook':
            webhook = undefined;
            if (params.drop_pending_updates === true || params.drop_pending_updates === 'true') queue.length = 0;
            return ok(res, true);
          case 'setwebhook':
            if (typeof params.url !== 'string' || !params.url) return apiError(res, 400, 'Bad Request: bad webhook: HTTPS url must be provided for webhook');
            webhook = { url: params.url, secretToken: typeof params.secret_token === 'string' ? params.secret_token : undefined };
            return ok(res, true);
          case 'getwebhookinfo':
            return ok(res, { url: webhook?.url ?? '', has_custom_certificate: false, pending_update_count: queue.length });
          case 'sendmessage':
            return sendMessage(res, params);
          case 'sendphoto':
            return sendFile(res, 'sendPhoto', 'photo', params);
          case 'sendvoice':
            return sendFile(res, 'sendVoice', 'voice', params);
          case 'senddocument':
            return sendFile(res, 'sendDocument', 'document', params);
          case 'editmessagetext':
            return editMessageText(res, params);
          case 'answercallbackquery':
            return answerCallbackQuery(res, params);
          case 'editmessagereplymarkup':
            return editMessageReplyMarkup(res, params);
          case 'sendmessagedraft':
            return sendMessageDraft(res, params);
          case 'sendchataction':
            if (params.chat_id === undefined) return apiError(res, 400, 'Bad Request: chat_id is empty');
            if (params.action !== 'typing' && typeof params.action !== 'string') return apiError(res, 400, 'Bad Request: wrong parameter action in request');
            return ok(res, true);
          default:
            return apiError(res, 404, 'Not Found');
        }
      })();
      record.status = status;
      if (status >= 400) record.description = lastDescription;
      notify();
    })();
  });

  const connections = new Set<Socket>();
  server.on('connection', (socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  function waitFor<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const tryNow = () => {
        const value = check();
        if (value !== undefined) {
          listeners.delete(tryNow);
          clearTimeout(timer);
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(tryNow);
        reject(new Error(`telegram fake: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      listeners.add(tryNow);
      tryNow();
    });
  }

  function makeMessage(o: Omit<PushTextOptions, 'text'> & { text?: string }): Record<string, unknown> {
    const userId = o.userId ?? 1001;
    const chatId = o.chatId ?? userId;
    const chatType = o.chatType ?? (chatId === userId ? 'private' : chatId < -1000000000000 ? 'supergroup' : 'group');
    const chat: Record<string, unknown> = { id: chatId, type: chatType };
    if (chatType === 'private') Object.assign(chat, { first_name: o.firstName ?? 'Alice' });
    else Object.assign(chat, { title: o.chatTitle ?? 'Test group', ...(o.threadId !== undefined ? { is_forum: true } : {}) });
    const from: Record<string, unknown> = { id: userId, is_bot: o.isBot ?? false, first_name: o.firstName ?? 'Alice' };
    if (o.lastName) from.last_name = o.lastName;
    if (o.username) from.username = o.username;
    const messageId = nextMessageId++;
    knownMessages.add(`${chatId}:${messageId}`);
    const message: Record<string, unknown> = { message_id: messageId, from, chat, date: Math.floor(Date.now() / 1000) };
    if (o.text !== undefined) {
      message.text = o.text;
      const entities = detectEntities(o.text);
      if (entities.length) message.entities = entities;
    }
    if (o.threadId !== undefined) Object.assign(message, { message_thread_id: o.threadId, is_topic_message: true });
    if (o.replyTo) {
      message.reply_to_message = {
        message_id: o.replyTo.messageId,
        from: o.replyTo.fromBot ? bot : { id: userId + 1, is_bot: false, first_name: 'Bob' },
        chat,
        date: Math.floor(Date.now() / 1000) - 60,
        text: 'earlier message',
      };
    }
    if (o.edited) message.edit_date = Math.floor(Date.now() / 1000);
    return message;
  }

  const fake: TelegramFake = {
    url: `http://127.0.0.1:${port}`,
    token,
    badToken: `${botId + 1}:WRONG-token_abcdefghijklmnopqrstuvwxyz`,
    bot,
    requests,
    sent,
    visible,
    files: sentFiles,
    get confirmedOffset() {
      return confirmedOffset;
    },
    get conflicts() {
      return conflicts;
    },
    get pendingUpdates() {
      return queue;
    },
    get commands() {
      return commands;
    },
    get webhook() {
      return webhook;
    },
    downloads,
    addFile(bytes, o = {}) {
      const id = `file-${files.size + 1}-${Math.random().toString(36).slice(2, 8)}`;
      files.set(id, { bytes, path: o.path ?? `documents/${id}`, missing: o.missing, hang: o.hang, declaredSize: o.declaredSize });
      return { file_id: id, file_unique_id: `u${id}`, file_size: o.declaredSize ?? bytes.byteLength };
    },
    pushUpdate(update) {
      const id = num(update.update_id) ?? nextUpdateId;
      nextUpdateId = Math.max(nextUpdateId, id + 1);
      queue.push({ ...update, update_id: id });
      queue.sort((a, b) => Number(a.update_id) - Number(b.update_id));
      notify();
      return id;
    },
    pushText(o) {
      const message = makeMessage(o);
      return fake.pushUpdate(o.edited ? { edited_message: message } : { message });
    },
    makeMessage,
    callbackAnswers,
    pushCallback(o) {
      const queryId = o.queryId ?? `${botId}${String(nextQueryId++).padStart(6, '0')}`;
      openQueries.add(queryId);
      const chatId = o.chatId ?? o.userId;
      const from: Record<string, unknown> = { id: o.userId, is_bot: false, first_name: 'Alice', ...(o.username ? { username: o.username } : {}) };
      const message = sent.find((m) => m.chatId === String(chatId) && m.messageId === o.messageId);
      fake.pushUpdate({
        callback_query: {
          id: queryId,
          from,
          chat_instance: `ci${chatId}`,
          data: o.data,
          message: {
            message_id: o.messageId,
            from: bot,
            chat: { id: chatId, type: chatId < 0 ? 'supergroup' : 'private' },
            date: Math.floor(Date.now() / 1000),
            text: message?.plain ?? '',
            ...(message?.params.reply_markup ? { reply_markup: message.params.reply_markup } : {}),
          },
        },
      });
      return queryId;
    },
    failNext(method, failure, times = 1) {
      const key = method.toLowerCase();
      const list = failures.get(key) ?? [];
      for (let i = 0; i < times; i++) list.push(failure);
      failures.set(key, list);
    },
    waitForMessages(count, timeoutMs = 5000) {
      return waitFor(() => (sent.length >= count ? sent.slice() : undefined), timeoutMs, `${count} sent message(s), have ${sent.length}`);
    },
    waitForRequests(method, count, timeoutMs = 5000) {
      return waitFor(
        () => {
          const calls = fake.callsOf(method);
          return calls.length >= count ? calls : undefined;
        },
        timeoutMs,
        `${count} ${method} request(s)`,
      );
    },
    waitForConfirmed(offset, timeoutMs = 5000) {
      return waitFor(() => (confirmedOffset >= offset ? true : undefined), timeoutMs, `confirmed offset ${offset} (have ${confirmedOffset})`).then(() => undefined);
    },
    callsOf(method) {
      return requests.filter((r) => r.method.toLowerCase() === method.toLowerCase());
    },
    openConnections: () => connections.size,
    close() {
      poller?.respond([]);
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return fake;
}
