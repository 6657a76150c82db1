/**
 * The HTTP exchange with an OpenAI-compatible endpoint: one POST (or GET) over node:http(s) with a
 * keep-alive agent, retried as the OpenAI SDK retries it — 408, 409, 429 and 5xx, or a connection
 * that failed, honouring `x-should-retry`, `retry-after-ms` and `retry-after` (up to a minute), else
 * exponential backoff from 0.5 s to 8 s with jitter — and a streamed answer read with
 * eventsource-parser, each event's JSON handed on as it arrives.
 *
 * Why not the SDK's own request path (issue #14): for one chat completion it built its headers three
 * times over, formatted a debug log line that is never printed, made a Headers of the response, an
 * AbortController, a web stream and an async-iterator chain for the SSE — about 69 KB allocated per
 * message of the gateway's 200 (bench/allocations.ts), and an AbortSignal per call, which on Node 20
 * a scavenge cannot collect, so it and everything it held lived on into old space. Here the timeout
 * is a timer that destroys the request, and the caller's signal gets one listener for the call.
 */
import http from 'node:http';
import https from 'node:https';
import { createParser } from 'eventsource-parser';
import { decoded } from '../http-fetch.js';

export interface OpenAIEndpoint {
  /** Base URL, e.g. https://api.openai.com/v1 (no trailing slash needed). */
  baseURL: string;
  apiKey: string;
  /** Per attempt: until the whole answer (unstreamed) or between two pieces of a streamed one. */
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The endpoint answered with an error status, or (no status) sent an error event inside a stream;
 * `error` is its parsed JSON body (or text).
 */
export class OpenAIStatusError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly error: unknown,
  ) {
    const message = errorMessage(error) ?? 'status code (no body)';
    super(status === undefined ? message : `${status} ${message}`);
    this.name = 'OpenAIStatusError';
  }
}

/** No answer in time (`timedOut`), or no connection / a connection cut before the answer was whole. */
export class OpenAIConnectionError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OpenAIConnectionError';
  }
}

/** The caller's signal aborted the call. */
export class OpenAIAbortError extends Error {
  constructor() {
    super('Request was aborted.');
    this.name = 'AbortError';
  }
}

function errorMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error || undefined;
  const e = error as { error?: { message?: unknown }; message?: unknown } | null;
  const message = e?.error?.message ?? e?.message;
  return typeof message === 'string' ? message : undefined;
}

const RETRY_STATUSES = new Set([408, 409, 429]);
const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;

function shouldRetry(res: http.IncomingMessage): boolean {
  const header = res.headers['x-should-retry'];
  if (header === 'true') return true;
  if (header === 'false') return false;
  const status = res.statusCode ?? 0;
  return RETRY_STATUSES.has(status) || status >= 500;
}

