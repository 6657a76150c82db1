/**
 * Which streaming mode a turn uses (DESIGN §10, §13): the chat's `streaming` from `chats:`, else
 * `streaming.<platform>`; platforms without an entry (e-mail, cron, cli) never stream.
 */
import type { AppConfig, ChatConfig, StreamingMode, StreamingPlatform } from '../config.js';
import { STREAMING_BY_PLATFORM } from '../config.js';
import type { PlatformId } from '../../platform/ids.js';

/** `chat` is the conversation's `chats:` entry, looked up once at intake (the turn context). */
export function configuredMode(config: Pick<AppConfig, 'streaming'>, platform: PlatformId, chat: Pick<ChatConfig, 'streaming'> | undefined): StreamingMode {
  if (!(platform in STREAMING_BY_PLATFORM)) return 'off';
  return chat?.streaming ?? config.streaming[platform as StreamingPlatform];
}
