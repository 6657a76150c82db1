/**
 * Which streaming mode a turn uses (ARCHITECTURE.md §10, §13): the chat's `streaming` from `chats:`, else
 * `streaming.<door>`; doors whose definition offers no mode (e-mail) and cron and cli never stream.
 */
import type { AppConfig, ChatConfig, StreamingMode } from '../config.js';
import { doorOf } from '../../platform/doors/index.js';
import type { PlatformId } from '../../platform/ids.js';

/** `chat` is the conversation's `chats:` entry, looked up once at intake (the turn context). */
export function configuredMode(config: Pick<AppConfig, 'streaming'>, platform: PlatformId, chat: Pick<ChatConfig, 'streaming'> | undefined): StreamingMode {
  const door = doorOf(platform);
  if (!door?.streaming.length) return 'off';
  return chat?.streaming ?? config.streaming[door.id] ?? 'off';
}
