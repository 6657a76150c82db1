/** Conversation messages as stored and replayed (byte for byte) to the model. */
export interface ToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments, exactly as the model produced it. */
  arguments: string;
}

/**
 * A file a user message carries into the model's view (ARCHITECTURE.md §15): an image stored in the media
 * store, sent as an image part on every turn (its bytes byte-identical, the prefix cache holds).
 */
export interface MessageMedia {
  /** MediaStore id (SHA-256 of the stored bytes). */
  readonly id: string;
  readonly mime: string;
  /** The name the platform gave it (or `photo`). */
  readonly name: string;
  readonly bytes: number;
}

export type ChatMessage =
  | { role: 'user'; content: string; media?: readonly MessageMedia[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prefix cache. */
  cachedTokens: number;
  /** Anthropic: tokens written to the cache. */
  cacheWriteTokens: number;
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}
