/** Negation in English, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const en: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /\b(?:never|not|no|don't|do\s+not|must\s+not|should\s+not|shouldn't|cannot|can't|won't|avoid)\b[^.!?\n]{0,30}$/i,
};
