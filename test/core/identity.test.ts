/**
 * Who is who (src/core/identity.ts, ARCHITECTURE.md §5, §7, §4b `people:`): the person key that owns memory,
 * profile and session search — one person, many doors, and never two people behind one key — and the
 * session keys of §7.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config.js';
import { personKey } from '../../src/core/identity.js';
import { memoryDir } from '../../src/core/memory/entries.js';
import { cronSessionAddress, formatSessionKey } from '../../src/platform/address.js';

const config = parseConfig(
  ['people:', '  alice: [telegram:1001, slack:U1001, email:Alice@Example.com]', '  bob: [discord:300000000000000002]'].join('\n'),
  'test.yaml',
);
const nobodyLinked = parseConfig('', 'test.yaml');

describe('personKey', () => {
  it('is <platform>-<user id> for someone config does not link', () => {
    expect(personKey(nobodyLinked, 'telegram', '1001')).toBe('telegram-1001');
    expect(personKey(nobodyLinked, 'slack', 'U1001')).toBe('slack-U1001');
    expect(personKey(nobodyLinked, 'email', 'alice@example.com')).toBe('email-alice@example.com');
    expect(personKey(nobodyLinked, 'cli', 'local')).toBe('cli-local');
    expect(personKey(config, 'telegram', '2002')).toBe('telegram-2002');
  });

  it('is the person’s name on every door `people:` links to them', () => {
    expect(personKey(config, 'telegram', '1001')).toBe('alice');
    expect(personKey(config, 'slack', 'U1001')).toBe('alice');
    expect(personKey(config, 'email', 'alice@example.com')).toBe('alice');
    expect(personKey(config, 'discord', '300000000000000002')).toBe('bob');
  });

  it('links one id on one platform: the same digits elsewhere, a longer id or another user are someone else', () => {
    expect(personKey(config, 'discord', '1001')).toBe('discord-1001');
    expect(personKey(config, 'telegram', '10010')).toBe('telegram-10010');
    expect(personKey(config, 'telegram', '100')).toBe('telegram-100');
    expect(personKey(config, 'slack', 'U1002')).toBe('slack-U1002');
  });

  it('matches e-mail addresses whatever their case, and other platforms’ ids exactly', () => {
    for (const address of ['alice@example.com', 'ALICE@EXAMPLE.COM', 'Alice@example.COM']) expect(personKey(config, 'email', address)).toBe('alice');
    // Slack user ids are case-sensitive: a lower-case id is a different (made-up) user.
    expect(personKey(config, 'slack', 'u1001')).toBe('slack-u1001');
  });

  it('gives a key that is one folder name, whatever the sender put in their id', () => {
    for (const id of ['../../etc/passwd', 'a/b\\c', '..', 'x\u0000y', 'with space']) {
      const key = personKey(nobodyLinked, 'email', id);
      expect(key, id).not.toMatch(/[/\\\u0000\s]/);
      expect(key, id).not.toMatch(/^\.{1,2}$/);
      expect(key.startsWith('email-'), id).toBe(true);
    }
  });

  // ARCHITECTURE.md §7: one user's memory, profile and search never show another user's data, so the
  // folder-safe form must be injective (percent-escaping, not '_').
  it('never gives two different senders the same key', () => {
    const pairs = [
      ["o'brien@example.com", 'o_brien@example.com'],
      ['a/b@example.com', 'a_b@example.com'],
      ['john!doe@example.com', 'john#doe@example.com'],
      ['john doe@example.com', 'john_doe@example.com'],
      ['john%21doe@example.com', 'john!doe@example.com'],
      ['a..b@example.com', 'a.%2Eb@example.com'],
      ['jöhn@example.com', 'john@example.com'],
    ];
    for (const [a, b] of pairs) expect(personKey(nobodyLinked, 'email', a), `${a} vs ${b}`).not.toBe(personKey(nobodyLinked, 'email', b));
  });

  it('gives distinct folders to many made-up addresses that differ only in unsafe characters', () => {
    const specials = [..."!#$%&'*/=?^`{|}~ \\\"(),:;<>[]_.", 'é', '€', '😀', '%25'];
    const ids = new Set<string>();
    for (const a of specials) for (const b of specials) ids.add(`j${a}${b}d@example.com`);
    const keys = new Map<string, string>();
    for (const id of ids) {
      const key = personKey(nobodyLinked, 'email', id);
      expect(keys.get(key), `${id} vs ${keys.get(key)}`).toBeUndefined();
      keys.set(key, id);
      expect(() => memoryDir('/home/sb', key), id).not.toThrow();
    }
  });

  it('keeps the folder names of plain ids', () => {
    expect(personKey(nobodyLinked, 'email', 'bob+tag@mail.example.com')).toBe('email-bob+tag@mail.example.com');
    expect(personKey(nobodyLinked, 'discord', '300000000000000002')).toBe('discord-300000000000000002');
  });
});

describe('session keys (formatSessionKey)', () => {
  it('is platform:chat[:thread]:user, so each user has their own session in a group and in a thread', () => {
    expect(formatSessionKey({ platform: 'telegram', chatId: '1001', userId: '1001' })).toBe('telegram:1001:1001');
    expect(formatSessionKey({ platform: 'telegram', chatId: '-100123', userId: '1001' })).toBe('telegram:-100123:1001');
    expect(formatSessionKey({ platform: 'telegram', chatId: '-100123', userId: '2002' })).toBe('telegram:-100123:2002');
    expect(formatSessionKey({ platform: 'slack', chatId: 'C0TEAM', threadId: '1700000000.000100', userId: 'U1001' })).toBe('slack:C0TEAM:1700000000.000100:U1001');
  });

  it('is cron:<job id> for a cron job', () => {
    expect(formatSessionKey(cronSessionAddress('daily-report'))).toBe('cron:daily-report');
  });
});
