/**
 * Transport: the gateway connection, on @discordjs/ws (discord.js's own gateway layer, without the
 * discord.js client, its caches and structures).
 *
 * - Intents GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT. DMs need no channel cache: each
 *   dispatch is read raw, and a MESSAGE_CREATE without `guild_id` is a DM.
 * - The gateway URL comes from GET /gateway/bot at `DISCORD_API_URL` (the unversioned REST base;
 *   @discordjs/rest appends /v10) unless `DISCORD_GATEWAY_URL` is set. This file makes that one request
 *   itself (abortable, so a stop during a hung request ends it).
 * - JSON encoding, no compression (@discordjs/ws's defaults; zlib-sync is not installed).
 * - Heartbeats, resumes and reconnects are @discordjs/ws's; sessions are kept per connection (its
 *   default store is shared by the whole process).
 * - Every dispatch goes to `onDispatch`; a listener that throws is reported, never crashes the socket.
 */
import type { REST } from './rest.js';
import { SimpleShardingStrategy, WebSocketManager, WebSocketShardEvents, type SessionInfo, type WebSocketShard } from '@discordjs/ws';
import { GatewayCloseCodes, GatewayIntentBits, Routes, type APIGatewayBotInfo, type GatewayReadyDispatchData } from 'discord-api-types/v10';
import { z } from 'zod';

export const INTENTS = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.DirectMessages | GatewayIntentBits.MessageContent;

/** Close codes after which @discordjs/ws does not reconnect (the door is then down until restarted). */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  GatewayCloseCodes.AuthenticationFailed,
  GatewayCloseCodes.InvalidShard,
  GatewayCloseCodes.ShardingRequired,
  GatewayCloseCodes.InvalidAPIVersion,
  GatewayCloseCodes.InvalidIntents,
  GatewayCloseCodes.DisallowedIntents,
]);

/** How long close() lets @discordjs/ws close the socket cleanly (code 1000) before cutting it. */
export const CLOSE_WAIT_MS = 1000;

