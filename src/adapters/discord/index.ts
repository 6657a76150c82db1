/**
 * The Discord door, on discord.js's lower layers (@discordjs/ws for the gateway, @discordjs/rest for REST,
 * discord-api-types for the payloads): gateway intake (DMs, mentions, replies, `/ask`) and REST delivery.
 * Policy (who may talk, sessions, commands, rendering) lives in core; this file wires transport
 * (client.ts), the edge checks (guard.ts), what is known of channels (channels.ts), inbound decode
 * (inbound.ts, slash.ts) and sending (send.ts, stream.ts).
 */
import { discordFetcher } from './attachments.js';
import { PlatformApiError } from '../../core/errors.js';
import { PLATFORM_HINTS } from '../../core/prompt/hints.js';
import type { DiscordSettings } from '../../core/settings.js';
import { discordDoor } from '../../platform/doors/discord.js';
import type { Adapter, Delivery, DeliveryTarget, InboundHandler, InboundMessage } from '../../core/types.js';
import type { AdapterDeps } from '../deps.js';
import { ChannelDirectory } from './channels.js';
import { createConnection, FATAL_CLOSE_CODES, type GatewayConnection } from './client.js';
import { toPlatformError, toStartError } from './errors.js';
import { parseDispatch, type RawInteraction } from './guard.js';
import { toInbound } from './inbound.js';
import { createStreamingRest, discordStreaming } from './stream.js';
import { closeDiscordPrompt, createRest, deliverChunks, DEFAULT_API_URL, discordPromptRef, sendTyping } from './send.js';
import { PromptRefs } from '../../core/approvals/prompt-refs.js';
import { completeInteraction, deferInteraction, interactionToInbound, isChatInputCommand, registerAskCommand } from './slash.js';
import { answerPress, isComponentInteraction, toInboundAction } from './actions.js';

const SCOPE = 'discord';
/** GET /gateway/bot → socket → HELLO → IDENTIFY → READY, bounded so a dead gateway cannot hang start(). */
export const READY_TIMEOUT_MS = 30_000;

/** Tuning for tests and unusual deployments; defaults suit Discord. */
export interface DiscordAdapterOptions {
  /** How long start() waits for the gateway to become ready before it rejects. */
  readyTimeoutMs?: number;
}

export { describeAttachment, formatSize, toInbound } from './inbound.js';
export { channelFor, messageBody } from './send.js';

/** `DISCORD_BOT_TOKEN` as the API wants it: people paste it with the `Bot ` prefix of the header too. */
export function bareToken(token: string): string {
  return token.trim().replace(/^(Bot|Bearer)\s+/i, '');
}

/** `name#1234`, or the bare name for accounts on the new username system (discriminator 0). */
function tag(user: { username: string; discriminator?: string }): string {
  return user.discriminator && user.discriminator !== '0' ? `${user.username}#${user.discriminator}` : user.username;
}

/**
 * Creates the Discord adapter. Nothing connects until start(); deliver() and sendTyping() use REST only and
 * work without start() (cron delivery, outbox retries).
 */