/** How long to wait before retry number `retried + 1`: what the server asked for, else backoff. */
export function retryDelayMs(headers: http.IncomingHttpHeaders | undefined, retried: number, random = Math.random): number {
  let asked: number | undefined;
  const ms = Number.parseFloat(String(headers?.['retry-after-ms'] ?? ''));
  if (!Number.isNaN(ms)) asked = ms;
  const after = headers?.['retry-after'];
  if (asked === undefined && typeof after === 'string' && after.trim()) {
    const seconds = Number.parseFloat(after);
    asked = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  if (asked !== undefined && asked >= 0 && asked < MAX_RETRY_AFTER_MS) return asked;
  const backoff = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retried, MAX_RETRY_DELAY_MS);
  return backoff * (1 - random() * 0.25);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new OpenAIAbortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new OpenAIAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Receives the answer of one attempt, chunk by chunk (text, UTF-8 decoded); `end` gives the result. */
interface Reader<T> {
  chunk(text: string): void;
  end(): T;
}

export class OpenAIClient {
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  private readonly authorization: string;

  constructor(private readonly endpoint: OpenAIEndpoint) {
    this.base = new URL(endpoint.baseURL.endsWith('/') ? endpoint.baseURL : `${endpoint.baseURL}/`);
    const secure = this.base.protocol === 'https:';
    this.agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.request = secure ? https.request : http.request;
    this.authorization = `Bearer ${endpoint.apiKey}`;
  }

  /** POST `path` (relative to the base URL) with a JSON body; resolves to the parsed answer. */
  postJson<T>(path: string, body: Buffer, signal?: AbortSignal): Promise<T> {
    return this.withRetries('POST', path, body, signal, this.endpoint.maxRetries, this.endpoint.timeoutMs, jsonReader<T>);
  }

  /** GET `path`: the parsed answer (doctor's reachability check). */
  getJson<T>(path: string, options: { timeoutMs: number; maxRetries: number }): Promise<T> {
    return this.withRetries('GET', path, undefined, undefined, options.maxRetries, options.timeoutMs, jsonReader<T>);
  }

  /**
   * POST `path` asking for a stream: `onEvent` gets each server-sent event's parsed JSON in order,
   * until `[DONE]` or the end. An event that carries `error` ends the call with an OpenAIStatusError.
   */
  postStream(path: string, body: Buffer, onEvent: (data: unknown) => void, signal?: AbortSignal): Promise<void> {
    const reader = (): Reader<void> => {
      let done = false;
      let failure: unknown = null;
      const parser = createParser({
        onEvent(event) {
          if (done || failure) return;
          if (event.data === '[DONE]') {
            done = true;
            return;
          }
          const data = JSON.parse(event.data) as { error?: unknown } | null;
          if (data && typeof data === 'object' && data.error) failure = new OpenAIStatusError(undefined, data);
          else onEvent(data);
        },
      });
      return {
        chunk(text) {
          parser.feed(text);
          if (failure) throw failure;
        },
        end() {
          parser.reset({ consume: true });
          if (failure) throw failure;
        },
      };
    };
    return this.withRetries('POST', path, body, signal, this.endpoint.maxRetries, this.endpoint.timeoutMs, reader, 'text/event-stream');
  }

  private async withRetries<T>(
    method: string,
    path: string,
    body: Buffer | undefined,
    signal: AbortSignal | undefined,
    maxRetries: number,
    timeoutMs: number,
    reader: () => Reader<T>,
    accept?: string,
  ): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    for (let retried = 0; ; retried++) {
      const outcome = await this.attempt(method, url, body, signal, timeoutMs, reader(), accept);
      if (outcome.ok) return outcome.value;
      if (retried >= maxRetries || !outcome.retry) throw outcome.error;
      await sleep(retryDelayMs(outcome.headers, retried), signal);
    }
  }

  /**
   * One exchange. A streamed answer is handed on as it arrives, so once its first piece went out it
   * is not retried (the caller has shown it); an error status or no connection is.
   */
  private attempt<T>(
    method: string,
    url: URL,
    body: Buffer | undefined,
    signal: AbortSignal | undefined,
    timeoutMs: number,
    reader: Reader<T>,
    accept: string | undefined,
  ): Promise<{ ok: true; value: T } | { ok: false; error: Error; retry: boolean; headers?: http.IncomingHttpHeaders }> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve({ ok: false, error: new OpenAIAbortError(), retry: false });
      let settled = false;
      let started = false;
      let timer: NodeJS.Timeout | undefined;
      const headers: http.OutgoingHttpHeaders = { accept: accept ?? 'application/json', authorization: this.authorization, 'user-agent': 'switchboard' };
      if (body) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = body.length;
      }
      const req = this.request(url, { method, agent: this.agent, headers });
      const finish = (outcome: Parameters<typeof resolve>[0]) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const fail = (error: Error, retry: boolean, headers?: http.IncomingHttpHeaders) => {
        finish({ ok: false, error, retry, headers });
        req.destroy();
      };
      const onAbort = () => fail(new OpenAIAbortError(), false);
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => fail(new OpenAIConnectionError('Request timed out.', true), !started), timeoutMs);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      arm();
      req.on('error', (error) => fail(new OpenAIConnectionError(`Connection error: ${error.message}`, false, { cause: error }), !started));
      req.on('response', (res) => {
        const status = res.statusCode ?? 502;
        const stream = decoded(res);
        stream.setEncoding('utf8');
        if (status < 200 || status >= 300) {
          let text = '';
          stream.on('data', (piece: string) => (text += piece));
          stream.on('end', () => fail(new OpenAIStatusError(status, parsedOrText(text)), shouldRetry(res), res.headers));
          stream.on('error', () => fail(new OpenAIStatusError(status, parsedOrText(text)), shouldRetry(res), res.headers));
          return;
        }
        stream.on('data', (piece: string) => {
          if (settled) return;
          started = accept !== undefined;
          if (accept) arm();
          try {
            reader.chunk(piece);
          } catch (error) {
            fail(error instanceof Error ? error : new Error(String(error)), false);
          }
        });
        stream.on('end', () => {
          if (settled) return;
          try {
            finish({ ok: true, value: reader.end() });
          } catch (error) {
            fail(error instanceof Error ? error : new Error(String(error)), false);
          }
        });
        // A connection cut mid-answer ('aborted' on the response, then an error on the stream).
        stream.on('error', (error) => fail(new OpenAIConnectionError(`Connection error: ${error.message}`, false, { cause: error }), !started));
        res.on('aborted', () => fail(new OpenAIConnectionError('Connection error: the answer was cut off', false), !started));
      });
      req.end(body);
    });
  }
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function jsonReader<T>(): Reader<T> {
  let text = '';
  return {
    chunk(piece) {
      text += piece;
    },
    end() {
      return JSON.parse(text) as T;
    },
  };
}
