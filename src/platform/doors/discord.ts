/**
 * The Discord door's definition: bot token, REST and gateway URL overrides, its `discord:` section
 * (the /ask slash command), streaming by edits, typing, `discord:<channel>`.
 */
import { z } from 'zod';
import { parseAllowList, type AllowList, type DoorDefinition } from './types.js';

const yaml = z
  .strictObject({
    slash_command: z.boolean().default(true),
    pairing: z.boolean().default(false),
  })
  .prefault({});
export type DiscordYaml = z.output<typeof yaml>;

export interface DiscordSettings {
  token: string;
  apiUrl?: string;
  gatewayUrl?: string;
  allowed: AllowList;
}

export const discordDoor: DoorDefinition<'discord', DiscordYaml, DiscordSettings | undefined> = {
  id: 'discord',
  variables: { allowList: 'DISCORD_ALLOWED_USERS', endpoint: 'DISCORD_API_URL', secrets: ['DISCORD_BOT_TOKEN'] },
  yaml,
  settings(read) {
    const token = read.string('DISCORD_BOT_TOKEN');
    if (!token) return undefined;
    return { token, apiUrl: read.url('DISCORD_API_URL'), gatewayUrl: read.url('DISCORD_GATEWAY_URL'), allowed: parseAllowList(read.string('DISCORD_ALLOWED_USERS')) };
  },
  secretValues: () => [],
  answersStrangers: true,
  pairing: (config) => config.pairing,
  receives: () => true,
  streaming: ['edit', 'off'],
  commands: ['help', 'new', 'status', 'usage', 'stop'],
  // Discord shows "typing…" for 10 s; the same cadence as Telegram keeps it on without gaps.
  typing: { afterMs: 500, everyMs: 4000 },
  address: { example: 'discord:<channel id>', chat: /^\d{1,21}$/, thread: null },
  // One gateway connection per bot token takes the events.
  exclusive: () => true,
};
