import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http, { type ClientRequest, type RequestOptions, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebFetchTool, type ResolvedAddress, type WebFetchOptions } from '../../../src/core/tools/web-fetch.js';
import { TurnTaint } from '../../../src/core/taint.js';
import type { ToolContext } from '../../../src/core/tools/types.js';

/** A loopback server that counts connections (not only requests): a refused fetch must open none. */
interface Counted {
  server: Server;
  port: number;
  connections: number;
  requests: string[];
}

async function serve(host: string, handler: http.RequestListener): Promise<Counted> {
  const counted: Counted = { server: http.createServer((req, res) => (counted.requests.push(req.url ?? ''), handler(req, res))), port: 0, connections: 0, requests: [] };
  counted.server.on('connection', () => counted.connections++);
  await new Promise<void>((resolve) => counted.server.listen(0, host, resolve));
  counted.port = (counted.server.address() as AddressInfo).port;
  return counted;
}

const PAGE = '<!doctype html><html><head><title>T</title><style>p{color:red}</style><script>alert(1)</script></head><body><h1>Hello</h1><p>Readable <b>text</b> here.</p><img src="x.png" alt="pic"></body></html>';

let v4: Counted;
let v6: Counted | null = null;
let redirector: Counted;
beforeAll(async () => {
  v4 = await serve('127.0.0.1', (req, res) => {
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/big') return res.writeHead(200, { 'content-type': 'text/plain' }).end('y'.repeat(100_000));
    if (req.url === '/slow') return; // never answers
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  try {
    v6 = await serve('::1', (_req, res) => res.end('secret v6'));
  } catch {
    v6 = null; // no IPv6 loopback on this machine
  }
  redirector = await serve('127.0.0.1', (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${v4.port}/secret` }).end());
});
afterAll(async () => {
  for (const s of [v4, v6, redirector]) s?.server.close();
});

function ctx(): ToolContext & { taint: TurnTaint } {
  return { signal: new AbortController().signal, taint: new TurnTaint() } as ToolContext & { taint: TurnTaint };
}

const run = (url: string, options: WebFetchOptions = {}, c = ctx()) => createWebFetchTool(options).run({ url }, c);

describe('web_fetch: what is fetched', () => {
  it('gives a page as readable text (no script, style or image) and taints the turn (loopback allowed only by the test option)', async () => {
    const c = ctx();
    const text = await run(`http://127.0.0.1:${v4.port}/page`, { allowLoopback: true }, c);
    expect(text).toContain('HELLO');
    expect(text).toContain('Readable text here.');
    expect(text).not.toMatch(/alert|color:red|x\.png/);
    expect(c.taint.list()).toEqual([{ kind: 'web_page', source: `http://127.0.0.1:${v4.port}/page` }]);
  });

  it('keeps to its redirect, size and time limits', async () => {
    expect(await run(`http://127.0.0.1:${v4.port}/loop`, { allowLoopback: true })).toBe('Error: more than 5 redirects');
    const big = await run(`http://127.0.0.1:${v4.port}/big`, { allowLoopback: true, maxBytes: 1000, maxChars: 500 });
    expect(big).toBe(`${'y'.repeat(500)}\n[cut at 500 characters; only the first 1000 bytes were read]`);
    const began = Date.now();
    expect(await run(`http://127.0.0.1:${v4.port}/slow`, { allowLoopback: true, timeoutMs: 300 })).toBe(`Error: http://127.0.0.1:${v4.port}/slow did not answer within 300 ms`);
    expect(Date.now() - began).toBeLessThan(3000);
  });
});

describe('web_fetch: refused before a byte is sent (loopback refused, as in production)', () => {
  it('127.0.0.1, [::1] and a name that resolves to loopback (localhost)', async () => {
    const before = v4.connections;
    expect(await run(`http://127.0.0.1:${v4.port}/`)).toMatch(/^Error: refused: 127\.0\.0\.1 is not a public address/);
    expect(await run(`http://localhost:${v4.port}/`)).toMatch(/^Error: refused: localhost resolves to (127\.0\.0\.1|::1) is not a public address/);
    if (v6) expect(await run(`http://[::1]:${v6.port}/`)).toMatch(/^Error: refused: ::1 is not a public address/);
    expect(await run(`http://[::ffff:127.0.0.1]:${v4.port}/`)).toMatch(/^Error: refused: 127\.0\.0\.1 is not a public address/);
    expect(v4.connections).toBe(before);
    expect(v6?.connections ?? 0).toBe(0);
  });

  it('a public-looking URL (resolver stubbed to a public address) that redirects to loopback', async () => {
    const before = v4.connections;
    const resolved: string[] = [];
    const options: WebFetchOptions = {
      resolve: async (host) => (resolved.push(host), [{ address: '93.184.216.34', family: 4 }]),
      // The "public" host is played by a loopback server the test started: nothing leaves this machine.
      request: (url, opts) => {
        expect(url.hostname).toBe('news.example.com');
        return http.request({ ...opts, host: '127.0.0.1', port: redirector.port, path: url.pathname, lookup: undefined });
      },
    };
    expect(await run('http://news.example.com/story', options)).toMatch(/^Error: refused: 127\.0\.0\.1 is not a public address/);
    expect(resolved).toEqual(['news.example.com']);
    expect(redirector.requests).toEqual(['/story']);
    expect(v4.connections).toBe(before);
    expect(v4.requests).not.toContain('/secret');
  });
});

describe('web_fetch: the address decision (resolver and connection stubbed; no packet leaves this machine)', () => {
  function stubbed(addresses: ResolvedAddress[]): { options: WebFetchOptions; opened: RequestOptions[] } {
    const opened: RequestOptions[] = [];
    return {
      opened,
      options: {
        resolve: async () => addresses,
        request: (_url, opts) => {
          opened.push(opts);
          throw new Error('no connection may be opened');
        },
      },
    };
  }

  it.each([
    ['10.0.0.1', 4],
    ['169.254.169.254', 4],
    ['fd00::1', 6],
    ['100.64.0.1', 4],
    ['fe80::1', 6],
    ['::', 6],
    ['0.0.0.0', 4],
    ['224.0.0.1', 4],
    ['::ffff:10.0.0.1', 6],
  ])('a name resolving to %s is refused', async (address, family) => {
    const { options, opened } = stubbed([{ address, family }]);
    expect(await run('https://innocent.example.org/x', options)).toMatch(/^Error: refused: innocent\.example\.org resolves to .* is not a public address/);
    expect(opened).toEqual([]);
  });

  it('a name with one public and one private address is refused whole; metadata as a literal without asking DNS', async () => {
    const mixed = stubbed([{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }]);
    expect(await run('http://mixed.example.org/', mixed.options)).toMatch(/resolves to 10\.1\.2\.3/);
    const literal = stubbed([]);
    expect(await run('http://169.254.169.254/latest/meta-data/', { ...literal.options, resolve: async () => expect.fail('DNS was asked') })).toMatch(/^Error: refused: 169\.254\.169\.254/);
    expect([...mixed.opened, ...literal.opened]).toEqual([]);
  });

  it('the connection goes to the vetted address: the request\'s lookup answers it, whatever DNS says later', async () => {
    let calls = 0;
    let lookedUp: string | undefined;
    const options: WebFetchOptions = {
      resolve: async () => (calls++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
      request: (_url, opts) => {
        (opts.lookup as (h: string, o: object, cb: (e: null, a: string, f: number) => void) => void)('rebind.example.org', {}, (_e, a) => (lookedUp = a));
        const req = new http.ClientRequest({ host: '127.0.0.1', port: 9, lookup: () => undefined } as unknown as RequestOptions) as ClientRequest;
        setImmediate(() => req.destroy(new Error('stubbed connection')));
        return req;
      },
    };
    await expect(run('http://rebind.example.org/', options)).rejects.toThrow('stubbed connection');
    expect(calls).toBe(1);
    expect(lookedUp).toBe('93.184.216.34');
  });

  it('only http and https', async () => {
    expect(await run('file:///etc/passwd')).toBe('Error: only http and https URLs can be fetched, not file:');
  });
});
