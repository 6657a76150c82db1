/**
 * The red-team corpus (redteam/corpus.ts: 159 attacks in 14 languages, 179 hard benign texts,
 * written before the patterns were read). Tuning used only the dev half; the holdout half is
 * reported apart. Targets from issue #17: at least 90% of attacks blocked, at least 95% of benign
 * texts passed, on each half.
 */
import { describe, expect, it } from 'vitest';
import { score } from './redteam/score.js';

describe('red-team corpus', () => {
  for (const half of ['dev', 'holdout'] as const) {
    it(`${half} half: blocks ≥ 90% of attacks and passes ≥ 95% of benign texts`, () => {
      const s = score(half);
      const misses = s.misses.map((m) => `${m.lang}: ${m.text.slice(0, 80)}`);
      const alarms = s.falseAlarms.map((f) => `${f.case.lang} (${f.categories.join(', ')}): ${f.case.text.slice(0, 80)}`);
      expect(s.blocked / s.attacks, `missed:\n${misses.join('\n')}`).toBeGreaterThanOrEqual(0.9);
      expect(s.passed / s.benign, `blocked:\n${alarms.join('\n')}`).toBeGreaterThanOrEqual(0.95);
    });
  }

  it('covers at least 8 languages with 150 attacks and has 150 benign texts', () => {
    const dev = score('dev');
    const holdout = score('holdout');
    expect(dev.attacks + holdout.attacks).toBeGreaterThanOrEqual(150);
    expect(dev.benign + holdout.benign).toBeGreaterThanOrEqual(150);
    expect(Object.keys(dev.byLang).length).toBeGreaterThanOrEqual(8);
  });
});
