/**
 * A cron run has nobody to answer a question (ARCHITECTURE.md §6). Models still sometimes reply to a
 * scheduled prompt with "Which repository should I look at?" instead of a report. The runner asks
 * once more with NO_QUESTION_RETRY_INSTRUCTION when this detector says the answer is only a question.
 */

/** The one-turn instruction for the retry (ephemeral tail, never stored). */
export const NO_QUESTION_RETRY_INSTRUCTION =
  'Nobody can answer questions in a scheduled run. Do not ask anything: make reasonable assumptions, state them briefly, and produce the finished report now.';

/** Phrases that ask the reader for input or a decision, at the start of a sentence. */
const ASKING =
  /(^|[.!?]\s+|\n)\s*(would you like|do you want|should i|shall i|could you|can you|would you|please (let me know|clarify|specify|provide|confirm|tell me)|let me know|which (one|of)|what (would|should|do) you|are you|is there)\b/i;

/** Says that input is missing: a list after this is what the model wants to be told, not a report. */
const NEEDS_INPUT =
  /\b(i need|i'll need|i would need|i will need|need to know|need (some |a few )?(more )?(information|details|clarification)|before i (start|begin|can|proceed)|(please|could you|can you) (provide|tell me|let me know|specify|clarify|confirm|share|send))\b/i;

/** Signs of a report: headings, several list items, a table, or several paragraphs of statements. */
function looksLikeReport(text: string): boolean {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.some((l) => /^#{1,6}\s/.test(l))) return true;
  if (lines.filter((l) => /^([-*+]|\d+[.)])\s/.test(l)).length >= 3) return true;
  if (lines.some((l) => /^\|.*\|$/.test(l))) return true;
  const statements = sentences(text).filter((s) => !s.endsWith('?') && !ASKING.test(s));
  return statements.join(' ').length >= 400;
}

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * True when `answer` is only a question (or a request for input) rather than a report: it ends by
 * asking, or consists of asks, and has no report structure. A report that closes with a follow-up
 * question is not "only a question". `[SILENT]` and empty answers are not questions.
 */
export function looksLikeOnlyAQuestion(answer: string): boolean {
  const text = answer.trim();
  if (!text || text === '[SILENT]') return false;
  const all = sentences(text.replace(/[*_`~]+/g, ''));
  if (all.length === 0) return false;
  const last = all[all.length - 1].replace(/[\s)"'\u201d\u2019]+$/u, '');
  const asks = all.filter((s) => s.endsWith('?') || ASKING.test(s)).length;
  const endsAsking = last.endsWith('?') || ASKING.test(last);
  // "To write it I need: - the repo - the period - the audience. Could you provide these?" lists questions, not findings.
  if (endsAsking && text.length <= 600 && NEEDS_INPUT.test(text) && !/^\s{0,3}#{1,6}\s/m.test(text)) return true;
  if (looksLikeReport(text)) return false;
  // A short answer that ends asking, or one made mostly of asks.
  return (endsAsking && text.length <= 600) || asks * 2 > all.length;
}
