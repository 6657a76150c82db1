/**
 * The turn context (STYLE 12, grammY's `ctx`): what is known about an inbound message, worked out
 * once at intake and handed along — to the steps, the command handlers, the turn, the agent and its
 * tools, and the reply's delivery target. Nothing downstream looks these up again: the chat's
 * `chats:` entry, the session key, the person, the command and whether the chat is direct are
 * fields here.
 */
import type { ChatConfig } from '../config.js';
import type { Settings } from '../settings.js';
import type { DeliveryTarget, InboundMessage } from '../types.js';
import { formatSessionKey, type SessionAddress } from '../../platform/address.js';
import { personKey } from '../identity.js';
import { chatConfigFor } from '../chats.js';
import { isChatCommand, parseCommand, type ParsedCommand } from '../commands.js';

export interface TurnContext {
  readonly message: InboundMessage;
  /** The session's address: platform, chat, thread, sender (every user has their own session). */
  readonly address: SessionAddress;
  /** Opaque session key `platform:chat[:thread]:user`. */
  readonly sessionKey: string;
  /** Memory/search owner of the sender. */
  readonly person: string;
  /** The chat's `chats:` entry (ARCHITECTURE.md §13); undefined for most chats. */
  readonly chat: ChatConfig | undefined;
  /** The chat command the message is (known or not), parsed once; null for anything else. */
  readonly command: ParsedCommand | null;
  /** A one-to-one chat (DM, private chat, terminal), as the door reported it. */
  readonly isDirect: boolean;
  /**
   * The model a new session of this chat starts with: the chat's `model`, else the global one. A
   * session keeps the model it started with (Agent.modelOf).
   */
  readonly model: string;
  /** Where the answer goes: the door's reply target, knowing whether the chat is direct. */
  readonly replyTarget: DeliveryTarget;
}

/** The reply target of a message, carrying the door's `isDirect` (DeliveryTarget drops nothing the door said). */
export function replyTargetOf(message: InboundMessage): DeliveryTarget {
  return { ...message.replyTarget, isDirect: message.isDirect };
}

/**
 * The chat command of a message, parsed once: the text's own (`/new`, `/new@MyBot args`), or, where
 * the door marked a command that is one of ours and the text does not repeat it (a Slack slash
 * command `/new`), that command with the text as its arguments. A marked command that is not a chat
 * command (Slack's and Discord's `/ask`) is the door's way in: its text goes to the model. Null for
 * anything else.
 */
export function commandOf(message: InboundMessage): ParsedCommand | null {
  const marked = message.command;
  const text = message.text.trim();
  if (marked?.forBot && isChatCommand(marked.name) && !text.startsWith('/')) return { command: marked.name, args: text };
  return parseCommand(text);
}

/** Everything intake knows about `message`, computed once. */
export function turnContext(message: InboundMessage, settings: Pick<Settings, 'config' | 'model'>): TurnContext {
  const { platform, chatId, threadId, userId } = message;
  const address: SessionAddress = threadId === undefined ? { platform, chatId, userId } : { platform, chatId, threadId, userId };
  const chat = chatConfigFor(settings.config, message);
  return {
    message,
    address,
    sessionKey: formatSessionKey(address),
    person: personKey(settings.config, platform, userId),
    chat,
    command: commandOf(message),
    isDirect: message.isDirect,
    model: chat?.model ?? settings.model.name,
    replyTarget: replyTargetOf(message),
  };
}

/**
 * The context of a later message of the same session (the next turn's batch): the session's facts
 * stay, the message and its reply target are its own. Never a command: commands skip the queue.
 */
export function nextMessage(ctx: TurnContext, message: InboundMessage): TurnContext {
  return { ...ctx, message, command: null, replyTarget: replyTargetOf(message) };
}
