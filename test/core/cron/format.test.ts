import { describe, expect, it } from 'vitest';
import { reportSubject } from '../../../src/core/cron/format.js';

const AT = new Date('2026-01-05T08:00:00Z');

describe('reportSubject', () => {
  it.each([
    ['# Open issues — Monday\n\n- 3 bugs', 'Open issues — Monday'],
    ['Here is the report.\n\n## **Weekly** digest ##\n\ntext', 'Weekly digest'],
    ['Daily summary\n=============\n\nAll quiet.', 'Daily summary'],
    ['**3 new issues** since yesterday.\n\nDetails follow.', '3 new issues since yesterday.'],
    ['- [Build](https://ci.example.com) is green', 'Build is green'],
  ])('%j → %s', (answer, subject) => {
    expect(reportSubject(answer, 'daily-report', AT, 'Europe/Berlin')).toBe(subject);
  });

  it('falls back to "<job id> — <date>" in the job zone', () => {
    expect(reportSubject('  \n\n', 'daily-report', new Date('2026-01-05T23:30:00Z'), 'Europe/Berlin')).toBe('daily-report — 2026-01-06');
  });

  it('cuts a very long first line', () => {
    const subject = reportSubject('x'.repeat(300), 'j', AT);
    expect(subject).toHaveLength(120);
    expect(subject.endsWith('…')).toBe(true);
  });
});
