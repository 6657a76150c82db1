/**
 * The OpenAI-compatible exchange (openai-http.ts) against the model fake: what a chat user would
 * notice of retries, timeouts, cut streams and /stop — an answer that is shown is never started
 * again, a server that says "do not retry" is not retried, a long answer that keeps coming is not
 * cut by the timeout, and a stop ends the call at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, type ModelFake } from '../../fakes/model.js';
import { createOpenAIProvider } from '../../../src/core/providers/openai.js';
import { retryDelayMs } from '../../../src/core/providers/openai-http.js';
import { ModelError } from '../../../src/core/errors.js';
import type { ModelRequest } from '../../../src/core/providers/provider.js';

let fake: ModelFake;
beforeAll(async () => {
  fake = await startModelFake();
});
afterAll(async () => {
  await fake.close();
});

const request: ModelRequest = {
  model: 'm',
  system: [{ name: 'identity', text: 'You are Switchboard.' }],
  messages: [{ role: 'user', content: 'tell me' }],
  tools: [],
  maxOutputTokens: 100,
};

const provider = (timeoutMs = 5000, maxRetries = 3) => createOpenAIProvider({ apiKey: 'sk-test', baseURL: fake.openaiUrl, timeoutMs, maxRetries });

const LONG = 'one two three four five six seven eight nine ten eleven twelve';

describe('OpenAI-compatible exchange', () => {
  it('sends the key as a bearer token and the body as JSON', async () => {
    fake.queue({ text: 'hi' });
    await provider().complete(request);
    const sent = fake.completions().at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body.model).toBe('m');
  });

  it('does not start a streamed answer again once part of it was shown; the error says the model was cut off', async () => {
    fake.queue({ text: LONG, tokensPerSecond: 200, cutAfterTokens: 3 });
    const before = fake.completions().length;
    const shown: string[] = [];
    const err = await provider().complete({ ...request, onText: (t) => shown.push(t) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).kind).toBe('unavailable');
    // What was shown is the start of the answer (the cut may take the last piece with it).
    expect(shown.length).toBeGreaterThan(0);
    expect(LONG.startsWith(shown.join(''))).toBe(true);
    expect(shown.join('').length).toBeLessThan(LONG.length);
    expect(fake.completions().length - before).toBe(1);
  });

  it('retries a stream that failed before its first piece (a 503), then streams the answer', async () => {
    fake.queue({ status: 503 }, { text: 'second time lucky', tokensPerSecond: 500 });
    const before = fake.completions().length;
    const shown: string[] = [];
    const res = await provider().complete({ ...request, onText: (t) => shown.push(t) });
    expect(res.text).toBe('second time lucky');
    expect(shown.join('')).toBe('second time lucky');
    expect(fake.completions().length - before).toBe(2);
  });

  it('does not retry when the server says x-should-retry: false, and tells the status', async () => {
    fake.queue({ status: 500, headers: { 'x-should-retry': 'false' }, body: JSON.stringify({ error: { message: 'broken for good' } }) });
    const before = fake.completions().length;
    const err = await provider().complete(request).catch((e: unknown) => e);
    expect((err as Error).message).toBe('the model failed (HTTP 500): broken for good');
    expect(fake.completions().length - before).toBe(1);
  });

  it('waits as long as retry-after-ms asks before the retry', async () => {
    fake.queue({ status: 429, headers: { 'retry-after-ms': '300' } }, { text: 'ok' });
    const started = Date.now();
    expect((await provider().complete(request)).text).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('gives up after max_retries with the last status in one line', async () => {
    fake.queue({ status: 502, headers: { 'retry-after-ms': '1' } }, { status: 502, headers: { 'retry-after-ms': '1' } });
    const before = fake.completions().length;
    const err = await provider(5000, 1).complete(request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).kind).toBe('erroring');
    expect((err as Error).message).toMatch(/^the model failed \(HTTP 502\): fake error 502$/);
    expect(fake.completions().length - before).toBe(2);
  });

  it('an error event inside the stream ends the call with its message', async () => {
    fake.queue({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: 'data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\ndata: {"error":{"message":"the server is overloaded"}}\n\n',
    });
    const shown: string[] = [];
    const err = await provider().complete({ ...request, onText: (t) => shown.push(t) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as Error).message).toContain('the server is overloaded');
    expect(shown).toEqual(['Hel']);
  });

  it('a long streamed answer that keeps coming is not cut by the timeout; a stream that stalls is', async () => {
    // 12 words at 20/s: 600 ms in all, a 300 ms timeout between pieces.
    fake.queue({ text: LONG, tokensPerSecond: 20 });
    const res = await provider(300, 0).complete({ ...request, onText: () => undefined });
    expect(res.text).toBe(LONG);
    fake.queue({ text: 'a b c', tokensPerSecond: 1.5 });
    const err = await provider(300, 0).complete({ ...request, onText: () => undefined }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/did not answer in time/);
  });

  it('a stop (the turn signal) ends a streaming call at once as cancelled', async () => {
    fake.queue({ text: LONG, tokensPerSecond: 5 });
    const controller = new AbortController();
    const started = Date.now();
    const call = provider().complete({ ...request, signal: controller.signal, onText: () => controller.abort() });
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a stop while waiting to retry ends the wait', async () => {
    fake.queue({ status: 429, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const err = await provider().complete({ ...request, signal: controller.signal }).catch((e: unknown) => e);
    expect((err as ModelError).kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('retry delay', () => {
  const never = () => 0;
  it('prefers retry-after-ms, then retry-after in seconds or as a date, up to a minute', () => {
    expect(retryDelayMs({ 'retry-after-ms': '250', 'retry-after': '9' }, 0, never)).toBe(250);
    expect(retryDelayMs({ 'retry-after': '2' }, 0, never)).toBe(2000);
    const date = new Date(Date.now() + 5000).toUTCString();
    const fromDate = retryDelayMs({ 'retry-after': date }, 0, never);
    expect(fromDate).toBeGreaterThan(3000);
    expect(fromDate).toBeLessThanOrEqual(5000);
  });

  it('backs off from 0.5 s doubling to 8 s, a quarter of jitter down, when the server asks for nothing or too much', () => {
    expect(retryDelayMs(undefined, 0, never)).toBe(500);
    expect(retryDelayMs({}, 2, never)).toBe(2000);
    expect(retryDelayMs({}, 10, never)).toBe(8000);
    expect(retryDelayMs({ 'retry-after': '3600' }, 1, never)).toBe(1000);
    expect(retryDelayMs({}, 1, () => 1)).toBe(750);
  });
});
