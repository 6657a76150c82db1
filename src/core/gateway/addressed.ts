/**
 * Is a message addressed to the bot? The one place that decides it, for every door (ARCHITECTURE.md §7,
 * STYLE 11): doors hand over every message a person writes, with facts (`isDirect`, `mentionsBot`,
 * `isReplyToBot`, `command`); this turns the facts and the chat's `require_mention` into a verdict.
 */
import type { InboundMessage } from '../types.js';

export type AddressFacts = Pick<InboundMessage, 'isDirect' | 'mentionsBot' | 'isReplyToBot' | 'command'>;

/**
 * Direct chats always. A command for another bot (`/cmd@otherbot`) never: it is someone else's,
 * whatever else the message says. In groups and channels: a mention, a reply to the bot, a command
 * for this bot, or any message where the chat's `require_mention` is false.
 */
export function isAddressed(message: AddressFacts, requireMention: boolean): boolean {
  if (message.isDirect) return true;
  if (message.command && !message.command.forBot) return false;
  return !requireMention || message.mentionsBot || message.isReplyToBot || message.command !== undefined;
}