/** @discordjs/ws appends `?v=10&encoding=json` itself, so a query already on the URL would be doubled. */
export function gatewayBase(url: string): string {
  return url.replace(/[?#].*$/, '');
}

/** What GET /gateway/bot would say, for a fixed gateway URL (one shard, no identify throttling). */
export function fixedGatewayInfo(url: string): APIGatewayBotInfo {
  return { url: gatewayBase(url), shards: 1, session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 } };
}

// Only `url` decides that this is a gateway; a proxy or a hand-written gateway that leaves out the
// sharding advice gets Discord's answer for a small bot (one shard, no identify throttling).
const gatewayBotSchema = z
  .object({
    url: z.string().regex(/^wss?:\/\//),
    shards: z.number().int().positive().default(1),
    session_start_limit: z
      .object({ total: z.number().default(1000), remaining: z.number().default(1000), reset_after: z.number().default(0), max_concurrency: z.number().int().positive().default(1) })
      .loose()
      .default({ total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 }),
  })
  .loose();

/** The answer to GET /gateway/bot, checked: something else answering 200 there is not a gateway. */
export class GatewayInfoError extends Error {}

export function parseGatewayBot(body: unknown): APIGatewayBotInfo {
  const parsed = gatewayBotSchema.safeParse(body);
  if (!parsed.success) throw new GatewayInfoError(`GET /gateway/bot gave no gateway (${parsed.error.issues[0]?.path.join('.') || 'body'} ${parsed.error.issues[0]?.message ?? 'invalid'})`);
  return parsed.data as APIGatewayBotInfo;
}

export interface GatewayHandlers {
  /** Every dispatch (`t`, `d`), in order. */
  onDispatch(t: string, d: unknown): void;
  /** A listener failed on a dispatch (logged; the connection stays up). */
  onListenerError(t: string, error: unknown): void;
  /** An error @discordjs/ws reported (an unrecoverable close, a socket error). */
  onError(error: Error): void;
  /** The socket closed (reconnecting unless `code` is in FATAL_CLOSE_CODES), or reopened. */
  onClosed(code: number, shardId: number): void;
}

export interface GatewayConnection {
  /** Connects and resolves with READY (rejects on a refused token, a failed GET /gateway/bot…). */
  connect(): Promise<GatewayReadyDispatchData>;
  /** Ends the connection for good: no reconnect, no request left behind. Idempotent. */
  close(): Promise<void>;
}

/** The runtime shapes read in close(): the strategy's shard map and a shard's socket (`ws`). */
interface ShardInternals {
  internalConnect?: () => Promise<void>;
  connection?: { readyState?: number; on?: (event: 'error' | 'close', listener: () => void) => void; terminate?: () => void } | null;
}

export function createConnection(token: string, settings: { gatewayUrl?: string }, rest: REST, handlers: GatewayHandlers): GatewayConnection {
  const sessions = new Map<number, SessionInfo>();
  const abort = new AbortController();
  let closed = false;
  let strategy: SimpleShardingStrategy | undefined;
  let info: APIGatewayBotInfo | undefined;
  let ready: GatewayReadyDispatchData | undefined;
  // close() while connect() waits (a gateway that never answers) ends that wait too, so no timer of start() lingers.
  let cancel: (error: Error) => void = () => undefined;
  const cancelled = new Promise<never>((_, reject) => (cancel = reject));
  cancelled.catch(() => undefined);

  const manager = new WebSocketManager({
    token,
    intents: INTENTS,
    rest,
    retrieveSessionInfo: (shardId) => sessions.get(shardId) ?? null,
    updateSessionInfo: (shardId, session) => {
      if (session) sessions.set(shardId, session);
      else sessions.delete(shardId);
    },
    buildStrategy: (m) => (strategy = new SimpleShardingStrategy(m)),
  });
  // The manager asks for this several times while connecting: one request, and none once closed.
  manager.fetchGatewayInformation = async () => {
    if (closed) throw new Error('the Discord gateway connection was closed');
    info ??= settings.gatewayUrl ? fixedGatewayInfo(settings.gatewayUrl) : parseGatewayBot(await rest.get(Routes.gatewayBot(), { signal: abort.signal }));
    return info;
  };

  manager.on(WebSocketShardEvents.Ready, ({ data }) => {
    ready = data;
  });
  manager.on(WebSocketShardEvents.Dispatch, ({ data }) => {
    try {
      handlers.onDispatch(data.t, data.d);
    } catch (error) {
      handlers.onListenerError(data.t, error);
    }
  });
  // Without a listener an 'error' would be thrown out of the socket's handler.
  manager.on(WebSocketShardEvents.Error, ({ error }) => handlers.onError(error));
  manager.on(WebSocketShardEvents.Closed, ({ code, shardId }) => handlers.onClosed(code, shardId));

  const shards = (): ShardInternals[] => [...((strategy as unknown as { shards?: Map<number, WebSocketShard> } | undefined)?.shards?.values() ?? [])] as unknown as ShardInternals[];

  return {
    async connect() {
      await Promise.race([manager.connect(), cancelled]);
      if (!ready) throw new Error('Discord READY carried no bot user');
      return ready;
    },
    async close() {
      if (closed) return;
      closed = true;
      abort.abort();
      cancel(new Error('the Discord gateway connection was closed'));
      const open = shards();
      // @discordjs/ws 1.2 ignores destroy() while a shard sits in its 500 ms reconnect back-off (it is
      // "Idle" then) and reconnects forever afterwards — e.g. after start() gave up on an unreachable
      // gateway. Disarm each shard's reconnect before destroying so nothing outlives stop().
      for (const shard of open) shard.internalConnect = async () => undefined;
      const sockets = open.map((s) => s.connection).filter((c) => c != null);
      const cut = (c: (typeof sockets)[number]): void => {
        c.on?.('error', () => undefined);
        c.terminate?.();
      };
      // destroy() closes an open socket with 1000 and waits for the gateway's answer. That wait can last
      // forever when it meets a shard still waiting for HELLO or READY (the aborted wait starts a second
      // destroy that takes over the socket's close handler), and a socket still in its handshake is left
      // alone. So: a socket in its handshake is cut now, and close() waits until every socket has closed,
      // at most CLOSE_WAIT_MS; a socket still not closed then is cut.
      const allClosed = Promise.all(sockets.map((c) => (c.readyState === 3 ? undefined : new Promise<void>((resolve) => c.on?.('close', () => resolve())))));
      void Promise.resolve(manager.destroy({ reason: 'Switchboard stopped' })).catch(() => undefined);
      for (const c of sockets) if (c.readyState === 0 /* CONNECTING */) cut(c);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([allClosed, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
      for (const c of sockets) if (c.readyState !== 3 /* CLOSED */) cut(c);
      manager.removeAllListeners();
      // A late socket error (of a socket cut above) must still find a listener, or it would be thrown.
      manager.on(WebSocketShardEvents.Error, () => undefined);
      sessions.clear();
    },
  };
}
