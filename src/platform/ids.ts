/**
 * Platform ids: the doors Switchboard has. This folder is the bottom layer: core, render and the
 * adapters import it; it imports nothing of theirs.
 */
export const PLATFORM_IDS = ['telegram', 'slack', 'discord', 'email', 'cron', 'cli'] as const;
export type PlatformId = (typeof PLATFORM_IDS)[number];

export function isPlatformId(value: string): value is PlatformId {
  return (PLATFORM_IDS as readonly string[]).includes(value);
}

/** Platforms a reply or report can be sent to by address (cron `deliver`, `chats:` keys). */
export const DELIVERABLE_PLATFORMS = ['telegram', 'slack', 'discord', 'email'] as const;
export type DeliverablePlatform = (typeof DELIVERABLE_PLATFORMS)[number];

export function isDeliverable(platform: PlatformId): platform is DeliverablePlatform {
  return (DELIVERABLE_PLATFORMS as readonly string[]).includes(platform);
}
