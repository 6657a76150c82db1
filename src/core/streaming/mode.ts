/**
 * Which streaming mode a turn uses (DESIGN §10, §13): the chat's `streaming` from `chats:`, else
 * `streaming.<door>`; doors whose definition offers no mode (e-mail) and cron and cli never stream.
 */
import type { AppConfig, StreamingMode } from '../config.js';
import { doorOf } from '../../platform/doors/index.js';
import { chatConfigFor } from '../chats.js';
import type { DeliveryTarget } from '../types.js';

export function configuredMode(config: Pick<AppConfig, 'chats' | 'streaming'>, target: DeliveryTarget & { userId?: string }): StreamingMode {
  const door = doorOf(target.platform);
  if (!door?.streaming.length) return 'off';
  const chat = chatConfigFor(config, target)?.streaming;
  return chat ?? config.streaming[door.id] ?? 'off';
}
