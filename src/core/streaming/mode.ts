/**
 * Which streaming mode a turn uses (DESIGN §10, §13): the chat's `streaming` from `chats:`, else
 * `streaming.<platform>`; platforms without an entry (e-mail, cron, cli) never stream.
 */
import type { AppConfig, StreamingMode, StreamingPlatform } from '../config.js';
import { STREAMING_BY_PLATFORM } from '../config.js';
import { chatConfigFor } from '../chats.js';
import type { DeliveryTarget } from '../types.js';

export function configuredMode(config: Pick<AppConfig, 'chats' | 'streaming'>, target: DeliveryTarget & { userId?: string }): StreamingMode {
  if (!(target.platform in STREAMING_BY_PLATFORM)) return 'off';
  const chat = chatConfigFor(config, target)?.streaming;
  return chat ?? config.streaming[target.platform as StreamingPlatform];
}
