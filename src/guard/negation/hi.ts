/** Negation in Hindi, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const hi: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:^|\s)(?:मत|न|नहीं|कभी\s+नहीं|कभी\s+भी\s+न)(?=\s)[^।.!?\n]{0,30}$/u,
  /** Right after the match: the language puts the negation on the verb. */
  after: /^\s+(?:न|नहीं|मत)(?=\s|[।.!?]|$)/u,
  /** A negation word between the object and the verb. */
  inside: /(?:^|\s)(?:न|मत|नहीं)(?=\s)/u,
};
