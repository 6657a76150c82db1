import { describe, expect, it } from 'vitest';
import { resolveMode } from '../../src/adapters/telegram/stream.js';
import { resolveSlackMode } from '../../src/adapters/slack/stream.js';

// Which streaming a reply gets depends on whether its chat is direct: the door's fact from intake,
// carried on the delivery target by the turn context; only a target made without a message (a cron
// `deliver`) is judged by the shape of its id.
describe('streaming mode from the door’s isDirect fact', () => {
  it('Telegram: a draft only where the door said the chat is private', () => {
    expect(resolveMode({ platform: 'telegram', chatId: '1001', isDirect: true }, 'auto')).toBe('draft');
    expect(resolveMode({ platform: 'telegram', chatId: '1001', isDirect: false }, 'auto')).toBe('edit');
    expect(resolveMode({ platform: 'telegram', chatId: '1001', isDirect: false }, 'draft')).toBeNull();
    // no fact (cron deliver): a positive id is a user's private chat
    expect(resolveMode({ platform: 'telegram', chatId: '1001' }, 'auto')).toBe('draft');
    expect(resolveMode({ platform: 'telegram', chatId: '-1001234' }, 'auto')).toBe('edit');
  });

  it('Slack: native streaming in a direct thread by the fact, without knowing the team', () => {
    const thread = { platform: 'slack' as const, chatId: 'D0123', threadId: '1.2', userId: 'U1' };
    expect(resolveSlackMode({ ...thread, isDirect: true }, 'auto', undefined)).toBe('native');
    expect(resolveSlackMode({ ...thread, isDirect: false }, 'auto', undefined)).toBe('edit');
    expect(resolveSlackMode(thread, 'auto', undefined)).toBe('native');
  });
});
