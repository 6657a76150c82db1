/**
 * When to compress a session and where to cut its history. Pure functions over stored rows.
 */
import type { ChatMessage } from '../messages.js';

/** Tokens a message costs beyond its text (role, separators), as chat formats roughly charge. */
const PER_MESSAGE_TOKENS = 4;

/** Rough token count of text: about four characters per token for English and code. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Rough token count of messages as a request carries them (text, tool call arguments, names). */
export function estimateMessageTokens(messages: readonly ChatMessage[]): number {
  let tokens = 0;
  for (const m of messages) {
    tokens += PER_MESSAGE_TOKENS + estimateTextTokens(m.content);
    if (m.role === 'assistant' && m.toolCalls) for (const c of m.toolCalls) tokens += estimateTextTokens(c.name + c.arguments) + PER_MESSAGE_TOKENS;
    if (m.role === 'tool') tokens += estimateTextTokens(m.name);
  }
  return tokens;
}

export interface Row {
  id: number;
  message: ChatMessage;
}

export interface CompressionPlan {
  /** Oldest rows, replaced by one summary. */
  older: Row[];
  /** The most recent user turns, kept verbatim. */
  recent: Row[];
}

/**
 * Splits history rows into older turns and the most recent `keepTurns` user turns. A turn starts at a
 * user message, so a tool call is never separated from its result. Returns null when there is nothing
 * older to compress. When the kept turns alone would use more than `maxRecentTokens`, fewer are kept
 * (at least one), so a session with a few huge turns does not compress again on every turn.
 */
export function planCompression(rows: readonly Row[], keepTurns: number, maxRecentTokens = Infinity): CompressionPlan | null {
  const turnStarts = rows.flatMap((r, i) => (r.message.role === 'user' ? [i] : []));
  if (!turnStarts.length) return null;
  let keep = Math.min(Math.max(1, keepTurns), turnStarts.length);
  while (keep > 1 && estimateMessageTokens(rows.slice(turnStarts[turnStarts.length - keep]).map((r) => r.message)) > maxRecentTokens) keep--;
  const cut = turnStarts[turnStarts.length - keep];
  if (cut === 0) return null;
  return { older: rows.slice(0, cut), recent: rows.slice(cut) };
}
