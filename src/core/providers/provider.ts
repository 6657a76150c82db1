import type { ChatMessage, ToolCall, Usage } from '../messages.js';
import type { MediaData } from '../media/parts.js';

/** A named part of the system prompt (ARCHITECTURE.md §5). Concatenating `text`s gives the cached prompt. */
export interface PromptLayer {
  name: string;
  text: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  /** The cached system prompt, as layers whose concatenation is the prompt byte for byte. */
  system: PromptLayer[];
  /** Stored history plus the new user turn (and tool round-trips of this turn). */
  messages: ChatMessage[];
  /** Per-call instructions after the history; never stored (OpenAI: trailing system message; Anthropic: extra block). */
  tail?: string;
  tools: ToolSpec[];
  /**
   * The bytes (base64) of the images the messages carry (ARCHITECTURE.md §15), by media id: each becomes an
   * image part; one missing here (a model without vision, an image past retention) becomes a line naming it.
   */
  media?: MediaData;
  maxOutputTokens: number;
  signal?: AbortSignal;
  /**
   * Streaming (ARCHITECTURE.md §10): when set, the provider asks for a streamed answer and calls this with
   * each piece of answer text as it arrives. The request is otherwise the same (only the stream flag
   * differs), and the resolved ModelResponse is the same as without it. Absent: no streaming.
   */
  onText?: (delta: string) => void;
}

export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  stopReason: string;
}

export interface Provider {
  readonly name: 'openai' | 'anthropic' | 'unconfigured';
  complete(request: ModelRequest): Promise<ModelResponse>;
  /** For doctor: a cheap reachability check (default: within 5 s); resolves to a problem line or null. */
  check(options?: { timeoutMs?: number }): Promise<string | null>;
}
