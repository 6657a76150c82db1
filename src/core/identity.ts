import type { AppConfig } from './config.js';
import type { PlatformId } from '../platform/ids.js';

/** Folder-safe form of an id (user ids can hold `@`, `.`, `+` in e-mail addresses). */
function safe(id: string): string {
  return id.replace(/[^A-Za-z0-9@._+-]/g, '_');
}

/**
 * The memory/search owner of a platform user: the person's name when config `people:` links this
 * id, else `<platform>-<user id>` (e.g. `telegram-1001`).
 */
export function personKey(config: Pick<AppConfig, 'people'>, platform: PlatformId, userId: string): string {
  const ref = `${platform}:${userId}`;
  for (const [name, refs] of Object.entries(config.people)) {
    if (refs.some((r) => r === ref || (platform === 'email' && r.toLowerCase() === ref.toLowerCase()))) return name;
  }
  return safe(`${platform}-${userId}`);
}
