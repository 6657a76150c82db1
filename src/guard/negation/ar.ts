/** Negation in Arabic, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const ar: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:^|[^\p{L}])(?:لا|لن|أبدا|أبداً|ممنوع|يمنع)(?![\p{L}])[^.!?؟\n]{0,30}$/u,
};
