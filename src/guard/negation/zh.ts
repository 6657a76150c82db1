/** Negation in Chinese, for the intent patterns' exemption (src/guard/exempt.ts). */
import type { Negation } from './types.js';

export const zh: Negation = {
  /** Looked for in the few words before a prose match. */
  before: /(?:不要|不得|不能|切勿|禁止|严禁|绝不|永远不要|请勿|不许|不准|别)[^。！？\n]{0,12}$|(?:不|没|未|勿)$/u,
  /** Object first, then the negated verb, with no space between words. */
  inside: /(?:不要|不得|不能|切勿|禁止|严禁|绝不|请勿|不可|不许|不准|别(?=[\u4E00-\u9FFF]))|(?:しないで|しない|ないで|禁止)/u,
};
