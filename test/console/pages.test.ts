/** Counts on the console's pages read as English: one session, one message (issue #38, point 8). */
import { describe, expect, it } from 'vitest';
import { sessionsPage } from '../../src/console/pages.js';
import { activityChart } from '../../src/console/chart.js';

const page = (total: number) => sessionsPage({ page: 1, pageSize: 20, total, hasNext: false, items: [] }, { csrf: 'x' });

describe('console counts', () => {
  it('the sessions page: 1 session, 2 sessions', () => {
    expect(page(1)).toContain('<p>1 session, most recently active first.</p>');
    expect(page(2)).toContain('<p>2 sessions, most recently active first.</p>');
  });

  it('the chart: 1 message, 2 messages', () => {
    const svg = activityChart([
      { date: '2026-12-01', messages: 1, cacheHitRate: null },
      { date: '2026-12-02', messages: 2, cacheHitRate: 0.5 },
    ]).text;
    expect(svg).toContain('<title>2026-12-01: 1 message</title>');
    expect(svg).toContain('<title>2026-12-02: 2 messages</title>');
  });
});
