/**
 * Loopback Discord REST API (`/api/v10/…`) for the routes Switchboard uses, answering as Discord does:
 * 401 for a bad token, 400 50035 "Invalid Form Body" for content over 2,000 code points, 400 50006 for an
 * empty message, 429 with `Retry-After` and `x-ratelimit-*` headers on demand, rate-limit headers always.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIMessage } from 'discord-api-types/v10';
import { createdMessage, snowflake } from './payloads.js';
import type { FailureSpec, FakeWorld, PostedMessage } from './state.js';
import { boundaryOf, parseMultipart, type MultipartFile } from '../multipart.js';

const MAX_CONTENT = 2000;

export interface InteractionRecord {
  interactionId: string;
  token: string;
  channelId: string;
  acknowledged: boolean;
  /** A component interaction: the message whose button was pressed (UPDATE_MESSAGE edits it). */
  messageId?: string;
}

/** Discord's checks on message components: action rows (type 1) of at most 5 buttons; custom_id 1–100, label ≤ 80, unique. */
function badComponents(components: unknown): string | null {
  if (components === undefined) return null;
  if (!Array.isArray(components) || components.length > 5) return 'components: must be an array of at most 5 action rows';
  const ids = new Set<string>();
  for (const row of components as Array<{ type?: unknown; components?: unknown }>) {
    if (row.type !== 1 || !Array.isArray(row.components) || row.components.length === 0 || row.components.length > 5) return 'components: an action row holds 1–5 components';
    for (const b of row.components as Array<{ type?: unknown; style?: unknown; label?: unknown; custom_id?: unknown; url?: unknown }>) {
      if (b.type !== 2) continue;
      if (typeof b.label === 'string' && b.label.length > 80) return 'components: label must be 80 or fewer in length';
      if (b.style === 5) continue;
      if (typeof b.custom_id !== 'string' || b.custom_id.length < 1 || b.custom_id.length > 100) return 'components: custom_id must be 1–100 characters';
      if (ids.has(b.custom_id)) return 'components: custom_id must be unique';
      ids.add(b.custom_id);
    }
  }
  return null;
}

