/**
 * A loopback Slack: the Web API methods Switchboard uses (with Slack's real refusals), response_url
 * endpoints, 429s with Retry-After on demand, and an optional Socket Mode WebSocket. Every call is
 * recorded. Plus helpers that sign requests exactly as Slack does and POST them into a receiver.
 *
 *   const slack = await startSlackFake();
 *   // adapter settings: { apiUrl: slack.apiUrl, botToken: slack.token, … }
 *   await postSigned(`http://127.0.0.1:${port}/slack/events`, SECRET, eventBody({ type: 'message', … }));
 *   const [msg] = await slack.waitForMessages(1);
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { boundaryOf, parseMultipart } from './multipart.js';

/** Slack's limits as its API enforces them. */
export const SLACK_LIMITS = { text: 40_000, sectionText: 3_000, headerText: 150, markdownBlock: 12_000, blocks: 50, responseUrlPosts: 5 } as const;

const KNOWN_BLOCK_TYPES = new Set(['section', 'divider', 'header', 'context', 'actions', 'image', 'rich_text', 'input', 'file', 'video', 'markdown', 'table']);

export interface SlackFakeUser {
  name: string;
  real_name?: string;
  display_name?: string;
}

export interface SlackFakeOptions {
  /** The bot token the fake accepts (default `xoxb-fake-token`). */
  token?: string;
  /** App-level token for apps.connections.open (default `xapp-fake-token`). */
  appToken?: string;
  botUserId?: string;
  botId?: string;
  teamId?: string;
  users?: Record<string, SlackFakeUser>;
  /** When set, only these channel ids exist; otherwise any C…/D…/G… id does. */
  channels?: string[];
  /** Channels that exist but the bot is not a member of (not_in_channel). */
  notInChannel?: string[];
}

/** One Web API call as the fake received it. */
export interface SlackCall {
  method: string;
  params: Record<string, unknown>;
  token?: string;
  contentType: string;
  /** HTTP status the fake answered with (429 for a rate-limited call). */
  status: number;
  /** `ok: false` error code, if refused. */
  error?: string;
  at: number;
}

/** A message the fake accepted (chat.postMessage, chat.postEphemeral, or a chat.startStream message). */
export interface PostedMessage {
  method: 'chat.postMessage' | 'chat.postEphemeral' | 'chat.startStream';
  /** chat.startStream: true until chat.stopStream. */
  streaming?: boolean;
  /** chat.startStream: the Markdown streamed into it so far. */
  markdown?: string;
  channel: string;
  text?: string;
  thread_ts?: string;
  user?: string;
  ts: string;
  params: Record<string, unknown>;
}

/** What the user saw change, in order: a message posted or updated, or a streaming message started, grown or ended. */
export interface SlackVisible {
  kind: 'post' | 'update' | 'start' | 'append' | 'stop';
  channel: string;
  ts: string;
  text: string;
  at: number;
}

export interface ResponseUrlPost {
  id: string;
  status: number;
  body: Record<string, unknown>;
  at: number;
}

/**
 * A file through Slack's external upload: files.getUploadURLExternal (filename, length) gives an
 * upload URL and a file id; the bytes are POSTed there (raw, or multipart with a file part);
 * files.completeUploadExternal (files: [{id, title}], channel_id, thread_ts, initial_comment)
 * shares it. `data` is what arrived at the upload URL.
 */
export interface SlackUpload {
  fileId: string;
  filename: string;
  length: number;
  data?: Buffer;
  title?: string;
  /** Set once completed with a channel. */
  channel?: string;
  thread_ts?: string;
  initial_comment?: string;
  completed: boolean;
}

/** An envelope the client acknowledged over Socket Mode. */
export interface SocketAck {
  envelope_id: string;
  payload?: Record<string, unknown>;
}

