/**
 * What the adapter knows of guild channels, from raw gateway dispatches (GUILD_CREATE, CHANNEL_*,
 * THREAD_*): each channel's name, kind and parent, so a thread's messages go to the parent's chat and a
 * chat has a readable title. Only those three facts are kept per channel. A channel never seen (a guild
 * whose GUILD_CREATE has not come) is simply unknown: its messages are still handled, the channel is
 * then the chat. DMs need nothing here: a message without `guild_id` is a DM.
 */
import { ChannelType } from 'discord-api-types/v10';
import { rawChannelSchema, type RawChannel, type RawGuild } from './guard.js';

export interface ChannelFacts {
  type: number;
  name?: string;
  parentId?: string;
  guildId?: string;
}

const THREAD_TYPES: ReadonlySet<number> = new Set([ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread]);

export function isThreadType(type: number | undefined): boolean {
  return type !== undefined && THREAD_TYPES.has(type);
}

export class ChannelDirectory {
  private readonly channels = new Map<string, ChannelFacts>();
  private readonly guilds = new Map<string, Set<string>>();

  get(id: string): ChannelFacts | undefined {
    return this.channels.get(id);
  }

  /** GUILD_CREATE: the guild's channels and active threads (entries that do not parse are skipped). */
  guildCreate(guild: RawGuild): void {
    for (const raw of [...(guild.channels ?? []), ...(guild.threads ?? [])]) {
      const parsed = rawChannelSchema.safeParse(raw);
      if (parsed.success) this.upsert(parsed.data, guild.id);
    }
  }

  /** GUILD_DELETE (left, or unavailable): its channels are forgotten; a later GUILD_CREATE brings them back. */
  guildDelete(guildId: string): void {
    for (const id of this.guilds.get(guildId) ?? []) this.channels.delete(id);
    this.guilds.delete(guildId);
  }

  /** CHANNEL_CREATE / CHANNEL_UPDATE / THREAD_CREATE / THREAD_UPDATE (DM channels are not kept). */
  upsert(channel: RawChannel, guildId?: string): void {
    const guild = guildId ?? (typeof channel.guild_id === 'string' ? channel.guild_id : undefined);
    if (!guild) return;
    this.channels.set(channel.id, {
      type: channel.type,
      ...(channel.name ? { name: channel.name } : {}),
      ...(channel.parent_id ? { parentId: channel.parent_id } : {}),
      guildId: guild,
    });
    let ids = this.guilds.get(guild);
    if (!ids) this.guilds.set(guild, (ids = new Set()));
    ids.add(channel.id);
  }

  /** CHANNEL_DELETE / THREAD_DELETE. */
  remove(id: string): void {
    const guild = this.channels.get(id)?.guildId;
    this.channels.delete(id);
    if (guild) this.guilds.get(guild)?.delete(id);
  }

  clear(): void {
    this.channels.clear();
    this.guilds.clear();
  }
}