export function createDiscordAdapter(settings: DiscordSettings, deps: AdapterDeps, options: DiscordAdapterOptions = {}): Adapter {
  const readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const { logger } = deps;
  const now = deps.now ?? (() => new Date());
  const apiUrl = settings.apiUrl ?? DEFAULT_API_URL;
  const token = bareToken(settings.token);
  const rest = createRest(token, settings.apiUrl);
  const prompts = new PromptRefs(discordPromptRef);
  const streamingRest = createStreamingRest(token, settings.apiUrl);
  const channels = new ChannelDirectory();
  const channel = (id: string) => channels.get(id);
  let connection: GatewayConnection | undefined;
  let handler: InboundHandler | undefined;
  /** The bot user, from READY: its own messages and mentions are recognised by this id. */
  let botId: string | undefined;

  const hand = (message: InboundMessage, h: InboundHandler | undefined = handler): void => {
    if (!h) return;
    h(message).catch((error: unknown) => logger.error(SCOPE, `inbound ${message.updateId} not handled: ${(error as Error)?.message ?? String(error)}`));
  };

  const onInteraction = async (interaction: RawInteraction): Promise<void> => {
    if (!isChatInputCommand(interaction)) return;
    // Taken now: once deferred, Discord will not send the command again, so a stop() during the
    // deferral must not drop it.
    const h = handler;
    if (!h) return;
    try {
      // Discord allows 3 s to answer an interaction: acknowledge before anything else.
      await deferInteraction(rest, interaction);
      const inbound = interactionToInbound(interaction, channel, now);
      if (inbound) hand(inbound, h);
      else await completeInteraction(rest, interaction, 'Usage: /ask prompt:<your question>');
    } catch (error) {
      logger.warn(SCOPE, `slash command not handled: ${toPlatformError(error, 'interaction').message}`);
    }
  };

  /** A button press (ARCHITECTURE.md §16): the core decides, the door acknowledges with the interaction callback. */
  const onComponent = async (interaction: RawInteraction): Promise<void> => {
    const h = handler;
    const decoded = toInboundAction(interaction);
    if (!h?.action || !decoded) return;
    try {
      const outcome = await h.action(decoded.action);
      if (outcome.resolved || outcome.status === 'answered') prompts.take(decoded.action.approvalId);
      await answerPress(rest, interaction, outcome, decoded.content);
    } catch (error) {
      logger.warn(SCOPE, `approval press not acknowledged: ${toPlatformError(error, 'interaction').message}`);
    }
  };

  /** One gateway dispatch: checked at the edge, then routed. */
  const onDispatch = (t: string, d: unknown): void => {
    const checked = parseDispatch(t, d);
    if (checked.kind === 'refused') return logger.warn(SCOPE, `dropped a malformed gateway event: ${checked.reason}`);
    if (checked.kind === 'ignored') return;
    const event = checked.event;
    switch (event.t) {
      case 'MESSAGE_CREATE': {
        if (!botId) return;
        const inbound = toInbound(event.d, botId, channel, now);
        if (inbound) hand(inbound);
        return;
      }
      case 'INTERACTION_CREATE':
        if (isComponentInteraction(event.d)) void onComponent(event.d);
        else if (deps.config.discord.slash_command) void onInteraction(event.d);
        return;
      case 'GUILD_CREATE':
        return channels.guildCreate(event.d);
      case 'GUILD_DELETE':
        return channels.guildDelete(event.d.id);
      case 'CHANNEL_CREATE':
      case 'CHANNEL_UPDATE':
      case 'THREAD_CREATE':
      case 'THREAD_UPDATE':
        return channels.upsert(event.d);
      case 'CHANNEL_DELETE':
      case 'THREAD_DELETE':
        return channels.remove(event.d.id);
      case 'THREAD_LIST_SYNC':
        return channels.guildCreate({ id: event.d.guild_id, threads: event.d.threads });
    }
  };

  /** Connects and waits for READY, bounded: a dead gateway must not hang start(). */
  async function login(conn: GatewayConnection) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      const seconds = Math.round(readyTimeoutMs / 1000);
      const where = settings.gatewayUrl ? `the gateway at ${settings.gatewayUrl}` : 'the Discord gateway';
      timer = setTimeout(() => reject(new PlatformApiError({ platform: 'discord', method: 'connect', retryable: true, message: `no READY from ${where} within ${seconds} s` })), readyTimeoutMs);
    });
    const connected = conn.connect();
    connected.catch(() => undefined); // a late failure after the timeout is not news
    try {
      return await Promise.race([connected, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Why the gateway connection is down since its last close, until events flow again (`/readyz`). */
  let down: string | null = null;

  async function stop(): Promise<void> {
    down = null;
    const conn = connection;
    connection = undefined;
    handler = undefined;
    if (!conn) return;
    await conn.close();
    channels.clear();
  }

  return {
    platform: 'discord',
    profile: PLATFORM_HINTS.discord,
    // One gateway connection per bot: with several instances, one holds the door (ARCHITECTURE.md §9).
    exclusiveIntake: discordDoor.exclusive(settings, deps.config.discord),

    async start(h) {
      if (connection) throw new Error('discord adapter already started');
      handler = h;
      // Before READY a refused connection surfaces as start()'s one error line; after stop() a close is expected.
      let live = false;
      const current = () => live && connection === conn;
      rest.setToken(token);
      const conn = createConnection(token, settings, rest, {
        onDispatch: (t, d) => {
          if (connection !== conn) return;
          down = null; // events flow: the connection is up (again)
          onDispatch(t, d);
        },
        onListenerError: (t, error) => logger.warn(SCOPE, `ignored a ${t} that could not be read: ${(error as Error)?.message ?? String(error)}`),
        onError: (error) => {
          if (current()) logger.error(SCOPE, `gateway error: ${error.message}`);
        },
        onClosed: (code, shardId) => {
          if (!current()) return;
          down = `gateway connection closed (${code})`;
          if (FATAL_CLOSE_CODES.has(code)) logger.warn(SCOPE, `gateway shard ${shardId} closed (${code}); not reconnecting`);
          else logger.info(SCOPE, `gateway shard ${shardId} closed (${code}); reconnecting`);
        },
      });
      connection = conn;
      let ready;
      try {
        ready = await login(conn);
        botId = ready.user.id;
        live = true;
      } catch (error) {
        connection = undefined;
        handler = undefined;
        await conn.close().catch(() => undefined);
        throw toStartError(error, apiUrl);
      }
      const appId = ready.application?.id;
      if (deps.config.discord.slash_command && appId) {
        registerAskCommand(rest, appId).then(
          () => logger.debug(SCOPE, 'registered the /ask command'),
          (error: unknown) => logger.warn(SCOPE, `could not register /ask: ${toPlatformError(error, 'registerCommands').message}`),
        );
      }
      logger.info(SCOPE, `connected as ${tag(ready.user)}`);
    },

    stop,

    problem() {
      return connection ? down : null;
    },

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
      rest.setToken(token);
      await deliverChunks(rest, delivery, (id, ref) => prompts.set(id, ref));
    },

    async closeApprovalPrompt(approvalId: string, line: string, posted?: unknown) {
      const ref = prompts.take(approvalId, posted);
      if (!ref) return;
      rest.setToken(token);
      await closeDiscordPrompt(rest, ref, line);
    },

    streaming: discordStreaming(() => streamingRest.setToken(token)),
    attachments: discordFetcher(apiUrl),

    async sendTyping(target: DeliveryTarget) {
      rest.setToken(token);
      await sendTyping(rest, target);
    },

    async diagnose() {
      rest.setToken(token);
      try {
        await rest.get('/users/@me');
        return [];
      } catch (error) {
        const e = toStartError(error, apiUrl, 'GET /users/@me');
        return [e.message];
      }
    },
  };
}