export interface SlackFake {
  /** Web API base, e.g. `http://127.0.0.1:PORT/api` (what SLACK_API_URL takes). */
  apiUrl: string;
  /** Server root, e.g. `http://127.0.0.1:PORT`. */
  baseUrl: string;
  token: string;
  appToken: string;
  botUserId: string;
  botId: string;
  teamId: string;
  calls: SlackCall[];
  /** Messages posted, in order (chat.update changes a message's text in place). */
  messages: PostedMessage[];
  /** Posts and updates with their times. */
  visible: SlackVisible[];
  /** chat.update calls per channel in any rolling second before a 429 with Retry-After 1 (default 3). */
  updateLimit: { perSecond: number };
  responsePosts: ResponseUrlPost[];
  /** Files by the external upload sequence, in the order their URLs were asked for. */
  uploads: SlackUpload[];
  callsTo(method: string): SlackCall[];
  /** A fresh response_url on this fake (`/respond/<id>`). */
  responseUrl(id?: string): string;
  /** The next `times` calls of `method` get HTTP 429 with `Retry-After: seconds`. */
  rateLimit(method: string, seconds: number, times?: number): void;
  /** The next `times` calls of `method` get `{ ok: false, error }`. */
  failNext(method: string, error: string, times?: number): void;
  /** The next `times` calls of `method` are cut off without an answer (a network error). */
  dropNext(method: string, times?: number): void;
  /**
   * Every later call of `method` is answered after `ms`, plus up to `jitterMs` more at random (the varying
   * latency of the real API); `delay(method, 0)` undoes it.
   */
  delay(method: string, ms: number, jitterMs?: number): void;
  /** Makes a response_url answer 404 `expired_url` from now on. */
  expireResponseUrl(id: string): void;
  waitForCalls(method: string, count: number, timeoutMs?: number): Promise<SlackCall[]>;
  waitForMessages(count: number, timeoutMs?: number): Promise<PostedMessage[]>;
  waitForResponsePosts(count: number, timeoutMs?: number): Promise<ResponseUrlPost[]>;
  /** Socket Mode: resolves once a client connected (and got `hello`). */
  socketConnected(timeoutMs?: number): Promise<void>;
  /** Socket Mode: sends an envelope (`events_api`, `slash_commands`, …) and resolves with the client's ack. */
  sendSocketEnvelope(type: string, payload: Record<string, unknown>, timeoutMs?: number): Promise<SocketAck>;
  /** Socket Mode: cuts every open connection (no close frame), as a network drop would. */
  dropSockets(): void;
  /** Socket Mode: the next `times` connection attempts are refused (the upgrade is cut off). */
  refuseSockets(times?: number): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Form bodies carry objects (blocks, attachments) as JSON strings, as the Web API client sends them. */
function parseParams(raw: string, contentType: string): Record<string, unknown> {
  if (contentType.includes('application/json')) return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) out[k] = v;
  return out;
}

function asBlocks(value: unknown): unknown[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      return [null];
    }
  }
  return Array.isArray(value) ? value : [value];
}

function textOf(obj: unknown): string | undefined {
  if (obj && typeof obj === 'object' && 'text' in obj) {
    const t = (obj as { text: unknown }).text;
    return typeof t === 'string' ? t : undefined;
  }
  return undefined;
}

/** Slack's block validation, as far as text limits and types go: returns an error code or undefined. */
function checkBlocks(blocks: unknown[]): string | undefined {
  if (blocks.length > SLACK_LIMITS.blocks) return 'invalid_blocks';
  for (const block of blocks) {
    if (!block || typeof block !== 'object') return 'invalid_blocks';
    const type = (block as { type?: unknown }).type;
    if (typeof type !== 'string' || !KNOWN_BLOCK_TYPES.has(type)) return 'invalid_blocks';
    if (type === 'section') {
      const text = textOf((block as { text?: unknown }).text);
      const fields = (block as { fields?: unknown }).fields;
      if (text === undefined && !Array.isArray(fields)) return 'invalid_blocks';
      if (text !== undefined && (text.length === 0 || text.length > SLACK_LIMITS.sectionText)) return 'invalid_blocks';
    }
    if (type === 'header' && (textOf((block as { text?: unknown }).text)?.length ?? 0) > SLACK_LIMITS.headerText) return 'invalid_blocks';
    if (type === 'actions') {
      // Block Kit: 1–25 elements; a button has plain_text of 1–75 characters, an action_id ≤ 255 unique in the message, a value ≤ 2000.
      const elements = (block as { elements?: unknown }).elements;
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25) return 'invalid_blocks';
      const ids = new Set<string>();
      for (const e of elements as Array<{ type?: unknown; text?: { type?: unknown; text?: unknown }; action_id?: unknown; value?: unknown }>) {
        if (e.type !== 'button') continue;
        if (e.text?.type !== 'plain_text' || typeof e.text.text !== 'string' || !e.text.text || e.text.text.length > 75) return 'invalid_blocks';
        if (typeof e.action_id !== 'string' || e.action_id.length > 255 || ids.has(e.action_id)) return 'invalid_blocks';
        ids.add(e.action_id);
        if (e.value !== undefined && (typeof e.value !== 'string' || e.value.length > 2000)) return 'invalid_blocks';
      }
    }
    if (type === 'markdown') {
      const text = (block as { text?: unknown }).text;
      if (typeof text !== 'string' || text.length > SLACK_LIMITS.markdownBlock) return 'invalid_blocks';
    }
  }
  return undefined;
}

