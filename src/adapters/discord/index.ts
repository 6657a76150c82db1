/**
 * The Discord door, on discord.js 14: gateway intake (DMs, mentions, replies, `/ask`) and REST delivery.
 * Policy (who may talk, sessions, commands, rendering) lives in core; this file wires transport
 * (client.ts), inbound decode (inbound.ts, slash.ts) and sending (send.ts).
 */
import { Events, type Client, type Interaction, type Message } from 'discord.js';
import { PlatformApiError } from '../../core/errors.js';
import { PLATFORM_HINTS } from '../../core/prompt/hints.js';
import type { DiscordSettings } from '../../core/settings.js';
import type { Adapter, Delivery, DeliveryTarget, InboundHandler, InboundMessage } from '../../core/types.js';
import type { AdapterDeps } from '../deps.js';
import { createConnection, type GatewayConnection } from './client.js';
import { toPlatformError, toStartError } from './errors.js';
import { rawGuildMessageToInbound, toInbound } from './inbound.js';
import { createStreamingRest, discordStreaming } from './stream.js';
import { createRest, deliverChunks, DEFAULT_API_URL, sendTyping } from './send.js';
import { interactionToInbound, registerAskCommand } from './slash.js';

const SCOPE = 'discord';
/** Login → READY → all guilds received; discord.js itself stops waiting for guilds after 15 s. */
export const READY_TIMEOUT_MS = 30_000;

/** Tuning for tests and unusual deployments; defaults suit Discord. */
export interface DiscordAdapterOptions {
  /** How long start() waits for the gateway to become ready before it rejects. */
  readyTimeoutMs?: number;
}

export { describeAttachment, formatSize, toInbound } from './inbound.js';
export { channelFor, messageBody } from './send.js';

/**
 * Creates the Discord adapter. Nothing connects until start(); deliver() and sendTyping() use REST only and
 * work without start() (cron delivery, outbox retries).
 */
