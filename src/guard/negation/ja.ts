/** Negation in Japanese, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const ja: Negation = {
  /** Right after the match: the language puts the negation on the verb. */
  after: /^(?:し|を|は)?(?:ない|ません|しない|するな|禁止|せず|不要)/u,
};
