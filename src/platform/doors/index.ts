/**
 * Every door, by id: the one registry of door definitions the core iterates (config sections,
 * variables, allow-lists, streaming modes, commands, typing, addresses). A new door is a new file
 * here, its id in ids.ts (PLATFORM_IDS, DELIVERABLE_PLATFORMS), its format entry in formats.ts, its
 * hint text in core/prompt/hints.ts, and its factory in src/adapters/registry.ts; the compiler
 * points at each one that is missing.
 *
 * The terminal (`cli`) and scheduled runs (`cron`) are platforms but not doors: they are the
 * operator's own (always allowed, no credentials, no address to send to by name).
 */
import type { PlatformId } from '../ids.js';
import { discordDoor } from './discord.js';
import { emailDoor } from './email.js';
import { slackDoor } from './slack.js';
import { telegramDoor } from './telegram.js';
import type { DoorDefinition } from './types.js';

export const DOORS = { telegram: telegramDoor, slack: slackDoor, discord: discordDoor, email: emailDoor } as const;

/** The doors, in the order they start and are listed. */
export const DOOR_IDS = ['telegram', 'slack', 'discord', 'email'] as const satisfies readonly (keyof typeof DOORS)[];
export type DoorId = (typeof DOOR_IDS)[number];

type Def<K extends DoorId> = (typeof DOORS)[K];
/** A door's config section as validated. */
export type DoorYaml<K extends DoorId> = Def<K> extends DoorDefinition<K, infer Y, unknown> ? Y : never;
/** A door's settings (undefined when not configured, for doors that need credentials). */
export type DoorSettings<K extends DoorId> = ReturnType<Def<K>['settings']>;

/** The definitions as a table the core can index with a generic door id and keep each door's types. */
export type DoorTable = { [K in DoorId]: DoorDefinition<K, DoorYaml<K>, DoorSettings<K>> };
export const DOOR_TABLE: DoorTable = DOORS;

/** Each door's settings under its id; a door that needs credentials is absent without them. */
export type DoorSettingsMap = { [K in DoorId as undefined extends DoorSettings<K> ? K : never]?: NonNullable<DoorSettings<K>> } & {
  [K in DoorId as undefined extends DoorSettings<K> ? never : K]: DoorSettings<K>;
};

/** Each door's config section under its id, as the config file has them. */
export type DoorSections = { [K in DoorId]: DoorYaml<K> };

export function isDoorId(platform: string): platform is DoorId {
  return (DOOR_IDS as readonly string[]).includes(platform);
}

/** The definition of the door `platform` is; undefined for `cli` and `cron`. */
export function doorOf(platform: PlatformId): (typeof DOORS)[DoorId] | undefined {
  return isDoorId(platform) ? DOORS[platform] : undefined;
}

export * from './types.js';
export type { TelegramSettings, TelegramYaml } from './telegram.js';
export type { SlackSettings, SlackYaml } from './slack.js';
export type { DiscordSettings, DiscordYaml } from './discord.js';
export type { EmailSettings, EmailYaml, ImapSettings } from './email.js';
export { parseImapUrl } from './email.js';
