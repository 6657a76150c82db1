/** Negation in Japanese, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const ja: Negation = {
  /** Right after the match: the language puts the negation on the verb. */
  after: /^(?:し|を|は)?(?:ない|ません|しない|するな|禁止|せず|不要)/u,
  /** Object first, then the negated verb (the same markers as Chinese, and しないで). */
  inside: /(?:不要|不得|不能|切勿|禁止|严禁|绝不|请勿|不可|不许|不准|别(?=[\u4E00-\u9FFF]))|(?:しないで|しない|ないで|禁止)/u,
};
