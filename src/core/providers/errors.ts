import { ModelError } from '../errors.js';
import { OpenAIConnectionError } from './openai-http.js';

/** Translates SDK errors (Anthropic's) and OpenAI-compatible ones (openai-http.ts, the same shape) into one ModelError line. */
export function toModelError(error: unknown, where: string): ModelError {
  if (error instanceof ModelError) return error;
  const e = error as { status?: number; name?: string; message?: string; error?: { message?: string; error?: { message?: string } } };
  const kind = (error as { constructor?: { name?: string } })?.constructor?.name ?? e.name ?? '';
  const status = typeof e.status === 'number' ? e.status : undefined;
  const detail = e.error?.error?.message ?? e.error?.message ?? e.message ?? String(error);
  if (kind === 'APIUserAbortError' || e.name === 'AbortError') return new ModelError('the model call was cancelled', { kind: 'cancelled', cause: error });
  if (error instanceof OpenAIConnectionError && !error.timedOut) return new ModelError(`cannot reach the model at ${where}`, { kind: 'unavailable', cause: error });
  if (kind === 'APIConnectionTimeoutError' || /timed out/i.test(e.message ?? '')) return new ModelError(`the model at ${where} did not answer in time`, { kind: 'timeout', cause: error });
  if (kind === 'APIConnectionError') return new ModelError(`cannot reach the model at ${where}`, { kind: 'unavailable', cause: error });
  if (status === 401 || status === 403) return new ModelError(`the model provider refused the API key (HTTP ${status}); check the key`, { status, kind: 'refused', cause: error });
  if (status === 404) return new ModelError(`model or endpoint not found at ${where} (HTTP 404): ${oneLine(detail)}`, { status, kind: 'refused', cause: error });
  if (status !== undefined) {
    const failure = status === 429 || status >= 500 ? 'unavailable' : 'failed';
    return new ModelError(`the model failed (HTTP ${status}): ${oneLine(detail)}`, { status, kind: failure, cause: error });
  }
  return new ModelError(`the model failed: ${oneLine(detail)}`, { cause: error });
}

function oneLine(s: string): string {
  return s.split('\n')[0].slice(0, 300);
}