export interface RestHooks {
  /** The gateway URL handed out by GET /gateway/bot. */
  gatewayUrl(): string;
  /** Called for each channel message the bot posted (the gateway echoes it as MESSAGE_CREATE, as Discord does). */
  onPosted(message: APIMessage): void;
  /** Interactions by token (filled by the fake's sendSlashCommand). */
  interactions: Map<string, InteractionRecord>;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function rateHeaders(bucket: string, remaining: number, resetAfter: number): Record<string, string> {
  return {
    'x-ratelimit-limit': '5',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': ((Date.now() + resetAfter * 1000) / 1000).toFixed(3),
    'x-ratelimit-reset-after': resetAfter.toFixed(3),
    'x-ratelimit-bucket': bucket,
  };
}

function failureReply(spec: FailureSpec, bucket: string): Reply {
  if (spec.status === 429) {
    const retryAfter = spec.retryAfter ?? 0.3;
    return {
      status: 429,
      body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
      // Discord's header is whole seconds, rounded up; the body carries the precise value.
      headers: { ...rateHeaders(bucket, 0, retryAfter), 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-scope': 'user' },
    };
  }
  if (spec.status >= 500) return { status: spec.status, body: { message: `${spec.status}: ${spec.message ?? 'Internal Server Error'}`, code: 0 } };
  return { status: spec.status, body: { message: spec.message ?? (spec.status === 403 ? 'Missing Permissions' : 'Unknown Channel'), code: spec.code ?? (spec.status === 403 ? 50013 : 10003) } };
}

/** Validates a message body the way Discord does; returns an error reply or the accepted fields. */
function validateContent(body: Record<string, unknown>): Reply | { content: string } {
  const content = body.content;
  const hasOther = ['embeds', 'attachments', 'files', 'sticker_ids', 'components', 'poll'].some((k) => k in body);
  if (content !== undefined && typeof content !== 'string') {
    return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: { content: { _errors: [{ code: 'STRING_TYPE_CONVERT', message: 'Could not interpret the value as string.' }] } } } };
  }
  if (typeof content === 'string' && codePoints(content) > MAX_CONTENT) {
    return {
      status: 400,
      body: { code: 50035, message: 'Invalid Form Body', errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_CONTENT} or fewer in length.` }] } } },
    };
  }
  if ((typeof content !== 'string' || content.trim() === '') && !hasOther) return { status: 400, body: { code: 50006, message: 'Cannot send an empty message' } };
  return { content: typeof content === 'string' ? content : '' };
}

/** Discord's rule: @everyone/@here ping unless allowed_mentions leaves "everyone" out (absent = parse everything). */
function pingsEveryone(content: string, allowed: unknown): boolean {
  if (!/@(everyone|here)\b/.test(content)) return false;
  if (allowed === undefined || allowed === null || typeof allowed !== 'object') return true;
  const parse = (allowed as { parse?: unknown }).parse;
  return Array.isArray(parse) && parse.includes('everyone');
}

/** Discord's upload limit per request without boosts (10 MiB): larger is 413, code 40005. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * A multipart message as Discord reads it: the JSON in `payload_json`, the files in `files[n]` parts
 * (matched to `attachments[].id`). The files ride along under FILES, out of the JSON's keys.
 */
export const FILES = Symbol('files');
export type UploadedFile = MultipartFile;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  const raw = Buffer.concat(parts);
  const boundary = boundaryOf(req.headers['content-type']);
  if (boundary) {
    const { fields, files } = parseMultipart(raw, boundary);
    const payload = (fields.payload_json ? JSON.parse(fields.payload_json) : {}) as Record<string | symbol, unknown>;
    payload[FILES] = files;
    return payload;
  }
  const text = raw.toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { __invalidJson: text };
  }
}

function uploaded(obj: Record<string | symbol, unknown>): MultipartFile[] {
  const files = obj[FILES];
  return Array.isArray(files) ? (files as MultipartFile[]) : [];
}

/** Files as Discord takes them: each `files[n]` part named in `attachments` by id n, within the upload limit. */
function checkFiles(obj: Record<string | symbol, unknown>): Reply | undefined {
  const files = uploaded(obj);
  if (!files.length) return undefined;
  const total = files.reduce((n, f) => n + f.data.length, 0);
  if (total > MAX_UPLOAD_BYTES) return { status: 413, body: { message: 'Request entity too large', code: 40005 } };
  const attachments = Array.isArray(obj.attachments) ? (obj.attachments as Array<{ id?: unknown }>) : [];
  for (const f of files) {
    const n = /^files\[(\d+)\]$/.exec(f.field)?.[1];
    if (n === undefined || !attachments.some((a) => String(a.id) === n)) {
      return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: { attachments: { _errors: [{ code: 'ATTACHMENT_NOT_FOUND', message: `No attachment for ${f.field}` }] } } } };
    }
  }
  return undefined;
}

/** The recorded form of a message's files and flags (only when it has them). */
function filesOf(obj: Record<string | symbol, unknown>): Pick<PostedMessage, 'files'> {
  const files = uploaded(obj);
  return files.length ? { files: files.map((f) => ({ filename: f.filename, data: f.data, contentType: f.contentType })) } : {};
}

export function createRestServer(world: FakeWorld, hooks: RestHooks): Server {
  const route = async (method: string, path: string, req: IncomingMessage, body: unknown): Promise<Reply> => {
    const authorized = req.headers.authorization === `Bot ${world.token}`;
    const obj = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    let m: RegExpMatchArray | null;

    // Webhook (interaction) routes authenticate by the token in the path, not the bot token.
    if ((m = path.match(/^\/webhooks\/(\d+)\/([^/]+)(\/messages\/@original)?$/))) {
      const fail = world.takeFailure('webhook', path);
      if (fail) return failureReply(fail, 'webhook');
      const interaction = hooks.interactions.get(decodeURIComponent(m[2]));
      if (m[1] !== world.applicationId || !interaction) return { status: 401, body: { message: 'Invalid Webhook Token', code: 50027 } };
      if (!interaction.acknowledged) return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
      const original = Boolean(m[3]);
      if ((original && method !== 'PATCH') || (!original && method !== 'POST')) return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } };
      const checked = validateContent(obj);
      if ('status' in checked) return checked;
      const upload = checkFiles(obj);
      if (upload) return upload;
      const id = snowflake();
      world.record({
        id,
        channelId: `webhook:${m[1]}`,
        kind: original ? 'interaction-original' : 'interaction-followup',
        content: checked.content,
        allowedMentions: obj.allowed_mentions,
        messageReference: obj.message_reference,
        pingsEveryone: pingsEveryone(checked.content, obj.allowed_mentions),
        flags: obj.flags,
        extraKeys: Object.keys(obj).filter((k) => !['content', 'allowed_mentions', 'message_reference', 'flags'].includes(k)),
        ...filesOf(obj),
      });
      return { status: 200, body: createdMessage({ id, channelId: interaction.channelId, author: world.bot, content: checked.content, pingsEveryone: false }) };
    }
    if ((m = path.match(/^\/interactions\/(\d+)\/([^/]+)\/callback$/)) && method === 'POST') {
      const interaction = hooks.interactions.get(decodeURIComponent(m[2]));
      if (!interaction || interaction.interactionId !== m[1]) return { status: 404, body: { message: 'Unknown interaction', code: 10062 } };
      if (interaction.acknowledged) return { status: 400, body: { message: 'Interaction has already been acknowledged.', code: 40060 } };
      const data = (obj.data && typeof obj.data === 'object' ? obj.data : undefined) as Record<string, unknown> | undefined;
      // UPDATE_MESSAGE (7) answers a component interaction only; it edits the message the button is on.
      if (Number(obj.type) === 7) {
        if (!interaction.messageId) return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: { type: { _errors: [{ code: 'INTERACTION_RESPONSE_TYPE_INVALID', message: 'Invalid interaction response type' }] } } } };
        const bad = badComponents(data?.components);
        if (bad) return { status: 400, body: { code: 50035, message: `Invalid Form Body (${bad})` } };
        const message = world.messages.find((p) => p.id === interaction.messageId);
        if (message) {
          if (typeof data?.content === 'string') world.recordEdit(message, data.content);
          if (data && 'components' in data) message.components = data.components;
        }
      }
      interaction.acknowledged = true;
      world.interactionCallbacks.push({ interactionId: m[1], token: m[2], type: Number(obj.type), ...(data ? { data } : {}), at: Date.now() });
      return { status: 204 };
    }

    if (!authorized) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };

    if (path === '/gateway/bot' && method === 'GET') {
      return { status: 200, body: { url: hooks.gatewayUrl(), shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 } } };
    }
    if (path === '/users/@me' && method === 'GET') return { status: 200, body: world.bot };
    if ((m = path.match(/^\/applications\/(\d+)\/commands$/)) && method === 'PUT') {
      if (m[1] !== world.applicationId) return { status: 403, body: { message: 'Missing Access', code: 50001 } };
      world.commandRegistrations.push(body);
      const list = Array.isArray(body) ? body : [];
      return { status: 200, body: list.map((c: Record<string, unknown>) => ({ ...c, id: snowflake(), application_id: world.applicationId, version: snowflake(), type: c.type ?? 1 })) };
    }
    if ((m = path.match(/^\/channels\/(\d+)\/typing$/)) && method === 'POST') {
      const fail = world.takeFailure('typing', path);
      if (fail) return failureReply(fail, 'typing');
      if (!world.channels.has(m[1])) return { status: 404, body: { message: 'Unknown Channel', code: 10003 } };
      world.typing.push(m[1]);
      return { status: 204 };
    }
    if ((m = path.match(/^\/channels\/(\d+)\/messages$/)) && method === 'POST') {
      const channelId = m[1];
      const fail = world.takeFailure('messages', path);
      if (fail) return failureReply(fail, `messages-${channelId}`);
      if (!world.channels.has(channelId)) return { status: 404, body: { message: 'Unknown Channel', code: 10003 } };
      const checked = validateContent(obj);
      if ('status' in checked) return checked;
      const badRows = badComponents(obj.components);
      if (badRows) return { status: 400, body: { code: 50035, message: `Invalid Form Body (${badRows})` } };
      const upload = checkFiles(obj);
      if (upload) return upload;
      let replyTo: string | undefined;
      const ref = obj.message_reference as { message_id?: unknown; fail_if_not_exists?: unknown } | undefined;
      if (ref && typeof ref === 'object' && typeof ref.message_id === 'string') {
        if (world.knownMessages.get(channelId)?.has(ref.message_id)) replyTo = ref.message_id;
        else if (ref.fail_if_not_exists !== false) {
          return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: { message_reference: { _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' }] } } } };
        }
      }
      const id = snowflake();
      const pings = pingsEveryone(checked.content, obj.allowed_mentions);
      const created = createdMessage({ id, channelId, author: world.bot, content: checked.content, replyTo, pingsEveryone: pings });
      world.remember(created);
      world.record({
        id,
        channelId,
        kind: 'channel',
        content: checked.content,
        allowedMentions: obj.allowed_mentions,
        messageReference: obj.message_reference,
        replyTo,
        pingsEveryone: pings,
        flags: obj.flags,
        extraKeys: Object.keys(obj).filter((k) => !['content', 'allowed_mentions', 'message_reference', 'flags'].includes(k)),
        ...(obj.components === undefined ? {} : { components: obj.components }),
        ...filesOf(obj),
      });
      hooks.onPosted(created);
      return { status: 200, body: created };
    }
    if ((m = path.match(/^\/channels\/(\d+)\/messages\/(\d+)$/)) && method === 'PATCH') {
      const [, channelId, messageId] = m;
      const fail = world.takeFailure('edits', path);
      if (fail) return failureReply(fail, `edits-${channelId}`);
      const message = world.messages.find((p) => p.id === messageId && p.channelId === channelId && p.kind === 'channel');
      if (!message) return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
      const checked = validateContent(obj);
      if ('status' in checked) return checked;
      const now = Date.now();
      const times = (world.editTimes.get(channelId) ?? []).filter((t) => now - t < world.editLimit.windowMs);
      if (times.length >= world.editLimit.count) {
        world.editTimes.set(channelId, times);
        return failureReply({ route: 'edits', status: 429, retryAfter: Math.max(0.05, (times[0] + world.editLimit.windowMs - now) / 1000) }, `edits-${channelId}`);
      }
      times.push(now);
      world.editTimes.set(channelId, times);
      world.recordEdit(message, checked.content);
      // As Discord: components and flags given with the edit replace the message's ([] removes the buttons).
      if ('components' in obj) message.components = obj.components as typeof message.components;
      if (obj.flags !== undefined) message.flags = obj.flags as typeof message.flags;
      const known = world.knownMessages.get(channelId)?.get(messageId);
      return { status: 200, body: { ...(known ?? {}), id: messageId, channel_id: channelId, content: checked.content, edited_timestamp: new Date().toISOString() } };
    }
    return { status: 404, body: { message: '404: Not Found', code: 0 } };
  };

  return createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const body = await readBody(req);
      let reply: Reply;
      let path = url.pathname;
      if (!path.startsWith('/api/v10/')) reply = { status: 404, body: { message: '404: Not Found', code: 0 } };
      else {
        // @discordjs/rest percent-encodes '@' in @original/@me; Discord accepts both spellings.
        path = decodeURIComponent(path.slice('/api/v10'.length));
        try {
          reply = await route(method, path, req, body);
        } catch (error) {
          reply = { status: 500, body: { message: `fake error: ${(error as Error).message}`, code: 0 } };
        }
      }
      world.requests.push({ method, path, status: reply.status, body });
      const headers: Record<string, string> = { ...rateHeaders(`${method}:${path.replace(/\d{15,}/g, ':id')}`, 4, 1), ...reply.headers };
      if (reply.body !== undefined) headers['content-type'] = 'application/json';
      res.writeHead(reply.status, headers);
      res.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
    })();
  });
}
