/**
 * A loopback Discord: REST (`/api/v10/…`) plus a gateway WebSocket, so the real @discordjs/ws gateway client and
 * @discordjs/rest connect to it unmodified. Point an adapter at it with `apiUrl` (unversioned, like DISCORD_API_URL) — the adapter finds the
 * gateway through GET /gateway/bot — or pass `gatewayUrl` as DISCORD_GATEWAY_URL.
 *
 * Like Discord it echoes the bot's own posts back as MESSAGE_CREATE, withholds message content from guild
 * messages that do not mention the bot unless MESSAGE_CONTENT was identified, and only dispatches DMs and
 * guild messages to sessions that asked for those intents.
 */
import type { AddressInfo } from 'node:net';
import type { APIAttachment, APIMessage, APIUser } from 'discord-api-types/v10';
import { ChannelType, GatewayIntentBits } from 'discord-api-types/v10';
import { startGateway, type GatewayConnection } from './discord/gateway.js';
import { messageCreate, snowflake, user } from './discord/payloads.js';
import { createRestServer, type InteractionRecord } from './discord/rest.js';
import { FakeWorld, type FailureSpec, type PostedMessage, type RestRequest, type VisibleChange } from './discord/state.js';

export type { FailureSpec, PostedMessage, RestRequest } from './discord/state.js';
export { attachment } from './discord/payloads.js';

export interface DiscordFakeOptions {
  token?: string;
  /** HELLO heartbeat interval in ms (small by default so tests see heartbeats and ACKs). */
  heartbeatInterval?: number;
}

export interface SenderOptions {
  userId: string;
  content: string;
  username?: string;
  globalName?: string | null;
  /** The sender is a bot account. */
  bot?: boolean;
  attachments?: APIAttachment[];
}

export interface DiscordFake {
  /** Unversioned REST base, e.g. http://127.0.0.1:P/api (@discordjs/rest appends /v10). */
  apiUrl: string;
  gatewayUrl: string;
  token: string;
  botUserId: string;
  applicationId: string;
  guildId: string;
  /** The guild's text channel (named `general`). */
  channelId: string;
  /** A public thread in that channel. */
  threadId: string;
  /** Messages the bot posted, in order (live array; an edit changes a message's content in place). */
  messages: PostedMessage[];
  /** Posts and edits, in order, with their times. */
  visible: VisibleChange[];
  /** PATCH edits per channel in a rolling window before a 429 (default 5 per 5 s). */
  editLimit: { count: number; windowMs: number };
  requests: RestRequest[];
  /** Channel ids the bot sent typing to. */
  typing: string[];
  interactionCallbacks: FakeWorld['interactionCallbacks'];
  commandRegistrations: unknown[];
  connections: GatewayConnection[];
  waitForMessages(n: number, timeoutMs?: number): Promise<PostedMessage[]>;
  /** Answers the next matching request(s) with a failure (429 with Retry-After, 5xx, 403…). */
  failNext(spec: FailureSpec): void;
  /** A DM from a user; returns the message id (the DM channel id is `dmChannelId(userId)`). */
  sendDM(input: SenderOptions): string;
  dmChannelId(userId: string): string;
  /** A message in the guild channel (or `channelId`, e.g. the thread); `mentionsBot` prefixes `<@bot>`. */
  sendGuildMessage(input: SenderOptions & { channelId?: string; mentionsBot?: boolean; replyTo?: string }): string;
  /** `/ask prompt:…` typed in the guild channel (or a DM with `dm: true`); returns the interaction id and token. */
  sendSlashCommand(input: { userId: string; prompt: string; dm?: boolean; username?: string }): { interactionId: string; token: string };
  /**
   * `userId` presses the button `customId` under the bot's message `messageId` (a MESSAGE_COMPONENT
   * interaction, type 3, over the gateway); returns the interaction id and token.
   */
  pressButton(input: { userId: string; messageId: string; customId: string; username?: string }): { interactionId: string; token: string };
  /** Sends any dispatch as is (malformed payload tests). */
  dispatchRaw(t: string, d: unknown): number;
  close(): Promise<void>;
}

