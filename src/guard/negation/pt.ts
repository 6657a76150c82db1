/** Negation in Portuguese, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const pt: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:^|[^\p{L}])(?:não|nao|nunca|jamais|evite|proibido)(?![\p{L}])[^.!?\n]{0,30}$/iu,
};
