/**
 * Payload builders for the Discord fake, typed against discord-api-types (the types @discordjs/ws and @discordjs/rest speak) so that
 * the shapes the fake sends are the shapes the real API documents — a missing required field is a type error.
 */
import { ChannelType, Locale, GuildDefaultMessageNotifications, GuildExplicitContentFilter, GuildHubType, GuildMFALevel, GuildNSFWLevel, GuildPremiumTier, GuildSystemChannelFlags, GuildVerificationLevel, MessageType } from 'discord-api-types/v10';
import type { ApplicationFlags, ChannelFlags, GuildMemberFlags, MessageFlags, RoleFlags, UserFlags, APIAttachment, APIGuildMemberNoUser, APIMessage, APIUser, GatewayGuildCreateDispatchData, GatewayMessageCreateDispatchData, GatewayReadyDispatchData, TextChannelType } from 'discord-api-types/v10';

const DISCORD_EPOCH = 1420070400000n;
let sequence = 0n;

/** A fresh, time-ordered snowflake (Discord derives timestamps from ids, so they must be real snowflakes). */
export function snowflake(): string {
  sequence = (sequence + 1n) & 0xfffn;
  return (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (1n << 17n) | sequence).toString();
}

export function user(id: string, username: string, opts: { bot?: boolean; globalName?: string | null } = {}): APIUser {
  return {
    id,
    username,
    discriminator: '0',
    global_name: opts.globalName === undefined ? username : opts.globalName,
    avatar: null,
    ...(opts.bot ? { bot: true } : {}),
  };
}

export function member(joinedAt: string): APIGuildMemberNoUser {
  return { roles: [], joined_at: joinedAt, deaf: false, mute: false, flags: 0 as GuildMemberFlags };
}

export interface ReadyInput {
  bot: APIUser;
  applicationId: string;
  guildIds: string[];
  sessionId: string;
  resumeUrl: string;
}

export function ready(input: ReadyInput): GatewayReadyDispatchData {
  return {
    v: 10,
    user: { ...input.bot, verified: true, mfa_enabled: false, flags: 0 as UserFlags },
    // Real READY lists guilds as unavailable; their GUILD_CREATE follows.
    guilds: input.guildIds.map((id) => ({ id, unavailable: true })),
    session_id: input.sessionId,
    resume_gateway_url: input.resumeUrl,
    shard: [0, 1],
    application: { id: input.applicationId, flags: 0 as ApplicationFlags, flags_new: '0' },
  };
}

export interface GuildInput {
  id: string;
  name: string;
  ownerId: string;
  bot: APIUser;
  channel: { id: string; name: string };
  thread: { id: string; name: string };
}

export function guildCreate(g: GuildInput): GatewayGuildCreateDispatchData {
  const joinedAt = new Date().toISOString();
  return {
    id: g.id,
    name: g.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    owner_id: g.ownerId,
    region: 'en-US',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: GuildVerificationLevel.None,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.Disabled,
    roles: [
      {
        id: g.id,
        name: '@everyone',
        color: 0,
        colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
        hoist: false,
        icon: null,
        unicode_emoji: null,
        position: 0,
        permissions: '1071698660929',
        managed: false,
        mentionable: false,
        flags: 0 as RoleFlags,
      },
    ],
    emojis: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: GuildSystemChannelFlags.SuppressJoinNotifications,
    rules_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: GuildPremiumTier.None,
    preferred_locale: Locale.EnglishUS,
    public_updates_channel_id: null,
    nsfw_level: GuildNSFWLevel.Default,
    stickers: [],
    premium_progress_bar_enabled: false,
    hub_type: null as GuildHubType | null,
    safety_alerts_channel_id: null,
    incidents_data: null,
    joined_at: joinedAt,
    large: false,
    unavailable: false,
    member_count: 2,
    voice_states: [],
    members: [{ ...member(joinedAt), user: g.bot }],
    channels: [
      { id: g.channel.id, type: ChannelType.GuildText, guild_id: g.id, name: g.channel.name, position: 0, parent_id: null, nsfw: false, topic: null, last_message_id: null, rate_limit_per_user: 0, permission_overwrites: [], flags: 0 as ChannelFlags },
    ],
    threads: [
      {
        id: g.thread.id,
        type: ChannelType.PublicThread,
        guild_id: g.id,
        name: g.thread.name,
        parent_id: g.channel.id,
        owner_id: g.ownerId,
        last_message_id: null,
        rate_limit_per_user: 0,
        message_count: 0,
        member_count: 1,
        total_message_sent: 0,
        flags: 0 as ChannelFlags,
        applied_tags: [],
        thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: joinedAt, locked: false },
      },
    ],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export interface MessageInput {
  id: string;
  channelId: string;
  guildId?: string;
  /** Gateway-only extra that current gateways send for DMs (1 = DM); the adapter does not need it. */
  channelType?: TextChannelType;
  author: APIUser;
  content: string;
  mentions?: APIUser[];
  mentionEveryone?: boolean;
  attachments?: APIAttachment[];
  /** The message this one replies to. */
  replyTo?: APIMessage;
}

/** A MESSAGE_CREATE dispatch body. */
export function messageCreate(m: MessageInput): GatewayMessageCreateDispatchData {
  const now = new Date().toISOString();
  return {
    id: m.id,
    channel_id: m.channelId,
    ...(m.guildId ? { guild_id: m.guildId, member: member(now) } : {}),
    ...(m.channelType !== undefined ? { channel_type: m.channelType } : {}),
    author: m.author,
    content: m.content,
    timestamp: now,
    edited_timestamp: null,
    tts: false,
    mention_everyone: m.mentionEveryone ?? false,
    mentions: m.mentions ?? [],
    mention_roles: [],
    attachments: m.attachments ?? [],
    embeds: [],
    pinned: false,
    type: m.replyTo ? MessageType.Reply : MessageType.Default,
    flags: 0 as MessageFlags,
    components: [],
    ...(m.replyTo
      ? {
          message_reference: { message_id: m.replyTo.id, channel_id: m.replyTo.channel_id, ...(m.guildId ? { guild_id: m.guildId } : {}) },
          referenced_message: m.replyTo,
        }
      : {}),
  };
}

/** The REST answer to a created message (APIMessage), as the bot's own message. */
export function createdMessage(input: { id: string; channelId: string; author: APIUser; content: string; replyTo?: string; pingsEveryone: boolean }): APIMessage {
  const now = new Date().toISOString();
  return {
    id: input.id,
    channel_id: input.channelId,
    author: input.author,
    content: input.content,
    timestamp: now,
    edited_timestamp: null,
    tts: false,
    mention_everyone: input.pingsEveryone,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: input.replyTo ? MessageType.Reply : MessageType.Default,
    flags: 0 as MessageFlags,
    components: [],
    ...(input.replyTo ? { message_reference: { message_id: input.replyTo, channel_id: input.channelId } } : {}),
  };
}

export function attachment(name: string, contentType: string, size: number): APIAttachment {
  const id = snowflake();
  return {
    id,
    filename: name,
    content_type: contentType,
    size,
    url: `https://cdn.discordapp.com/attachments/0/${id}/${name}`,
    proxy_url: `https://media.discordapp.net/attachments/0/${id}/${name}`,
  };
}