export async function startDiscordFake(options: DiscordFakeOptions = {}): Promise<DiscordFake> {
  const botId = snowflake();
  const world = new FakeWorld({
    token: options.token ?? 'MTAwMDAwMDAwMDAwMDAwMDAw.fake.discord-bot-token',
    bot: user(botId, 'switchboard', { bot: true, globalName: 'Switchboard' }),
    applicationId: botId,
    guildId: snowflake(),
    channelId: snowflake(),
    threadId: snowflake(),
  });
  const interactions = new Map<string, InteractionRecord>();
  const dmChannels = new Map<string, string>();
  const users = new Map<string, APIUser>();
  const gateway = await startGateway(world, {
    heartbeatInterval: options.heartbeatInterval ?? 1000,
    guildName: 'Test Guild',
    channelName: 'general',
    threadName: 'design-thread',
  });
  const gatewayUrl = gateway.url;

  const dispatchMessage = (message: APIMessage & { guild_id?: string }, isDm: boolean): void => {
    const intent = isDm ? GatewayIntentBits.DirectMessages : GatewayIntentBits.GuildMessages;
    gateway.dispatch('MESSAGE_CREATE', messageCreate({
      id: message.id,
      channelId: message.channel_id,
      guildId: message.guild_id,
      channelType: isDm ? ChannelType.DM : undefined,
      author: message.author,
      content: message.content,
      mentions: message.mentions,
      attachments: message.attachments,
    }), intent);
  };

  const rest = createRestServer(world, {
    gatewayUrl: () => gatewayUrl,
    interactions,
    onPosted: (created) => {
      const channel = world.channels.get(created.channel_id);
      if (channel) dispatchMessage({ ...created, ...(channel.guildId ? { guild_id: channel.guildId } : {}) }, channel.type === 'dm');
    },
  });
  await new Promise<void>((resolve) => rest.listen(0, '127.0.0.1', () => resolve()));
  const port = (rest.address() as AddressInfo).port;

  const sender = (input: SenderOptions): APIUser => {
    const known = users.get(input.userId);
    const u = user(input.userId, input.username ?? known?.username ?? `user${input.userId.slice(-4)}`, {
      bot: input.bot,
      globalName: input.globalName === undefined ? known?.global_name : input.globalName,
    });
    users.set(input.userId, u);
    return u;
  };

  // Discord lists every user mentioned in the content, plus the author of the replied-to message.
  const mentionedUsers = (content: string, replyTo?: APIMessage): APIUser[] => {
    const ids = new Set([...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]));
    if (replyTo) ids.add(replyTo.author.id);
    return [...ids].flatMap((id) => (id === botId ? [world.bot] : users.has(id) ? [users.get(id)!] : []));
  };

  const dmChannelId = (userId: string): string => {
    let id = dmChannels.get(userId);
    if (!id) {
      id = snowflake();
      dmChannels.set(userId, id);
      world.channels.set(id, { id, type: 'dm', recipientId: userId });
    }
    return id;
  };

  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    gatewayUrl,
    token: world.token,
    botUserId: botId,
    applicationId: world.applicationId,
    guildId: world.guildId,
    channelId: world.channelId,
    threadId: world.threadId,
    messages: world.messages,
    visible: world.visible,
    editLimit: world.editLimit,
    requests: world.requests,
    typing: world.typing,
    interactionCallbacks: world.interactionCallbacks,
    commandRegistrations: world.commandRegistrations,
    connections: gateway.connections,
    waitForMessages: (n, timeoutMs) => world.waitForMessages(n, timeoutMs),
    failNext: (spec) => void world.failures.push(spec),
    dmChannelId,
    sendDM(input) {
      const id = snowflake();
      const payload = messageCreate({ id, channelId: dmChannelId(input.userId), channelType: ChannelType.DM, author: sender(input), content: input.content, attachments: input.attachments });
      world.remember(payload);
      gateway.dispatch('MESSAGE_CREATE', payload, GatewayIntentBits.DirectMessages);
      return id;
    },
    sendGuildMessage(input) {
      const id = snowflake();
      const channelId = input.channelId ?? world.channelId;
      const author = sender(input);
      const content = input.mentionsBot && !input.content.includes(`<@${botId}>`) ? `<@${botId}> ${input.content}` : input.content;
      const replyTo = input.replyTo ? world.knownMessages.get(channelId)?.get(input.replyTo) : undefined;
      const mentioned = content.includes(`<@${botId}>`) || content.includes(`<@!${botId}>`);
      const payload = messageCreate({
        id,
        channelId,
        guildId: world.guildId,
        author,
        content,
        mentions: mentionedUsers(content, replyTo),
        attachments: input.attachments,
        replyTo,
      });
      world.remember(payload);
      // Without MESSAGE_CONTENT, Discord blanks the content of guild messages that do not address the bot.
      const addressed = mentioned || replyTo?.author.id === botId;
      gateway.dispatch(
        'MESSAGE_CREATE',
        (intents: number) => (addressed || intents & GatewayIntentBits.MessageContent ? payload : { ...payload, content: '', attachments: [], embeds: [] }),
        GatewayIntentBits.GuildMessages,
      );
      return id;
    },
    sendSlashCommand(input) {
      const interactionId = snowflake();
      const token = `aW50ZXJhY3Rpb24.${interactionId}.fake-token`;
      const author = sender({ userId: input.userId, content: '', username: input.username });
      const channelId = input.dm ? dmChannelId(input.userId) : world.channelId;
      interactions.set(token, { interactionId, token, channelId, acknowledged: false });
      gateway.dispatch('INTERACTION_CREATE', {
        id: interactionId,
        application_id: world.applicationId,
        type: 2,
        data: { id: snowflake(), name: 'ask', type: 1, options: [{ name: 'prompt', type: 3, value: input.prompt }] },
        ...(input.dm
          ? { user: author, channel: { id: channelId, type: ChannelType.DM, recipients: [author] }, context: 1 }
          : {
              guild_id: world.guildId,
              guild: { id: world.guildId, locale: 'en-US', features: [] },
              member: { user: author, roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0, permissions: '1071698660929' },
              channel: { id: channelId, type: ChannelType.GuildText, guild_id: world.guildId, name: 'general' },
              context: 0,
            }),
        channel_id: channelId,
        token,
        version: 1,
        app_permissions: '1071698660929',
        locale: 'en-US',
        guild_locale: 'en-US',
        entitlements: [],
        authorizing_integration_owners: { '0': world.guildId },
        attachment_size_limit: 10485760,
      });
      return { interactionId, token };
    },
    pressButton(input) {
      const posted = world.messages.find((m) => m.id === input.messageId);
      if (!posted) throw new Error(`discord fake: no message ${input.messageId} to press a button on`);
      const interactionId = snowflake();
      const token = `aW50ZXJhY3Rpb24.${interactionId}.fake-token`;
      const author = sender({ userId: input.userId, content: '', username: input.username });
      const channelId = posted.channelId;
      const dm = !world.channels.has(channelId) || world.channels.get(channelId)?.type === 'dm';
      interactions.set(token, { interactionId, token, channelId, acknowledged: false, messageId: posted.id });
      gateway.dispatch('INTERACTION_CREATE', {
        id: interactionId,
        application_id: world.applicationId,
        type: 3,
        data: { custom_id: input.customId, component_type: 2 },
        message: { id: posted.id, channel_id: channelId, content: posted.content, components: posted.components ?? [], author: world.bot, type: 0, flags: 0 },
        ...(dm
          ? { user: author, channel: { id: channelId, type: ChannelType.DM, recipients: [author] }, context: 1 }
          : {
              guild_id: world.guildId,
              member: { user: author, roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0, permissions: '1071698660929' },
              channel: { id: channelId, type: ChannelType.GuildText, guild_id: world.guildId, name: 'general' },
              context: 0,
            }),
        channel_id: channelId,
        token,
        version: 1,
        app_permissions: '1071698660929',
        locale: 'en-US',
        entitlements: [],
        authorizing_integration_owners: { '0': world.guildId },
      });
      return { interactionId, token };
    },
    dispatchRaw: (t, d) => gateway.dispatch(t, d),
    async close() {
      await gateway.close();
      rest.closeAllConnections();
      await new Promise<void>((resolve) => rest.close(() => resolve()));
    },
  };
}
