/**
 * The `fetch` the model SDK and the Telegram door (grammY) are given: one request over node:http(s)
 * with a keep-alive agent, the answer as a standard Response. Node 20's built-in fetch builds a Request, web streams for the body
 * both ways and a copy of it for a possible redirect, for every call; a model call made through it
 * cost about twice the CPU of the same call made here (bench: ~970 vs ~535 µs per streamed call).
 * The SDK keeps doing everything else (headers, retries, timeouts through the signal, SSE).
 *
 * What it does not do, unlike fetch: follow redirects (a model endpoint answers, it does not move;
 * a 3xx reaches the SDK as an error status) — bodies other than bytes or text (uploads) go to the
 * built-in fetch.
 */
import http from 'node:http';
import https from 'node:https';
import { finished, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** The keep-alive pools a fetch sends through, by URL protocol. */
export interface HttpAgents {
  'http:': http.Agent;
  'https:': https.Agent;
}

const keepAlive = (): HttpAgents => ({ 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) });

/** Statuses whose Response may not have a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(createGunzip());
  if (encoding === 'deflate') return res.pipe(createInflate());
  if (encoding === 'br') return res.pipe(createBrotliDecompress());
  return res;
}

/** A fetch over its own pools (`agents`): its owner can end their sockets (Agent.destroy) when it stops. */
export const createHttpFetch = (agents: HttpAgents = keepAlive()): typeof fetch => (input, init = {}) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const body = init.body ?? undefined;
  const agent = url.protocol === 'http:' || url.protocol === 'https:' ? agents[url.protocol] : undefined;
  if (input instanceof Request || !agent || (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array))) return fetch(input, init);
  return new Promise<Response>((resolve, reject) => {
    const headers: Record<string, string> = {};
    // The model SDK hands a Headers, grammY a plain object: read either as it is rather than copying it first.
    const given = init.headers;
    if (given instanceof Headers) given.forEach((value, name) => (headers[name] = value));
    else if (Array.isArray(given)) for (const [name, value] of given) headers[name.toLowerCase()] = value;
    else if (given) for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = String(value);
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined },
      (res) => {
        try {
          resolve(toResponse(res, init.method));
        } catch (error) {
          res.destroy();
          reject(error);
        }
      },
    );
    request.on('error', reject);
    request.end(body);
  });
};

/** The process's shared fetch (the model SDK's). */
export const httpFetch: typeof fetch = createHttpFetch();

function toResponse(res: http.IncomingMessage, method: string | undefined): Response {
  // As pairs: the Response builds its Headers from them once (a Headers given here would be copied).
  const responseHeaders: Array<[string, string]> = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
  const status = res.statusCode ?? 502;
  if (NO_BODY.has(status) || method === 'HEAD') {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage, headers: responseHeaders });
  }
  const stream = decoded(res);
  if (stream !== res) res.on('error', (error) => stream.destroy(error));
  return new Response(webStream(stream), { status, statusText: res.statusMessage, headers: responseHeaders });
}

/**
 * A Node stream as a web ReadableStream: chunks as they come, paused while the reader has not
 * taken the last one, an error (or an end before the whole body, e.g. a reset or an abort) as the
 * stream's error, a cancel destroys the source. What Readable.toWeb gives, for a fraction of its
 * set-up cost per response (it was ~15 % of a model call's CPU here).
 */
function webStream(stream: Readable): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stream.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 1) <= 0) stream.pause();
      });
      stream.once('end', () => {
        if (done) return;
        done = true;
        controller.close();
      });
      finished(stream, (error) => {
        if (done) return;
        done = true;
        controller.error(error ?? new Error('the response ended early'));
      });
    },
    pull() {
      stream.resume();
    },
    cancel(reason) {
      done = true;
      stream.destroy(reason instanceof Error ? reason : undefined);
    },
  });
}
