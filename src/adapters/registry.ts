import type { Settings } from '../core/settings.js';
import type { Adapter } from '../core/types.js';
import type { PlatformId } from '../core/platforms.js';
import type { AdapterDeps } from './deps.js';
import { createTelegramAdapter } from './telegram/index.js';
import { createSlackAdapter } from './slack/index.js';
import { createDiscordAdapter } from './discord/index.js';
import { createEmailAdapter } from './email/index.js';

/** Chat platforms whose credentials are set, in a stable order. */
export function configuredPlatforms(settings: Settings): PlatformId[] {
  const out: PlatformId[] = [];
  if (settings.telegram) out.push('telegram');
  if (settings.slack) out.push('slack');
  if (settings.discord) out.push('discord');
  return out;
}

/**
 * One adapter per platform whose credentials are set, plus e-mail (outbound mail: SMTP_URL, else
 * .eml files in the outbox folder). The registry is the one place that knows every adapter.
 */
export function createAdapters(settings: Settings, deps: AdapterDeps): Adapter[] {
  const out: Adapter[] = [];
  if (settings.telegram) out.push(createTelegramAdapter(settings.telegram, deps));
  if (settings.slack) out.push(createSlackAdapter(settings.slack, deps));
  if (settings.discord) out.push(createDiscordAdapter(settings.discord, deps));
  out.push(createEmailAdapter(settings.email, deps));
  return out;
}
