/** Platform ids: the doors Switchboard has. */
export const PLATFORM_IDS = ['telegram', 'slack', 'discord', 'email', 'cron', 'cli'] as const;
export type PlatformId = (typeof PLATFORM_IDS)[number];

export function isPlatformId(value: string): value is PlatformId {
  return (PLATFORM_IDS as readonly string[]).includes(value);
}
