/**
 * Transport: the discord.js gateway client.
 *
 * - `DISCORD_API_URL` is the unversioned REST base (discord.js appends /v10).
 * - The gateway URL comes from GET /gateway/bot there unless `DISCORD_GATEWAY_URL` is set; then the
 *   @discordjs/ws manager (handed to `ws.buildStrategy` before discord.js asks it anything) answers
 *   `fetchGatewayInformation` with that URL instead — it is the one place the URL is read from.
 * - JSON encoding, no compression: zlib-sync is not installed and @discordjs/ws defaults to `encoding=json`.
 * - Raw dispatches pass the guard in guard.ts before discord.js sees them.
 */
import { Client, GatewayIntentBits, Options, Partials, SimpleShardingStrategy, type APIGatewayBotInfo, type ClientOptions } from 'discord.js';
import type { DiscordSettings } from '../../core/settings.js';
import { guardDispatches } from './guard.js';
import { restOptions } from './send.js';

export const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent];

/** @discordjs/ws appends `?v=10&encoding=json` itself, so a query already on the URL would be doubled. */
export function gatewayBase(url: string): string {
  return url.replace(/[?#].*$/, '');
}

/** What GET /gateway/bot would say, for a fixed gateway URL (one shard, no identify throttling). */
export function fixedGatewayInfo(url: string): APIGatewayBotInfo {
  return { url: gatewayBase(url), shards: 1, session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 } };
}

/** A discord.js client plus a close() that really ends it. */
export interface GatewayConnection {
  client: Client;
  close(): Promise<void>;
}

/** The runtime shape of SimpleShardingStrategy's private shard map (see close() below). */
interface ShardsHolder {
  shards?: Map<number, { internalConnect?: () => Promise<void> }>;
}

function baseOptions(settings: Pick<DiscordSettings, 'apiUrl'>): ClientOptions {
  return {
    intents: INTENTS,
    // DM channels are not cached until a message arrives; without Partials.Channel discord.js drops DMs.
    partials: [Partials.Channel],
    rest: restOptions(settings.apiUrl),
    // Only recent messages matter (reply detection); keep memory flat on busy servers.
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 50 }),
    // READY may list guilds whose GUILD_CREATE comes late (or never, from a minimal gateway): do not hold
    // start for discord.js's default 15 s; messages of a guild not yet seen are handled from the raw payload.
    waitGuildTimeout: 3000,
  };
}

/**
 * Builds the client. `onDrop` hears about gateway packets refused at the edge.
 */
export function createConnection(
  settings: Pick<DiscordSettings, 'apiUrl' | 'gatewayUrl'>,
  onDrop: (reason: string) => void = () => undefined,
  onRawMessage?: (d: Record<string, unknown>, client: Client) => void,
): GatewayConnection {
  const gatewayUrl = settings.gatewayUrl;
  let strategy: SimpleShardingStrategy | undefined;
  const client = new Client({
    ...baseOptions(settings),
    ws: {
      buildStrategy: (manager) => {
        if (gatewayUrl) {
          const info = fixedGatewayInfo(gatewayUrl);
          manager.fetchGatewayInformation = async () => info;
        }
        guardDispatches(manager, onDrop, onRawMessage && ((d) => onRawMessage(d, client)));
        strategy = new SimpleShardingStrategy(manager);
        return strategy;
      },
    },
  });

  return {
    client,
    async close() {
      // @discordjs/ws 1.2 ignores destroy() while a shard sits in its 500 ms reconnect back-off (it is
      // "Idle" then) and reconnects forever afterwards — e.g. after start() gave up on an unreachable
      // gateway. Disarm each shard's reconnect before destroying so nothing outlives stop().
      const shards = (strategy as unknown as ShardsHolder | undefined)?.shards;
      for (const shard of shards?.values() ?? []) shard.internalConnect = async () => undefined;
      await client.destroy();
    },
  };
}