export function createDiscordAdapter(settings: DiscordSettings, deps: AdapterDeps, options: DiscordAdapterOptions = {}): Adapter {
  const readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const { logger } = deps;
  const now = deps.now ?? (() => new Date());
  const apiUrl = settings.apiUrl ?? DEFAULT_API_URL;
  const rest = createRest(settings.token, settings.apiUrl);
  const streamingRest = createStreamingRest(settings.token, settings.apiUrl);
  let connection: GatewayConnection | undefined;
  let handler: InboundHandler | undefined;

  const hand = (message: InboundMessage, h: InboundHandler | undefined = handler): void => {
    if (!h) return;
    h(message).catch((error: unknown) => logger.error(SCOPE, `inbound ${message.updateId} not handled: ${(error as Error)?.message ?? String(error)}`));
  };

  const onMessage = (message: Message): void => {
    try {
      const botId = message.client.user?.id;
      if (!botId) return;
      const inbound = toInbound(message, botId, now);
      if (inbound) hand(inbound);
    } catch (error) {
      logger.warn(SCOPE, `ignored a message that could not be read: ${(error as Error)?.message ?? String(error)}`);
    }
  };

  const onInteraction = async (interaction: Interaction): Promise<void> => {
    if (!interaction.isChatInputCommand()) return;
    // Taken now: once deferred, Discord will not send the command again, so a stop() during the
    // deferral must not drop it.
    const h = handler;
    if (!h) return;
    try {
      // Discord allows 3 s to answer an interaction: acknowledge before anything else.
      await interaction.deferReply();
      const inbound = interactionToInbound(interaction, now);
      if (inbound) hand(inbound, h);
      else await interaction.editReply({ content: 'Usage: /ask prompt:<your question>', allowedMentions: { parse: [] } });
    } catch (error) {
      logger.warn(SCOPE, `slash command not handled: ${toPlatformError(error, 'interaction').message}`);
    }
  };

  /** Logs in and waits for clientReady (READY plus the guilds), bounded: a dead gateway must not hang start(). */
  async function login(c: Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const ready = new Promise<void>((resolve) => c.once(Events.ClientReady, () => resolve()));
    const timeout = new Promise<never>((_, reject) => {
      const seconds = Math.round(readyTimeoutMs / 1000);
      const where = settings.gatewayUrl ? `the gateway at ${settings.gatewayUrl}` : 'the Discord gateway';
      timer = setTimeout(() => reject(new PlatformApiError({ platform: 'discord', method: 'connect', retryable: true, message: `no READY from ${where} within ${seconds} s` })), readyTimeoutMs);
    });
    const connected = c.login(settings.token).then(() => ready);
    connected.catch(() => undefined); // a late failure after the timeout is not news
    try {
      await Promise.race([connected, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function stop(): Promise<void> {
    const conn = connection;
    connection = undefined;
    handler = undefined;
    if (!conn) return;
    conn.client.removeAllListeners(Events.MessageCreate);
    conn.client.removeAllListeners(Events.InteractionCreate);
    await conn.close();
  }

  return {
    platform: 'discord',
    profile: PLATFORM_HINTS.discord,
    // One gateway connection per bot: with several instances, one holds the door (DESIGN §9).
    exclusiveIntake: true,

    async start(h) {
      if (connection) throw new Error('discord adapter already started');
      handler = h;
      const conn = createConnection(
        settings,
        (reason) => logger.warn(SCOPE, `dropped a malformed gateway event: ${reason}`),
        (d, client) => {
          // discord.js drops messages of guilds it has not cached; read those from the payload (a
          // message both paths see is answered once: the core dedups by message id).
          const guildId = typeof d.guild_id === 'string' ? d.guild_id : undefined;
          const botId = client.user?.id;
          if (!guildId || !botId || client.guilds.cache.has(guildId)) return;
          const inbound = rawGuildMessageToInbound(d, botId, now);
          if (inbound) hand(inbound);
        },
      );
      const c = conn.client;
      // An 'error' event without a listener would crash the process; log it instead.
      c.on(Events.Error, (error) => logger.error(SCOPE, `gateway error: ${error.message}`));
      // Before READY a refused connection surfaces as start()'s one error line; after stop() a close is expected.
      let live = false;
      c.on(Events.ShardDisconnect, (event, id) => {
        if (live && connection === conn) logger.warn(SCOPE, `gateway shard ${id} closed (${event.code}); not reconnecting`);
      });
      c.on(Events.ShardReconnecting, (id) => {
        if (live && connection === conn) logger.info(SCOPE, `gateway shard ${id} reconnecting`);
      });
      // Listen before login: messages may arrive between READY and the last GUILD_CREATE.
      c.on(Events.MessageCreate, onMessage);
      if (deps.config.discord.slash_command) c.on(Events.InteractionCreate, (interaction) => void onInteraction(interaction));
      connection = conn;
      try {
        await login(c);
        if (!c.user?.id) throw new Error('Discord READY carried no bot user');
        live = true;
      } catch (error) {
        connection = undefined;
        handler = undefined;
        await conn.close().catch(() => undefined);
        throw toStartError(error, apiUrl);
      }
      const appId = c.application?.id;
      if (deps.config.discord.slash_command && appId) {
        registerAskCommand(rest, appId).then(
          () => logger.debug(SCOPE, 'registered the /ask command'),
          (error: unknown) => logger.warn(SCOPE, `could not register /ask: ${toPlatformError(error, 'registerCommands').message}`),
        );
      }
      logger.info(SCOPE, `connected as ${c.user.tag}`);
    },

    stop,

    async close() {
      await stop();
      // The REST sweepers are unref'd timers; cleared anyway so nothing of the adapter outlives close().
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
      streamingRest.clearHashSweeper();
      streamingRest.clearHandlerSweeper();
    },

    async deliver(delivery: Delivery) {
      // @discordjs/rest forgets the token after any 401; set it again so one bad answer does not stick.
      rest.setToken(settings.token);
      await deliverChunks(rest, delivery);
    },

    streaming: discordStreaming(() => streamingRest.setToken(settings.token)),

    async sendTyping(target: DeliveryTarget) {
      rest.setToken(settings.token);
      await sendTyping(rest, target);
    },

    async diagnose() {
      rest.setToken(settings.token);
      try {
        await rest.get('/users/@me');
        return [];
      } catch (error) {
        const e = toStartError(error, apiUrl);
        return [e.message];
      }
    },
  };
}
