import { ModelError } from '../errors.js';
import { OpenAIConnectionError } from './openai-http.js';

/** Translates SDK errors (Anthropic's) and OpenAI-compatible ones (openai-http.ts, the same shape) into one ModelError line. */
export function toModelError(error: unknown, where: string): ModelError {
  if (error instanceof ModelError) return error;
  const e = error as { status?: number; name?: string; message?: string; error?: { message?: string; code?: unknown; error?: { message?: string; code?: unknown } } };
  const kind = (error as { constructor?: { name?: string } })?.constructor?.name ?? e.name ?? '';
  const status = typeof e.status === 'number' ? e.status : undefined;
  const detail = e.error?.error?.message ?? e.error?.message ?? e.message ?? String(error);
  if (kind === 'APIUserAbortError' || e.name === 'AbortError') return new ModelError('the model call was cancelled', { kind: 'cancelled', cause: error });
  if (error instanceof OpenAIConnectionError && !error.timedOut) return new ModelError(`cannot reach the model at ${where}`, { kind: 'unavailable', cause: error });
  if (kind === 'APIConnectionTimeoutError' || /timed out/i.test(e.message ?? '')) return new ModelError(`the model at ${where} did not answer in time`, { kind: 'timeout', cause: error });
  if (kind === 'APIConnectionError') return new ModelError(`cannot reach the model at ${where}`, { kind: 'unavailable', cause: error });
  if (status === 401 || status === 403) return new ModelError(`the model provider refused the API key (HTTP ${status}); check the key`, { status, kind: 'refused', cause: error });
  if (status === 404) return new ModelError(`model or endpoint not found at ${where} (HTTP 404): ${oneLine(detail)}`, { status, kind: 'refused', cause: error });
  if (isContextOverflow(status, e, detail)) {
    return new ModelError(`the request is longer than the model's context window${status ? ` (HTTP ${status})` : ''}: ${oneLine(detail)}`, { status, kind: 'too_long', cause: error });
  }
  if (status !== undefined) {
    // A server that answered is not "unreachable": a 5xx or an overload is its own kind (issue 38).
    const failure = status === 429 || status >= 500 ? 'erroring' : 'failed';
    return new ModelError(`the model failed (HTTP ${status}): ${oneLine(detail)}`, { status, kind: failure, cause: error });
  }
  return new ModelError(`the model failed: ${oneLine(detail)}`, { cause: error });
}

/**
 * The provider said the request does not fit the model's context: OpenAI's `context_length_exceeded`
 * (code) or "maximum context length", Anthropic's "prompt is too long", llama.cpp's "exceeds the
 * available context size", vLLM's "maximum context length", or a 413 from a server or proxy.
 */
const CONTEXT_OVERFLOW = /context_length_exceeded|maximum context length|context length|context window|prompt is too long|exceeds? the (?:available )?context|too many tokens|reduce the length of the messages|input is too long/i;

function isContextOverflow(status: number | undefined, e: { error?: { code?: unknown; error?: { code?: unknown } } }, detail: string): boolean {
  if (status === 413) return true;
  if (status !== undefined && status !== 400 && status !== 422) return false;
  const code = e.error?.error?.code ?? e.error?.code;
  return code === 'context_length_exceeded' || CONTEXT_OVERFLOW.test(detail);
}

function oneLine(s: string): string {
  return s.split('\n')[0].slice(0, 300);
}

/**
 * What servers answer when the model takes no images (ARCHITECTURE.md §15): OpenAI's "Invalid content type.
 * image_url is only supported by certain models", "does not support image input" (Ollama, LM Studio,
 * gateways, Anthropic-compatible servers), llama.cpp's "image input is not supported" (a 500),
 * OpenRouter's "No endpoints found that support image input" (a 404), vLLM's "At most 0 image(s)" or
 * "not a multimodal model", a Rust server's "unknown variant `image_url`", an old Ollama's "cannot
 * unmarshal array into … content of type string".
 */
const REFUSES_IMAGES = new RegExp(
  [
    String.raw`\b(does|do|did|can|could)\s*(not|n't)\s+(support|accept|handle|process|take)\w*\s+(the\s+)?(image|vision|multimodal|multi-modal)`,
    String.raw`\bimages?(\s|_)?(input|url|content|part|block)s?\s+(is|are)\s+(not|only)\s+(supported|allowed|accepted|available)`,
    String.raw`image_url is only supported`,
    String.raw`invalid content type`,
    String.raw`no endpoints found that support image`,
    String.raw`not an? (multimodal|multi-modal|vision)(\s|-)?(model|capable)`,
    String.raw`at most 0 image`,
    String.raw`vision (is\s+)?not (supported|enabled|available)`,
    String.raw`unknown variant .?image(_url)?`,
    String.raw`cannot unmarshal array into .*content of type string`,
    String.raw`model does not have vision`,
    String.raw`\bimages?\b[^.]{0,60}\b(unsupported|not supported)`,
  ].join('|'),
  'i',
);

/**
 * Whether `error` is the provider saying this model takes no image parts (a 400-class answer, or a 404 or
 * 500 where a server says so), so the turn is asked again without them.
 */
export function refusesImages(error: unknown): boolean {
  if (!(error instanceof ModelError) || error.kind === 'cancelled' || error.kind === 'timeout' || error.kind === 'unavailable') return false;
  if (error.status === 401 || error.status === 403 || error.status === 429) return false;
  return REFUSES_IMAGES.test(error.message);
}
