/** The English table's invisible Unicode and hidden HTML patterns (src/guard/patterns.ts). */
import { EMOJI_BEFORE, EMOJI_AFTER, LETTER_BEFORE, LETTER_AFTER, HIDDEN_INSTRUCTION } from './kit.js';
import type { ThreatPattern } from './types.js';

export const HIDDEN_PATTERNS: readonly ThreatPattern[] = [
  // ── invisible Unicode ───────────────────────────────────────────────────
  {
    id: 'unicode-invisible',
    category: 'invisible_unicode',
    description: 'zero-width characters, soft hyphens, bidi overrides, Hangul fillers, Unicode tag characters (ASCII smuggling)',
    regex: /(?:[\u00AD\u200B-\u200D\u2060-\u2064\u202A-\u202E\u2066-\u2069\u180E\u3164\uFFA0\uFEFF]|[\u{E0000}-\u{E007F}])+/gu,
    prose: false,
    // A lone zero-width joiner inside an emoji sequence (👨‍👩‍👧) or a lone non-joiner between letters
    // of a script that needs it (Persian, Hindi) is ordinary text.
    accept: (m, text) => {
      if (m[0] !== '\u200D' && m[0] !== '\u200C') return true;
      const before = text.slice(Math.max(0, m.index - 4), m.index);
      const after = text.slice(m.index + 1, m.index + 5);
      if (m[0] === '\u200D') return !(EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after));
      return !(LETTER_BEFORE.test(before) && LETTER_AFTER.test(after));
    },
  },
  // ── hidden HTML ─────────────────────────────────────────────────────────
  {
    id: 'html-comment-instructions',
    category: 'hidden_html_comment',
    description: 'an HTML comment (invisible when rendered) that addresses the AI or carries instructions',
    regex: /<!--((?:(?!<!--)[\s\S])*?)-->/g,
    prose: false,
    accept: (m) => HIDDEN_INSTRUCTION.test(m[1] ?? ''),
  },
  {
    id: 'md-comment-instructions',
    category: 'hidden_html_comment',
    description: 'a Markdown comment ([//]: # (…), never rendered) that addresses the AI or carries instructions',
    regex: /^[ \t]*\[(?:\/\/|comment|_|#|\s*)\]:\s*(?:#|<>|\S+)\s+(?:\(([^)\n]*)\)|"([^"\n]*)"|'([^'\n]*)')/gim,
    prose: false,
    accept: (m) => HIDDEN_INSTRUCTION.test(m[1] ?? m[2] ?? m[3] ?? ''),
  },
  {
    id: 'html-hidden-element',
    category: 'hidden_html_comment',
    description: 'an HTML element hidden with CSS (display:none, visibility:hidden, font-size:0, opacity:0) or the hidden attribute',
    regex:
      /<\w+\b[^<>]*\bstyle\s*=\s*["'][^"'<>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d])|opacity\s*:\s*0(?![.\d]))[^"'<>]*["'][^<>]*>|<(?!input\b)\w+\b[^<>]*?\shidden(?=[\s/>=])[^<>]*>/gi,
    prose: false,
  },
];
