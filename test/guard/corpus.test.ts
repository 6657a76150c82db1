import { describe, expect, it } from 'vitest';
import { scanText } from '../../src/guard/scan.js';
import { ATTACKS, BENIGN } from './corpus.js';


describe('threat corpus', () => {
  it('is big enough and has unique names', () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(80);
    expect(BENIGN.length).toBeGreaterThanOrEqual(80);
    const names = [...ATTACKS, ...BENIGN].map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('blocks every attack', () => {
    const missed = ATTACKS.filter((e) => !scanText(e.text, e.scope).blocked).map((e) => e.name);
    expect(missed).toEqual([]);
  });

  it('loads every benign text', () => {
    const flagged = BENIGN.flatMap((e) => {
      const r = scanText(e.text, e.scope);
      return r.blocked ? [`${e.name}: ${r.matches.map((m) => `${m.pattern} «${m.excerpt}»`).join('; ')}`] : [];
    });
    expect(flagged).toEqual([]);
  });

  it('loads the whole benign corpus as one file (no cross-entry matches)', () => {
    const all = BENIGN.map((e) => e.text.replace(/^\uFEFF/, '')).join('\n\n');
    expect(scanText(all, 'context').matches).toEqual([]);
  });

  it('still blocks an attack buried in the middle of a long benign file', () => {
    const benign = BENIGN.map((e) => e.text.replace(/^\uFEFF/, '')).join('\n\n');
    for (const attack of ATTACKS) {
      const result = scanText(`${benign}\n\n${attack.text}\n\n${benign}`, 'context');
      expect(result.blocked, attack.name).toBe(true);
    }
  });

  // Speed is measured by `npm run bench`; this only guards against a pattern that never finishes.
  it('scans 1 MB of mixed text without catastrophic backtracking', () => {
    const unit = [...BENIGN.map((e) => e.text), 'a'.repeat(5000), `${'ignore '.repeat(500)}`, `${'https://x.example/?a='.repeat(200)}`, `<!--${'-'.repeat(3000)}`].join('\n');
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length)).slice(0, 1_000_000);
    scanText(text.slice(0, 10_000), 'context'); // warm up
    const t0 = performance.now();
    scanText(text, 'context');
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(10_000); // ~100 ms normally (see the bench); a backtracking pattern takes minutes
  });
});
