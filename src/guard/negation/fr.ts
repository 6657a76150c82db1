/** Negation in French, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const fr: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:^|[^\p{L}])(?:ne|n['’]|jamais|évitez|évite|interdit)(?![\p{L}])[^.!?\n]{0,30}$/iu,
};
