/**
 * PLATFORM_HINTS is the platform table (src/platform/formats.ts) plus the hint texts: the facts
 * must be the table's, and a hint that tells the model a size limit must tell it the table's.
 */
import { describe, expect, it } from 'vitest';
import { PLATFORM_HINTS } from '../../../src/core/prompt/hints.js';
import { PLATFORM_FORMATS } from '../../../src/platform/formats.js';
import { PLATFORM_IDS } from '../../../src/platform/ids.js';

describe('PLATFORM_HINTS', () => {
  it.each(PLATFORM_IDS)('%s: the table entry plus a hint that names the platform', (platform) => {
    const { hint, ...facts } = PLATFORM_HINTS[platform];
    expect(facts).toEqual(PLATFORM_FORMATS[platform]);
    expect(hint.toLowerCase()).toContain(platform);
  });

  it('a hint that states a size limit states the table limit', () => {
    let checked = 0;
    for (const { platform, hint, messageLimit } of Object.values(PLATFORM_HINTS)) {
      const stated = [...hint.matchAll(/at most ([\d,]+)|under ([\d,]+)/g)].map((m) => Number((m[1] ?? m[2]).replace(/,/g, '')));
      for (const n of stated) expect(n, platform).toBe(messageLimit);
      checked += stated.length;
    }
    expect(checked).toBe(3); // telegram, slack, discord
  });
});
