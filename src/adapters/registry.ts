import type { Settings } from '../core/settings.js';
import type { Adapter } from '../core/types.js';
import type { PlatformId } from '../platform/ids.js';
import type { AdapterDeps } from './deps.js';

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
 */
export async function createAdapters(settings: Settings, deps: AdapterDeps): Promise<Adapter[]> {
  // Platform SDKs are loaded only for the platforms in use (they dominate start-up time).
  const out: Adapter[] = [];
  if (settings.telegram) out.push((await import('./telegram/index.js')).createTelegramAdapter(settings.telegram, deps));
  if (settings.slack) out.push((await import('./slack/index.js')).createSlackAdapter(settings.slack, deps));
  if (settings.discord) out.push((await import('./discord/index.js')).createDiscordAdapter(settings.discord, deps));
  out.push((await import('./email/index.js')).createEmailAdapter(settings.email, deps));
  return out;
}
