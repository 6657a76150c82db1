/** Negation in Turkish, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const tr: Negation = {
  /** Right after the match: the language puts the negation on the verb. */
  after: /^(?:me|ma|meyin|mayın|meyiniz|mayınız|memeli|mamalı|mek\s+yasak)/iu,
};
