/**
 * Per-chat settings (ARCHITECTURE.md §13): which `chats:` entry a conversation belongs to. A key names a
 * chat, or one thread of it (`telegram:-100123:42`); a session in a thread the config does not
 * name belongs to the chat's entry (a Slack thread belongs to its channel). An e-mail key names the
 * correspondent's address.
 */
import type { AppConfig, ChatConfig } from './config.js';
import type { Address } from '../platform/address.js';

/** The `chats:` entry for a conversation at `address`, or undefined (most chats have none). */
export function chatConfigFor(config: Pick<AppConfig, 'chats'>, address: Address & { userId?: string }): ChatConfig | undefined {
  const { platform, chatId, threadId } = address;
  const candidates = config.chats.filter((c) => c.address.platform === platform);
  if (platform === 'email') {
    const who = [chatId, address.userId].filter((v): v is string => Boolean(v)).map((v) => v.toLowerCase());
    return candidates.find((c) => who.includes(c.address.chatId));
  }
  const inChat = candidates.filter((c) => c.address.chatId === chatId);
  return (threadId ? inChat.find((c) => c.address.threadId === threadId) : undefined) ?? inChat.find((c) => c.address.threadId === undefined);
}
