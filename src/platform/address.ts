/**
 * Addresses: where a conversation happens and where a reply goes, as one value type. Sessions,
 * the outbox and cron jobs store the parts as columns; the string forms below are for people
 * (config, logs, the cron tool) and for opaque keys, and are never parsed back out of storage.
 *
 * Text form: `platform:chat[:thread]` (`telegram:-100123:42`, `slack:C0123:1700000000.000100`,
 * `email:alice@example.com`). A part that holds `:` or `%` is percent-escaped, so the form is
 * injective: two different addresses never print the same.
 */
import { isDeliverable, isPlatformId, type DeliverablePlatform, type PlatformId } from './ids.js';
import { DOORS, type AddressSyntax } from './doors/index.js';

/** A chat (and thread) on one platform. Ids are the platform's own, as opaque strings. */
export interface Address {
  readonly platform: PlatformId;
  /** Chat / channel / DM id; for e-mail the thread root (inbound) or the recipient (delivery). */
  readonly chatId: string;
  /** Slack thread_ts, Telegram forum topic, Discord thread. */
  readonly threadId?: string;
}

/** One person's place in a chat: every user has their own session, also in groups and threads. */
export interface SessionAddress extends Address {
  readonly userId: string;
}

/** An address a report or reply can be sent to by name (cron `deliver`, `chats:` keys). */
export interface DeliverableAddress extends Address {
  readonly platform: DeliverablePlatform;
}

/** A malformed address; the message says what the platform's addresses look like. */
export class AddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressError';
  }
}

/** Each door's address syntax, from its definition (every door is an address a reply can go to). */
const SYNTAX: Readonly<Record<DeliverablePlatform, { readonly address: AddressSyntax }>> = DOORS;

/** The address forms `deliver` and `chats:` accept, for error messages. */
export const DELIVERABLE_FORMS = Object.values(SYNTAX)
  .map((s) => s.address.example)
  .join(', ');

const escapePart = (part: string): string => part.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'));
const unescapePart = (part: string): string => part.replace(/%3A/gi, ':').replace(/%25/g, '%');

/** `platform:chat[:thread]`, parts escaped: the chat a reply goes to, also the outbox's ordering key. */
export function formatAddress(address: Address): string {
  const base = `${address.platform}:${escapePart(address.chatId)}`;
  return address.threadId ? `${base}:${escapePart(address.threadId)}` : base;
}

/**
 * Session key (ARCHITECTURE.md §7): `platform:chat[:thread]:user`; a cron job's session is `cron:<job id>`.
 * An opaque key (leases, logs): the store keeps the parts as columns.
 */
export function formatSessionKey(address: SessionAddress): string {
  if (address.platform === 'cron') return `cron:${escapePart(address.chatId)}`;
  return `${formatAddress(address)}:${escapePart(address.userId)}`;
}

/** The session address of a cron job: chat and user are the job id. */
export function cronSessionAddress(jobId: string): SessionAddress {
  return { platform: 'cron', chatId: jobId, userId: jobId };
}

/**
 * Parses an address a report can be delivered to: `telegram:-100123`, `telegram:-100123:42`,
 * `slack:C0123[:<ts>]`, `discord:<channel id>`, `email:<address>`. Throws AddressError naming the
 * accepted forms for anything else (unknown platform, `cli:`/`cron:`, a malformed id).
 */
export function parseDeliverableAddress(text: string): DeliverableAddress {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  const platform = colon > 0 ? trimmed.slice(0, colon) : '';
  const rest = colon > 0 ? trimmed.slice(colon + 1) : '';
  if (!isPlatformId(platform) || !isDeliverable(platform)) {
    throw new AddressError(`'${text}' is not an address a reply can be sent to; expected ${DELIVERABLE_FORMS}`);
  }
  const syntax = SYNTAX[platform].address;
  const parts = rest.split(':').map(unescapePart);
  const [chat, thread, extra] = parts;
  const ok =
    extra === undefined &&
    syntax.chat.test(chat ?? '') &&
    (thread === undefined || (syntax.thread !== null && syntax.thread.test(thread)));
  if (!ok) throw new AddressError(`'${text}' is not a valid ${platform} address; expected ${syntax.example}`);
  const chatId = syntax.canonical ? syntax.canonical(chat) : chat;
  return thread === undefined ? { platform, chatId } : { platform, chatId, threadId: thread };
}

/** Same place (platform, chat, thread), whatever else the values carry. */
export function sameAddress(a: Address, b: Address): boolean {
  return a.platform === b.platform && a.chatId === b.chatId && (a.threadId ?? '') === (b.threadId ?? '');
}

/** Just the address parts of a value that carries more (a delivery target, an inbound message). */
export function addressOf(value: Address): Address {
  return value.threadId ? { platform: value.platform, chatId: value.chatId, threadId: value.threadId } : { platform: value.platform, chatId: value.chatId };
}
