/** The English pattern table's types (src/guard/patterns.ts and src/guard/table/*.ts). */

export type ThreatCategory =
  | 'instruction_override'
  | 'role_hijack'
  | 'prompt_leak'
  | 'exfiltration'
  | 'c2_callback'
  | 'tool_hijack'
  | 'invisible_unicode'
  | 'hidden_html_comment'
  /** The learned layer (learned.ts) scored a paragraph above its threshold. */
  | 'learned_injection';

/** Categories in the order reported. */
export const THREAT_CATEGORIES: readonly ThreatCategory[] = [
  'instruction_override',
  'role_hijack',
  'prompt_leak',
  'exfiltration',
  'c2_callback',
  'tool_hijack',
  'invisible_unicode',
  'hidden_html_comment',
  'learned_injection',
];

export interface ThreatPattern {
  /** Stable id, used in tests and logs. */
  id: string;
  category: ThreatCategory;
  description: string;
  /** Global regex (flag `g` required). */
  regex: RegExp;
  /** Prose pattern: a negated or discussed match is not a hit. */
  prose: boolean;
  /** Extra check on a match; returning false drops it. */
  accept?: (match: RegExpExecArray, text: string) => boolean;
  /**
   * Offsets of `text` where a match can begin, in order (every offset where one does, and maybe
   * more): the scan then tries the regex only there instead of reading the whole text. The matches
   * are the same as a full `matchAll`.
   */
  starts?: (text: string) => readonly number[];
}
