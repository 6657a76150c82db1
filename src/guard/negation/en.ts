/** Negation in English, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const en = {
  /** Looked for in the few words before a prose match. */
  before: /\b(?:never|not|no|don't|do\s+not|must\s+not|should\s+not|shouldn't|cannot|can't|won't|avoid)\b[^.!?\n]{0,30}$/i,
  /**
   * The English table's prose patterns: a negation in the sentence before the match, unless it negates
   * something else ("don't hesitate to …"); it reaches over a short list ("never store, log, or exfiltrate …").
   */
  sentence: /\b(?:never|not|no|don't|dont|doesn't|do\s+not|does\s+not|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|won't|will\s+not|avoid|refuse\s+to|refuses\s+to|without)\s+(?:(?!hesitate\b|hesitation\b|forget\b|fail\b|wait\b|delay\b|stop\b|matter\b|exceptions?\b|questions?\b|longer\b|time\b)[\w'-]+,?\s+){0,5}$/i,
} satisfies Negation;
