/** Negation in German, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const de: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:^|[^\p{L}])(?:nicht|nie|niemals|kein\p{L}*|keinesfalls|vermeide|verboten)(?![\p{L}])[^.!?\n]{0,30}$/iu,
};
