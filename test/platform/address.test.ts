/**
 * Addresses (src/platform/address.ts): the text forms people write in config (`deliver:`, `chats:`)
 * and the keys the core files sessions under. Read each case as "an operator writes X, the gateway
 * delivers to Y" or "these two places never share a key".
 */
import { describe, expect, it } from 'vitest';
import {
  AddressError,
  addressOf,
  cronSessionAddress,
  formatAddress,
  formatSessionKey,
  parseDeliverableAddress,
  sameAddress,
  type Address,
  type DeliverableAddress,
  type SessionAddress,
} from '../../src/platform/address.js';

/** The accepted form each platform's error message must name (ARCHITECTURE.md §4b `deliver`, §13 `chats:`). */
const FORMS = {
  telegram: 'telegram:<chat id>[:<topic id>]',
  slack: 'slack:<channel id>[:<thread ts>]',
  discord: 'discord:<channel id>',
  email: 'email:<address>',
} as const;

/** Text as an operator writes it, and the address it means: at least one per deliverable platform. */
const CANONICAL: Array<[text: string, address: DeliverableAddress]> = [
  ['telegram:1001', { platform: 'telegram', chatId: '1001' }],
  ['telegram:-100123', { platform: 'telegram', chatId: '-100123' }],
  ['telegram:-100123:42', { platform: 'telegram', chatId: '-100123', threadId: '42' }],
  ['slack:C0123ABC', { platform: 'slack', chatId: 'C0123ABC' }],
  ['slack:D0DM42', { platform: 'slack', chatId: 'D0DM42' }],
  ['slack:C0123ABC:1700000000.000100', { platform: 'slack', chatId: 'C0123ABC', threadId: '1700000000.000100' }],
  ['discord:123456789012345678', { platform: 'discord', chatId: '123456789012345678' }],
  ['email:alice@example.com', { platform: 'email', chatId: 'alice@example.com' }],
  ['email:first.last+tag@mail.example.co.uk', { platform: 'email', chatId: 'first.last+tag@mail.example.co.uk' }],
  // '%' is legal in an address's local part; in the text form it is escaped so the form stays injective.
  ['email:a%25b@example.com', { platform: 'email', chatId: 'a%b@example.com' }],
  ['email:a%253ab@example.com', { platform: 'email', chatId: 'a%3ab@example.com' }],
];

