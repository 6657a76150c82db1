/** Negation in Italian, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const it: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:^|[^\p{L}])(?:non|mai|evita|evitate|vietato)(?![\p{L}])[^.!?\n]{0,30}$/iu,
};