function waitUntil<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error(`slack fake: timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

export async function startSlackFake(options: SlackFakeOptions = {}): Promise<SlackFake> {
  const token = options.token ?? 'xoxb-fake-token';
  const appToken = options.appToken ?? 'xapp-fake-token';
  const botUserId = options.botUserId ?? 'UBOT';
  const botId = options.botId ?? 'BBOT';
  const teamId = options.teamId ?? 'T0001';
  const users: Record<string, SlackFakeUser> = { [botUserId]: { name: 'switchboard', real_name: 'Switchboard' }, ...options.users };
  const channels = options.channels ? new Set(options.channels) : undefined;
  const notInChannel = new Set(options.notInChannel ?? []);

  const calls: SlackCall[] = [];
  const messages: PostedMessage[] = [];
  const visible: SlackVisible[] = [];
  const updateLimit = { perSecond: 3 };
  const updateTimes = new Map<string, number[]>();
  const responsePosts: ResponseUrlPost[] = [];
  const uploads: SlackUpload[] = [];
  const rateLimits = new Map<string, { seconds: number; times: number }>();
  const failures = new Map<string, { error: string; times: number }>();
  const drops = new Map<string, number>();
  const delays = new Map<string, { ms: number; jitterMs: number }>();
  const expired = new Set<string>();
  const responseCounts = new Map<string, number>();
  const channelMessages = new Map<string, string>(); // `${channel}/${ts}` → text
  let tsCounter = 0;
  let baseUrl = '';

  const nextTs = () => {
    tsCounter += 1;
    return `${1_700_000_000 + tsCounter}.${String(tsCounter).padStart(6, '0')}`;
  };
  const channelExists = (id: string) => (channels ? channels.has(id) : /^[CDG][A-Z0-9]+$/.test(id));

  function take<T extends { times: number }>(map: Map<string, T>, method: string): T | undefined {
    const entry = map.get(method);
    if (!entry) return undefined;
    entry.times -= 1;
    if (entry.times <= 0) map.delete(method);
    return entry;
  }

  /** Runs one Web API method; returns the JSON body (ok true or false). */
  function handle(method: string, params: Record<string, unknown>, bearer: string | undefined): Record<string, unknown> {
    const str = (k: string) => (typeof params[k] === 'string' ? (params[k] as string) : undefined);
    if (method === 'apps.connections.open') {
      if (!bearer) return { ok: false, error: 'not_authed' };
      if (bearer !== appToken) return { ok: false, error: bearer === token ? 'not_allowed_token_type' : 'invalid_auth' };
      return { ok: true, url: `${baseUrl.replace(/^http/, 'ws')}/socket?ticket=${randomUUID()}` };
    }
    if (!bearer) return { ok: false, error: 'not_authed' };
    if (bearer !== token) return { ok: false, error: 'invalid_auth' };
    switch (method) {
      case 'auth.test':
        return { ok: true, url: 'https://fake.slack.test/', team: 'Fake Team', user: 'switchboard', team_id: teamId, user_id: botUserId, bot_id: botId, is_enterprise_install: false };
      case 'users.info': {
        const id = str('user') ?? '';
        const u = users[id];
        if (!u) return { ok: false, error: 'user_not_found' };
        return { ok: true, user: { id, name: u.name, real_name: u.real_name ?? u.name, profile: { display_name: u.display_name ?? '', real_name: u.real_name ?? u.name } } };
      }
      case 'chat.postMessage':
      case 'chat.postEphemeral': {
        const channel = str('channel') ?? '';
        if (!channelExists(channel)) return { ok: false, error: 'channel_not_found' };
        if (notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        const text = str('text');
        const blocks = asBlocks(params.blocks);
        if (blocks) {
          const bad = checkBlocks(blocks);
          if (bad) return { ok: false, error: bad };
        }
        if ((text === undefined || text === '') && !blocks && !str('markdown_text')) return { ok: false, error: 'no_text' };
        if (text !== undefined && text.length > SLACK_LIMITS.text) return { ok: false, error: 'msg_too_long' };
        if (method === 'chat.postEphemeral') {
          const user = str('user');
          if (!user) return { ok: false, error: 'user_not_found' };
          const ts = nextTs();
          messages.push({ method, channel, text, thread_ts: str('thread_ts'), user, ts, params });
          return { ok: true, message_ts: ts };
        }
        const ts = nextTs();
        channelMessages.set(`${channel}/${ts}`, text ?? '');
        messages.push({ method, channel, text, thread_ts: str('thread_ts'), ts, params });
        visible.push({ kind: 'post', channel, ts, text: text ?? '', at: Date.now() });
        return { ok: true, channel, ts, message: { type: 'message', text, user: botUserId, bot_id: botId, ts, thread_ts: str('thread_ts') } };
      }
      case 'chat.startStream': {
        const channel = str('channel') ?? '';
        if (!channelExists(channel)) return { ok: false, error: 'channel_not_found' };
        if (notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        const threadTs = str('thread_ts');
        // Slack streams replies to a user's request: in a thread; outside a DM, to a named recipient.
        if (!threadTs) return { ok: false, error: 'invalid_arguments' };
        if (!channel.startsWith('D') && (!str('recipient_team_id') || !str('recipient_user_id'))) return { ok: false, error: 'invalid_arguments' };
        const markdown = str('markdown_text') ?? '';
        if (markdown.length > 12_000) return { ok: false, error: 'msg_too_long' };
        const ts = nextTs();
        channelMessages.set(`${channel}/${ts}`, markdown);
        messages.push({ method: 'chat.startStream', channel, text: markdown, markdown, streaming: true, thread_ts: threadTs, ts, params });
        visible.push({ kind: 'start', channel, ts, text: markdown, at: Date.now() });
        return { ok: true, channel, ts };
      }
      case 'chat.appendStream':
      case 'chat.stopStream': {
        const channel = str('channel') ?? '';
        const ts = str('ts') ?? '';
        const posted = messages.find((m) => m.channel === channel && m.ts === ts);
        if (!posted) return { ok: false, error: 'message_not_found' };
        if (!posted.streaming) return { ok: false, error: 'message_not_in_streaming_state' };
        const markdown = str('markdown_text') ?? '';
        if (method === 'chat.appendStream' && !markdown) return { ok: false, error: 'no_text' };
        if (markdown.length > 12_000) return { ok: false, error: 'msg_too_long' };
        posted.markdown = (posted.markdown ?? '') + markdown;
        posted.text = posted.markdown;
        if (method === 'chat.stopStream') posted.streaming = false;
        visible.push({ kind: method === 'chat.stopStream' ? 'stop' : 'append', channel, ts, text: posted.markdown, at: Date.now() });
        return { ok: true, channel, ts };
      }
      case 'files.getUploadURLExternal': {
        const filename = str('filename');
        const length = Number(params.length);
        if (!filename) return { ok: false, error: 'invalid_arguments' };
        if (!Number.isInteger(length) || length <= 0) return { ok: false, error: 'invalid_arguments' };
        const fileId = `F${String(uploads.length + 1).padStart(8, '0')}`;
        uploads.push({ fileId, filename, length, completed: false });
        return { ok: true, upload_url: `${baseUrl}/upload/${fileId}`, file_id: fileId };
      }
      case 'files.completeUploadExternal': {
        let files: unknown;
        try {
          files = typeof params.files === 'string' ? JSON.parse(params.files) : params.files;
        } catch {
          return { ok: false, error: 'invalid_arguments' };
        }
        if (!Array.isArray(files) || files.length === 0) return { ok: false, error: 'invalid_arguments' };
        const channel = str('channel_id');
        if (channel !== undefined && !channelExists(channel)) return { ok: false, error: 'channel_not_found' };
        if (channel !== undefined && notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        const done: SlackUpload[] = [];
        for (const f of files as Array<{ id?: unknown; title?: unknown }>) {
          const upload = uploads.find((u) => u.fileId === f.id);
          // A file whose bytes never arrived (or arrived short) cannot be completed.
          if (!upload || !upload.data || upload.data.length !== upload.length) return { ok: false, error: 'file_not_found' };
          if (upload.completed) return { ok: false, error: 'file_already_completed' };
          done.push(upload);
          if (typeof f.title === 'string') upload.title = f.title;
        }
        for (const upload of done) {
          upload.completed = true;
          upload.channel = channel;
          upload.thread_ts = str('thread_ts');
          upload.initial_comment = str('initial_comment');
          if (channel) visible.push({ kind: 'post', channel, ts: nextTs(), text: upload.initial_comment ?? '', at: Date.now() });
        }
        return { ok: true, files: done.map((u) => ({ id: u.fileId, title: u.title ?? u.filename })) };
      }
      case 'chat.update': {
        const channel = str('channel') ?? '';
        const ts = str('ts') ?? '';
        if (!channelExists(channel)) return { ok: false, error: 'channel_not_found' };
        if (!channelMessages.has(`${channel}/${ts}`)) return { ok: false, error: 'message_not_found' };
        if (messages.find((m) => m.channel === channel && m.ts === ts)?.streaming) return { ok: false, error: 'cant_update_message' };
        const text = str('text');
        if (text !== undefined && text.length > SLACK_LIMITS.text) return { ok: false, error: 'msg_too_long' };
        if ((text === undefined || text === '') && !asBlocks(params.blocks)) return { ok: false, error: 'no_text' };
        channelMessages.set(`${channel}/${ts}`, text ?? '');
        const posted = messages.find((m) => m.channel === channel && m.ts === ts);
        if (posted) posted.text = text;
        // As Slack: blocks given with the update replace the message's (buttons not among them are gone).
        if (posted && params.blocks !== undefined) posted.params = { ...posted.params, blocks: params.blocks };
        visible.push({ kind: 'update', channel, ts, text: text ?? '', at: Date.now() });
        return { ok: true, channel, ts, text };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  async function onApi(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    const contentType = String(req.headers['content-type'] ?? '');
    const raw = await readBody(req);
    let params: Record<string, unknown>;
    try {
      params = parseParams(raw, contentType);
    } catch {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'invalid_json' }));
      return;
    }
    const auth = String(req.headers.authorization ?? '');
    const bearer = auth.startsWith('Bearer ') ? auth.slice(7) : typeof params.token === 'string' ? params.token : undefined;
    const call: SlackCall = { method, params, token: bearer, contentType, status: 200, at: Date.now() };
    calls.push(call);
    const drop = drops.get(method);
    if (drop) {
      if (drop <= 1) drops.delete(method);
      else drops.set(method, drop - 1);
      call.status = 0;
      req.socket.destroy();
      return;
    }
    const latency = delays.get(method);
    if (latency) await new Promise((resolve) => setTimeout(resolve, latency.ms + Math.random() * latency.jitterMs));
    let limited = take(rateLimits, method);
    if (!limited && (method === 'chat.update' || method === 'chat.appendStream') && typeof params.channel === 'string') {
      const now = Date.now();
      const times = (updateTimes.get(params.channel) ?? []).filter((t) => now - t < 1000);
      if (times.length >= updateLimit.perSecond) limited = { seconds: 1, times: 0 };
      else times.push(now);
      updateTimes.set(params.channel, times);
    }
    if (limited) {
      call.status = 429;
      call.error = 'ratelimited';
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(limited.seconds) }).end(JSON.stringify({ ok: false, error: 'ratelimited' }));
      return;
    }
    const failure = take(failures, method);
    const body = failure ? { ok: false, error: failure.error } : handle(method, params, bearer);
    if (body.ok === false) call.error = String(body.error);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  }

  /** The upload URL: the bytes, raw or as a multipart file part, as Slack takes them. */
  async function onUpload(req: IncomingMessage, res: ServerResponse, fileId: string): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const body = Buffer.concat(parts);
    const upload = uploads.find((u) => u.fileId === fileId);
    if (!upload || upload.completed) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const boundary = boundaryOf(req.headers['content-type']);
    upload.data = boundary ? (parseMultipart(body, boundary).files[0]?.data ?? Buffer.alloc(0)) : body;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${upload.data.length}`);
  }

  async function onRespond(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const raw = await readBody(req);
    let body: Record<string, unknown>;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      body = { raw };
    }
    const used = (responseCounts.get(id) ?? 0) + 1;
    responseCounts.set(id, used);
    let status = 200;
    let answer: Record<string, unknown> = { ok: true };
    if (expired.has(id)) [status, answer] = [404, { ok: false, error: 'expired_url' }];
    else if (used > SLACK_LIMITS.responseUrlPosts) [status, answer] = [404, { ok: false, error: 'used_url' }];
    else if (typeof body.text !== 'string' || body.text === '') [status, answer] = [400, { ok: false, error: 'no_text' }];
    else if (body.text.length > SLACK_LIMITS.text) [status, answer] = [400, { ok: false, error: 'msg_too_long' }];
    responsePosts.push({ id, status, body, at: Date.now() });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const api = /^\/api\/([A-Za-z.]+)$/.exec(path);
    const respond = /^\/respond\/([^/]+)$/.exec(path);
    const upload = /^\/upload\/([^/]+)$/.exec(path);
    const work =
      req.method === 'POST' && api
        ? onApi(req, res, api[1])
        : req.method === 'POST' && respond
          ? onRespond(req, res, respond[1])
          : req.method === 'POST' && upload
            ? onUpload(req, res, upload[1])
            : null;
    if (!work) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    work.catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });

  // Socket Mode: one WebSocket endpoint; `hello` on connect, envelopes on demand, acks collected.
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  const acks = new Map<string, (ack: SocketAck) => void>();
  let refusals = 0;
  server.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/socket')) return socket.destroy();
    if (refusals > 0) {
      refusals -= 1;
      return socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data) => {
        try {
          const msg = JSON.parse(String(data)) as SocketAck;
          acks.get(msg.envelope_id)?.(msg);
          acks.delete(msg.envelope_id);
        } catch {
          // not an ack
        }
      });
      ws.send(JSON.stringify({ type: 'hello', num_connections: 1, debug_info: { host: 'fake', approximate_connection_time: 3600 }, connection_info: { app_id: 'A0001' } }));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    apiUrl: `${baseUrl}/api`,
    baseUrl,
    token,
    appToken,
    botUserId,
    botId,
    teamId,
    calls,
    messages,
    visible,
    updateLimit,
    responsePosts,
    uploads,
    callsTo: (method) => calls.filter((c) => c.method === method),
    responseUrl: (id = randomUUID()) => `${baseUrl}/respond/${id}`,
    rateLimit: (method, seconds, times = 1) => void rateLimits.set(method, { seconds, times }),
    failNext: (method, error, times = 1) => void failures.set(method, { error, times }),
    dropNext: (method, times = 1) => void drops.set(method, times),
    delay: (method, ms, jitterMs = 0) => void (ms > 0 || jitterMs > 0 ? delays.set(method, { ms, jitterMs }) : delays.delete(method)),
    expireResponseUrl: (id) => void expired.add(id),
    waitForCalls: (method, count, timeoutMs = 5_000) =>
      waitUntil(() => {
        const list = calls.filter((c) => c.method === method);
        return list.length >= count ? list : undefined;
      }, timeoutMs, `${count} ${method} call(s)`),
    waitForMessages: (count, timeoutMs = 5_000) => waitUntil(() => (messages.length >= count ? messages.slice() : undefined), timeoutMs, `${count} message(s)`),
    waitForResponsePosts: (count, timeoutMs = 5_000) =>
      waitUntil(() => (responsePosts.length >= count ? responsePosts.slice() : undefined), timeoutMs, `${count} response_url post(s)`),
    socketConnected: (timeoutMs = 5_000) => waitUntil(() => (sockets.size > 0 ? true : undefined), timeoutMs, 'a Socket Mode connection').then(() => undefined),
    sendSocketEnvelope: (type, payload, timeoutMs = 5_000) =>
      new Promise<SocketAck>((resolve, reject) => {
        const ws = [...sockets].find((s) => s.readyState === WebSocket.OPEN);
        if (!ws) return reject(new Error('slack fake: no Socket Mode client connected'));
        const envelopeId = randomUUID();
        const timer = setTimeout(() => {
          acks.delete(envelopeId);
          reject(new Error(`slack fake: no ack for ${type} envelope within ${timeoutMs} ms`));
        }, timeoutMs);
        acks.set(envelopeId, (ack) => {
          clearTimeout(timer);
          resolve(ack);
        });
        ws.send(JSON.stringify({ envelope_id: envelopeId, type, payload, accepts_response_payload: type !== 'events_api', retry_attempt: 0, retry_reason: '' }));
      }),
    dropSockets: () => {
      for (const ws of sockets) ws.terminate();
    },
    refuseSockets: (times = 1) => {
      refusals = times;
    },
    close: async () => {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export * from './slack-requests.js';
