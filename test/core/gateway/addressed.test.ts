import { describe, expect, it } from 'vitest';
import { isAddressed, type AddressFacts } from '../../../src/core/gateway/addressed.js';

const group: AddressFacts = { isDirect: false, mentionsBot: false, isReplyToBot: false };
const ours = { name: 'new', forBot: true };
const theirs = { name: 'status', forBot: false };

describe('the addressed step: the one decision over every door\'s facts', () => {
  const cases: [string, AddressFacts, boolean, boolean][] = [
    // what, facts, require_mention, answered
    ['a direct message', { ...group, isDirect: true }, true, true],
    ['a direct message with a command for another bot', { ...group, isDirect: true, command: theirs }, true, true],
    ['group chatter', group, true, false],
    ['group chatter where require_mention is false', group, false, true],
    ['a mention', { ...group, mentionsBot: true }, true, true],
    ['a reply to the bot', { ...group, isReplyToBot: true }, true, true],
    ['a command for this bot', { ...group, command: ours }, true, true],
    ['a command for another bot', { ...group, command: theirs }, true, false],
    ['a command for another bot that also mentions this one', { ...group, mentionsBot: true, command: theirs }, true, false],
    ['a command for another bot where require_mention is false', { ...group, command: theirs }, false, false],
  ];
  for (const [what, facts, requireMention, answered] of cases) {
    it(`${what} (require_mention ${requireMention}): ${answered ? 'answered' : 'ignored'}`, () => {
      expect(isAddressed(facts, requireMention)).toBe(answered);
    });
  }
});
