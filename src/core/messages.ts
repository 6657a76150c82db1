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

/**
 * A file a message carried, as its transcript shows it (ARCHITECTURE.md §15): an attachment a user sent that
 * is not an image part (a voice note, a document: its text is in the message), or a file the agent
 * sent with its reply. Never part of a model request.
 */
export interface MessageFile {
  readonly kind: 'image' | 'voice' | 'audio' | 'video' | 'document' | 'file';
  readonly name: string;
  /** The type sniffed from the bytes (or the platform's word where they were never read). */
  readonly mime: string;
  readonly bytes: number;
  /** Its MediaStore id when the bytes are stored (files the agent sent); absent when only the text was kept. */
  readonly id?: string;
}

export type ChatMessage =
  | { role: 'user'; content: string; media?: readonly MessageMedia[]; files?: readonly MessageFile[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; files?: readonly MessageFile[] }
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
