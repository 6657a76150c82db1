/** `chats:` (ARCHITECTURE.md §13): keys are addresses, settings are checked at load, and a conversation finds its entry. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config.js';
import { chatConfigFor } from '../../src/core/chats.js';
import { ConfigError } from '../../src/core/errors.js';

const load = (yaml: string) => parseConfig(yaml, 'config.yaml');

describe('chats: config', () => {
  it('takes the documented example: system_message, model, streaming, require_mention', () => {
    const config = load(`chats:
  "telegram:-1001234":
    system_message: "This group is the on-call channel; answer in one short paragraph."
    model: gpt-4o
    streaming: off
    require_mention: false
`);
    expect(config.chats).toEqual([
      {
        key: 'telegram:-1001234',
        address: { platform: 'telegram', chatId: '-1001234' },
        system_message: 'This group is the on-call channel; answer in one short paragraph.',
        model: 'gpt-4o',
        streaming: 'off',
        require_mention: false,
      },
    ]);
    expect(load('').chats).toEqual([]);
  });

  it.each([
    ['an unknown address form', '"irc:#ops": {}', /config\.yaml: 'chats\.irc:#ops' 'irc:#ops' is not an address a reply can be sent to; expected telegram:<chat id>/],
    ['a malformed id', '"telegram:abc": {}', /'chats\.telegram:abc' 'telegram:abc' is not a valid telegram address; expected telegram:<chat id>/],
    ['the terminal', '"cli:local": {}', /'cli:local' is not an address a reply can be sent to/],
    ['an unknown key', '"slack:C0123": { sytem_message: x }', /config\.yaml: unknown setting 'chats\.slack:C0123\.sytem_message'/],
    ['a streaming mode that does not exist', '"discord:123": { streaming: fast }', /'chats\.discord:123\.streaming' .*"off"\|"auto"\|"draft"\|"edit"\|"native"/],
    ['require_mention that is not a boolean', '"discord:123": { require_mention: sometimes }', /'chats\.discord:123\.require_mention'/],
    ['one chat named twice', '"email:A@x.org": {}\n  "email:a@x.org": {}', /chats 'email:A@x.org' and 'email:a@x.org' are the same chat/],
  ])('refuses %s with one line naming it', (_what, entry, message) => {
    expect(() => load(`chats:\n  ${entry}\n`)).toThrow(ConfigError);
    expect(() => load(`chats:\n  ${entry}\n`)).toThrow(message);
  });

  it('accepts every streaming mode of ARCHITECTURE.md §10 for the platform that offers it', () => {
    const offered = { 'telegram:-100123': ['off', 'auto', 'draft', 'edit'], 'slack:C0123': ['off', 'auto', 'native', 'edit'], 'discord:123456789012345678': ['off', 'edit'] };
    for (const [chat, modes] of Object.entries(offered)) {
      for (const mode of modes) expect(load(`chats:\n  "${chat}": { streaming: ${mode} }\n`).chats[0].streaming).toBe(mode);
    }
  });
});

describe('chatConfigFor', () => {
  const config = load(`chats:
  "telegram:-100": { model: group-model }
  "telegram:-100:42": { model: topic-model }
  "slack:C0123": { require_mention: false }
  "email:boss@example.com": { model: mail-model }
`);
  it('finds the chat, a named thread before its chat, and a thread of a chat by the chat', () => {
    expect(chatConfigFor(config, { platform: 'telegram', chatId: '-100' })?.model).toBe('group-model');
    expect(chatConfigFor(config, { platform: 'telegram', chatId: '-100', threadId: '42' })?.model).toBe('topic-model');
    expect(chatConfigFor(config, { platform: 'telegram', chatId: '-100', threadId: '7' })?.model).toBe('group-model');
    expect(chatConfigFor(config, { platform: 'slack', chatId: 'C0123', threadId: '1700000000.000100' })?.require_mention).toBe(false);
  });

  it('does not mix platforms or chats; e-mail matches the correspondent', () => {
    expect(chatConfigFor(config, { platform: 'discord', chatId: '-100' })).toBeUndefined();
    expect(chatConfigFor(config, { platform: 'telegram', chatId: '100' })).toBeUndefined();
    expect(chatConfigFor(config, { platform: 'email', chatId: '<root@mail>', userId: 'Boss@Example.com' })?.model).toBe('mail-model');
    expect(chatConfigFor(config, { platform: 'cli', chatId: 'local', userId: 'local' })).toBeUndefined();
  });
});
