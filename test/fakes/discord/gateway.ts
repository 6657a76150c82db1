/**
 * Loopback Discord gateway (JSON encoding, no compression) speaking the real handshake: HELLO (op 10) →
 * IDENTIFY (op 2, token and intents checked; a bad token closes with 4004) → READY → GUILD_CREATE, heartbeats
 * (op 1) answered with ACKs (op 11), RESUME answered with RESUMED, then dispatches on demand.
 */
import { WebSocketServer, type WebSocket } from 'ws';
import type { GatewayIntentBits as Intents } from 'discord-api-types/v10';
import { GatewayIntentBits } from 'discord-api-types/v10';
import { guildCreate, ready, snowflake } from './payloads.js';
import type { FakeWorld } from './state.js';

export interface GatewayConnection {
  query: Record<string, string>;
  identify?: { token: string; intents: number; compress?: boolean; shard?: unknown };
  heartbeats: number;
  closedWith?: number;
}

interface Session {
  socket: WebSocket;
  seq: number;
  intents: number;
  identified: boolean;
  info: GatewayConnection;
}

export interface FakeGateway {
  url: string;
  connections: GatewayConnection[];
  /**
   * Sends a dispatch to every identified session whose intents include `intent`; `d` may be a function of the
   * session's intents (content withheld without MESSAGE_CONTENT). Returns how many sessions got it.
   */
  dispatch(t: string, d: unknown, intent?: Intents): number;
  close(): Promise<void>;
}

export async function startGateway(world: FakeWorld, opts: { heartbeatInterval: number; guildName: string; channelName: string; threadName: string }): Promise<FakeGateway> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const address = wss.address();
  const url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const sessions = new Set<Session>();
  const connections: GatewayConnection[] = [];

  const send = (s: Session, payload: { op: number; d: unknown; t?: string | null }): void => {
    const seq = payload.op === 0 ? ++s.seq : null;
    s.socket.send(JSON.stringify({ op: payload.op, d: payload.d, s: seq, t: payload.t ?? null }));
  };

  wss.on('connection', (socket, req) => {
    const query = Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams);
    const info: GatewayConnection = { query, heartbeats: 0 };
    connections.push(info);
    const session: Session = { socket, seq: 0, intents: 0, identified: false, info };
    sessions.add(session);
    socket.on('close', (code) => {
      info.closedWith = code;
      sessions.delete(session);
    });
    socket.on('error', () => sessions.delete(session));
    send(session, { op: 10, d: { heartbeat_interval: opts.heartbeatInterval } });

    socket.on('message', (raw) => {
      let payload: { op?: unknown; d?: unknown };
      try {
        payload = JSON.parse(String(raw)) as { op?: unknown; d?: unknown };
      } catch {
        socket.close(4002, 'Error while decoding payload.');
        return;
      }
      const d = (payload.d ?? {}) as Record<string, unknown>;
      switch (payload.op) {
        case 1:
          info.heartbeats++;
          send(session, { op: 11, d: null });
          return;
        case 2: {
          if (session.identified) return socket.close(4005, 'Already authenticated.');
          info.identify = { token: String(d.token), intents: Number(d.intents), compress: d.compress as boolean | undefined, shard: d.shard };
          if (d.token !== world.token) return socket.close(4004, 'Authentication failed.');
          if (!Number.isInteger(d.intents)) return socket.close(4013, 'Invalid intent(s).');
          session.identified = true;
          session.intents = Number(d.intents);
          send(session, {
            op: 0,
            t: 'READY',
            d: ready({ bot: world.bot, applicationId: world.applicationId, guildIds: [world.guildId], sessionId: snowflake(), resumeUrl: url }),
          });
          if (session.intents & GatewayIntentBits.Guilds) {
            send(session, {
              op: 0,
              t: 'GUILD_CREATE',
              d: guildCreate({
                id: world.guildId,
                name: opts.guildName,
                ownerId: world.bot.id,
                bot: world.bot,
                channel: { id: world.channelId, name: opts.channelName },
                thread: { id: world.threadId, name: opts.threadName },
              }),
            });
          }
          return;
        }
        case 6:
          if (d.token !== world.token) return socket.close(4004, 'Authentication failed.');
          session.identified = true;
          send(session, { op: 0, t: 'RESUMED', d: {} });
          return;
        case 3:
        case 8:
          return; // presence update, request guild members: accepted, nothing to do
        default:
          socket.close(4001, 'Unknown opcode.');
      }
    });
  });

  return {
    url,
    connections,
    dispatch(t, d, intent) {
      let n = 0;
      for (const s of sessions) {
        if (!s.identified || s.socket.readyState !== s.socket.OPEN) continue;
        if (intent !== undefined && (s.intents & intent) === 0) continue;
        send(s, { op: 0, t, d: typeof d === 'function' ? (d as (intents: number) => unknown)(s.intents) : d });
        n++;
      }
      return n;
    },
    async close() {
      for (const s of sessions) s.socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