describe('parseDeliverableAddress and formatAddress', () => {
  it.each(CANONICAL)('%s: parses to its address, prints back the same, and parse(format(a)) equals a', (text, address) => {
    expect(parseDeliverableAddress(text)).toEqual(address);
    expect(formatAddress(address)).toBe(text);
    expect(parseDeliverableAddress(formatAddress(address))).toEqual(address);
  });

  it('lower-cases e-mail addresses, so one mailbox is one address however it is written', () => {
    for (const text of ['email:Alice@Example.COM', 'email:ALICE@EXAMPLE.COM', 'email:alice@example.com']) {
      expect(parseDeliverableAddress(text)).toEqual({ platform: 'email', chatId: 'alice@example.com' });
    }
    // Only e-mail: Slack ids are case-sensitive, and lower case is not a Slack channel id at all.
    expect(parseDeliverableAddress('slack:C0ABC').chatId).toBe('C0ABC');
    expect(() => parseDeliverableAddress('slack:c0abc')).toThrow(AddressError);
  });

  it('ignores whitespace around the form (YAML values, copied ids)', () => {
    expect(parseDeliverableAddress('  telegram:-100123:42\n')).toEqual({ platform: 'telegram', chatId: '-100123', threadId: '42' });
  });

  // Each refusal names what was written and the form that would have been accepted.
  it.each<[text: string, accepted: readonly string[]]>([
    ['email:not-an-address', [FORMS.email]],
    ['email:alice@localhost', [FORMS.email]],
    ['email:', [FORMS.email]],
    ['telegram:abc', [FORMS.telegram]],
    ['telegram:1001:topic', [FORMS.telegram]],
    ['telegram:1:2:3', [FORMS.telegram]],
    ['telegram:1001:', [FORMS.telegram]],
    ['slack:', [FORMS.slack]],
    ['slack:C0123:not-a-ts', [FORMS.slack]],
    ['discord:123:456', [FORMS.discord]],
    ['discord:general', [FORMS.discord]],
    // not a door a report can be sent to: the message lists every accepted form
    ['cli:local', Object.values(FORMS)],
    ['cron:x', Object.values(FORMS)],
    ['whatsapp:1', Object.values(FORMS)],
    ['telegram', Object.values(FORMS)],
    [':1001', Object.values(FORMS)],
    ['', Object.values(FORMS)],
  ])('refuses %j, naming the accepted form', (text, accepted) => {
    let error: unknown;
    try {
      parseDeliverableAddress(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AddressError);
    const message = (error as AddressError).message;
    expect(message).toContain(`'${text}'`);
    for (const form of accepted) expect(message).toContain(form);
  });
});

/** Ids chosen to collide if a part were not escaped: ':' and '%' and what they escape to. */
const TRICKY = ['a', 'b', 'a:b', 'a%3Ab', 'a%253Ab', 'a%3ab', '%', '%25', ':', '::', 'b:'];

function collisions<T>(values: T[], print: (v: T) => string): string[] {
  const seen = new Map<string, T>();
  const found: string[] = [];
  for (const v of values) {
    const text = print(v);
    const earlier = seen.get(text);
    if (earlier !== undefined) found.push(`${JSON.stringify(earlier)} and ${JSON.stringify(v)} both print ${text}`);
    else seen.set(text, v);
  }
  return found;
}

describe('injective text forms', () => {
  it('two different addresses never print the same, also with ":" and "%" in their ids', () => {
    const addresses: Address[] = [];
    for (const platform of ['telegram', 'slack', 'email'] as const) {
      for (const chatId of TRICKY) {
        addresses.push({ platform, chatId });
        for (const threadId of TRICKY) addresses.push({ platform, chatId, threadId });
      }
    }
    expect(addresses.length).toBe(3 * TRICKY.length * (TRICKY.length + 1));
    expect(collisions(addresses, formatAddress)).toEqual([]);
  });

  it('two different session addresses never share a key, also with ":" and "%" in chat, thread or user', () => {
    const sessions: SessionAddress[] = [];
    for (const platform of ['telegram', 'slack'] as const) {
      for (const chatId of TRICKY) {
        for (const userId of TRICKY) {
          sessions.push({ platform, chatId, userId });
          for (const threadId of TRICKY) sessions.push({ platform, chatId, threadId, userId });
        }
      }
    }
    for (const jobId of TRICKY) sessions.push(cronSessionAddress(jobId));
    expect(collisions(sessions, formatSessionKey)).toEqual([]);
  });

  it('session keys have the documented shape: platform:chat[:thread]:user, and cron:<job id>', () => {
    expect(formatSessionKey({ platform: 'telegram', chatId: '-100123', userId: '1001' })).toBe('telegram:-100123:1001');
    expect(formatSessionKey({ platform: 'slack', chatId: 'C0123', threadId: '1700000000.000100', userId: 'U1001' })).toBe('slack:C0123:1700000000.000100:U1001');
    expect(formatSessionKey({ platform: 'email', chatId: '<root@mail.example.com>', userId: 'alice@example.com' })).toBe('email:<root@mail.example.com>:alice@example.com');
    expect(formatSessionKey(cronSessionAddress('daily-report'))).toBe('cron:daily-report');
  });

  it('two users in one group chat have different sessions; one user in two threads too', () => {
    const alice = formatSessionKey({ platform: 'slack', chatId: 'C0TEAM', userId: 'U1' });
    const bob = formatSessionKey({ platform: 'slack', chatId: 'C0TEAM', userId: 'U2' });
    const aliceInThread = formatSessionKey({ platform: 'slack', chatId: 'C0TEAM', threadId: '1700000000.000100', userId: 'U1' });
    const aliceInOther = formatSessionKey({ platform: 'slack', chatId: 'C0TEAM', threadId: '1700000000.000200', userId: 'U1' });
    expect(new Set([alice, bob, aliceInThread, aliceInOther]).size).toBe(4);
  });
});

describe('sameAddress and addressOf', () => {
  it('compare and keep only platform, chat and thread', () => {
    const target = { platform: 'slack', chatId: 'C0123', threadId: '1700000000.000100', userId: 'U1', ephemeral: true } as const;
    expect(addressOf(target)).toEqual({ platform: 'slack', chatId: 'C0123', threadId: '1700000000.000100' });
    expect(sameAddress(target, { platform: 'slack', chatId: 'C0123', threadId: '1700000000.000100' })).toBe(true);
    expect(sameAddress(target, { platform: 'slack', chatId: 'C0123' })).toBe(false);
    expect(sameAddress(target, { platform: 'slack', chatId: 'C0124', threadId: '1700000000.000100' })).toBe(false);
    expect(sameAddress({ platform: 'telegram', chatId: '1' }, { platform: 'discord', chatId: '1' })).toBe(false);
    expect(addressOf({ platform: 'telegram', chatId: '1001' })).toEqual({ platform: 'telegram', chatId: '1001' });
  });

  it('a parsed `chats:` key is the same place as the inbound chat it names', () => {
    const inbound = { platform: 'telegram', chatId: '-1001234', threadId: '7', userId: '1001' } as const;
    expect(sameAddress(parseDeliverableAddress('telegram:-1001234:7'), inbound)).toBe(true);
    expect(sameAddress(parseDeliverableAddress('telegram:-1001234'), inbound)).toBe(false);
  });
});
