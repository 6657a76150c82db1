/**
 * The `fetch` the Telegram door (grammY) is given: one request over node:http(s) with a keep-alive
 * agent, the answer as a Response read straight from the Node stream (node-response.ts). Node 20's
 * built-in fetch builds a Request, web streams for the body both ways and a copy of it for a
 * possible redirect, for every call; a call made through it cost about twice the CPU of the same
 * call made here (bench: ~970 vs ~535 µs per streamed model call, when the model SDK still ran on it).
 *
 * What it does not do, unlike fetch: follow redirects (the Bot API answers, it does not move; a 3xx
 * reaches grammY as an error status) — bodies other than bytes or text (uploads) go to the built-in
 * fetch.
 */
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { NodeResponse } from './node-response.js';

/** The keep-alive pools a fetch sends through, by URL protocol. */
export interface HttpAgents {
  'http:': http.Agent;
  'https:': https.Agent;
}

const keepAlive = (): HttpAgents => ({ 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) });

/** Statuses whose Response may not have a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** The body of `res` as sent, whatever `content-encoding` it came in; an error of `res` (a reset) is the stream's. */
export function decoded(res: http.IncomingMessage): Readable {
  const stream = decompressed(res);
  if (stream !== res) res.on('error', (error) => stream.destroy(error));
  return stream;
}

function decompressed(res: http.IncomingMessage): Readable {
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
    // grammY hands a plain object; a Headers or pairs are read as they are rather than copied first.
    const given = init.headers;
    if (given instanceof Headers) given.forEach((value, name) => (headers[name] = value));
    else if (Array.isArray(given)) for (const [name, value] of given) headers[name.toLowerCase()] = value;
    else if (given) for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = String(value);
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined },
      (res) => {
        try {
          resolve(toResponse(res, init.method, url.href));
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

function toResponse(res: http.IncomingMessage, method: string | undefined, url: string): Response {
  // As pairs: Headers are built from them only when someone reads them (grammY never does).
  const headers: Array<[string, string]> = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
  const status = res.statusCode ?? 502;
  const init = { status, statusText: res.statusMessage ?? '', headers, url };
  if (NO_BODY.has(status) || method === 'HEAD') {
    res.resume();
    return new NodeResponse(null, init);
  }
  return new NodeResponse(decoded(res), init);
}
