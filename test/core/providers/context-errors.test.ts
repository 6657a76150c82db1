import { describe, expect, it } from 'vitest';
import { BadRequestError, InternalServerError } from '@anthropic-ai/sdk';
import { toModelError } from '../../../src/core/providers/errors.js';
import { OpenAIStatusError } from '../../../src/core/providers/openai-http.js';

const WHERE = 'http://127.0.0.1:1/v1';

describe('provider errors (issue 38)', () => {
  it('a context-length error is its own kind, whichever server says it', () => {
    const cases: unknown[] = [
      new OpenAIStatusError(400, { error: { message: 'Please reduce the length of the messages.', type: 'invalid_request_error', code: 'context_length_exceeded' } }),
      new OpenAIStatusError(400, { error: { message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens" } }),
      new OpenAIStatusError(400, { error: { message: 'the request exceeds the available context size, try increasing it' } }),
      new OpenAIStatusError(413, 'Payload Too Large'),
      new BadRequestError(400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' } }, undefined, new Headers()),
    ];
    for (const error of cases) expect(toModelError(error, WHERE).kind, String(error)).toBe('too_long');
  });

  it('other 400s stay failures; a 5xx is an answering error, not "unreachable"', () => {
    expect(toModelError(new OpenAIStatusError(400, { error: { message: 'invalid tool schema' } }), WHERE).kind).toBe('failed');
    expect(toModelError(new OpenAIStatusError(500, { error: { message: 'boom' } }), WHERE).kind).toBe('erroring');
    expect(toModelError(new InternalServerError(500, { type: 'error', error: { type: 'api_error', message: 'boom' } }, undefined, new Headers()), WHERE).kind).toBe('erroring');
  });
});
