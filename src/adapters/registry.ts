import type { Settings } from '../core/settings.js';
import type { Adapter } from '../core/types.js';
import type { PlatformId } from '../platform/ids.js';
import type { AdapterDeps } from './deps.js';
import type { Logger } from '../core/logger.js';

/** Chat platforms whose credentials are set, in a stable order (e-mail: when a mailbox is read, IMAP_URL). */
export function configuredPlatforms(settings: Settings): PlatformId[] {
  const out: PlatformId[] = [];
  if (settings.telegram) out.push('telegram');
  if (settings.slack) out.push('slack');
  if (settings.discord) out.push('discord');
  if (settings.email.imap) out.push('email');
  return out;
}

/**
 * One adapter per platform whose credentials are set, plus e-mail (outbound mail: SMTP_URL, else
 * .eml files in the outbox folder). The registry is the one place that knows every adapter.
 * `loggerFor` gives each door its own logger (`start` holds their lines while the doors open).
 */
export async function createAdapters(settings: Settings, deps: AdapterDeps, loggerFor?: (platform: PlatformId) => Logger): Promise<Adapter[]> {
  // Platform SDKs are loaded only for the platforms in use (they dominate start-up time).
  const out: Adapter[] = [];
  const own = (platform: PlatformId): AdapterDeps => (loggerFor ? { ...deps, logger: loggerFor(platform) } : deps);
  if (settings.telegram) out.push((await import('./telegram/index.js')).createTelegramAdapter(settings.telegram, own('telegram')));
  if (settings.slack) out.push((await import('./slack/index.js')).createSlackAdapter(settings.slack, own('slack')));
  if (settings.discord) out.push((await import('./discord/index.js')).createDiscordAdapter(settings.discord, own('discord')));
  out.push((await import('./email/index.js')).createEmailAdapter(settings.email, own('email')));
  return out;
}
