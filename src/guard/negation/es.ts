/** Negation in Spanish, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const es: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:^|[^\p{L}])(?:no|nunca|jamás|evita|evite|prohibido)(?![\p{L}])[^.!?\n]{0,30}$/iu,
};
