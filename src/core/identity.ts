import type { AppConfig } from './config.js';
import type { PlatformId } from '../platform/ids.js';

/**
 * Folder-safe form of an id, injective so that two senders never share a folder: characters outside
 * [A-Za-z0-9@._+-] (and `%` itself, and the second dot of `..`) become `%XX` per UTF-8 byte. Plain
 * ids keep their names (`telegram-1001`, `email-bob@example.com`).
 */
export function folderSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9@._+-]|(?<=\.)\./gu, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
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
  return folderSafe(`${platform}-${userId}`);
}
