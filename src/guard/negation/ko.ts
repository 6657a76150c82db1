/** Negation in Korean, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const ko: Negation = {
  /** Right after the match: the language puts the negation on the verb. */
  after: /^(?:하|을|를)?\s*(?:지\s*마|지\s*말|지\s*않|면\s*안|금지)/u,
};
