import { describe, expect, it } from 'vitest';
import { looksLikeOnlyAQuestion } from '../../../src/core/cron/question.js';

describe('looksLikeOnlyAQuestion', () => {
  it.each([
    'Which repository should I summarise?',
    'Sure! Before I start: do you want the report for all projects or only the backend?',
    'I can do that. Could you tell me which time range you are interested in?',
    'Would you like me to include closed issues as well?',
    'Please specify the project name.',
    '**Quick question:** should I include weekends?',
    'To write this report I need:\n- the repository\n- the date range\n- the audience\n\nCould you provide these?',
    'Before I start, I need a few details:\n1. Which project?\n2. Which period?\n3. Which format?',
  ])('is a question: %s', (answer) => {
    expect(looksLikeOnlyAQuestion(answer)).toBe(true);
  });

  it.each([
    '[SILENT]',
    '',
    '# Open issues\n\n- 3 bugs\n- 1 feature request\n\nWant me to dig deeper?',
    'Daily summary: 3 issues were opened yesterday, 2 were closed. The backlog is stable.',
    'Open issues:\n1. Login fails on Safari\n2. Export times out\n3. Typo on the pricing page\nShould I file these as tickets?',
    'Yesterday was quiet. '.repeat(30) + 'Anything else?',
  ])('is a report: %s', (answer) => {
    expect(looksLikeOnlyAQuestion(answer)).toBe(false);
  });
});
