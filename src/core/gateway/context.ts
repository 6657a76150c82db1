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
import { parseCommand, type ParsedCommand } from '../commands.js';

export interface TurnContext {
  readonly message: InboundMessage;
  /** The session's address: platform, chat, thread, sender (every user has their own session). */
  readonly address: SessionAddress;
  /** Opaque session key `platform:chat[:thread]:user`. */
  readonly sessionKey: string;
  /** Memory/search owner of the sender. */
  readonly person: string;
  /** The chat's `chats:` entry (DESIGN §13); undefined for most chats. */
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
 * The command of a message: the one its door marked (`message.command`, its arguments in the text),
 * else one written at the start of the text (`/new`, `/new@MyBot`); null when there is none.
 */
export function commandOf(message: InboundMessage): ParsedCommand | null {
  if (message.command === undefined) return parseCommand(message.text);
  const name = message.command.replace(/^\//, '').replace(/@.*$/, '');
  const text = message.text.trim();
  // The text may repeat the command the door marked (`/new@MyBot args`): the arguments follow it.
  const repeated = new RegExp(`^/${name.replace(/[^\w]/g, '\\$&')}(?:@[\\w.-]+)?(?=\\s|$)`, 'i').exec(text);
  const args = repeated ? text.slice(repeated[0].length) : text;
  return parseCommand(`/${name}${args ? ` ${args}` : ''}`);
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
