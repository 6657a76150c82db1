/** Negation in Ukrainian, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const uk: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:^|[^\p{L}])(?:не|ніколи|не\s+можна|заборонено)(?![\p{L}])[^.!?\n]{0,30}$/iu,
};
