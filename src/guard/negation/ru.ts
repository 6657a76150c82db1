/** Negation in Russian, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const ru: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:^|[^\p{L}])(?:не|никогда|нельзя|запрещено)(?![\p{L}])[^.!?\n]{0,30}$/iu,
};
