/**
 * The fetch the Telegram door runs on (http-fetch.ts): what it answers must be what the built-in fetch
 * answers for the same exchange — status, headers, body (also compressed), a refused connection and
 * an abort as rejections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createHttpFetch } from '../../src/core/http-fetch.js';

const httpFetch = createHttpFetch();

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/echo') res.writeHead(201, { 'x-seen': `${req.method} ${req.headers['content-type']}` }).end(`got ${body}`);
      else if (req.url === '/gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"ok":true}'));
      else if (req.url === '/empty') res.writeHead(204).end();
      else if (req.url === '/pieces') {
        // 200 pieces of 64 KiB, written as the socket takes them: the reader gets them all, in order.
        res.writeHead(200);
        let i = 0;
        const more = (): void => {
          while (i < 200) if (!res.write(Buffer.alloc(65536, i++ % 256))) return void res.once('drain', more);
          res.end();
        };
        more();
      } else if (req.url === '/cut') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('half of it');
        setTimeout(() => res.socket?.destroy(), 20).unref();
      } else if (req.url === '/slow') setTimeout(() => res.end('late'), 2000).unref();
      else res.writeHead(404).end('no');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('httpFetch', () => {
  it('answers as the built-in fetch does', async () => {
    for (const f of [httpFetch, fetch]) {
      const res = await f(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"a":1}') });
      expect([res.status, res.headers.get('x-seen'), await res.text()]).toEqual([201, 'POST application/json', 'got {"a":1}']);
      expect(await (await f(`${base}/gzip`)).json()).toEqual({ ok: true });
      const empty = await f(`${base}/empty`);
      expect([empty.status, empty.body === null || (await empty.text()) === '']).toEqual([204, true]);
      expect((await f(`${base}/missing`)).status).toBe(404);
    }
  });

  it('reads a body once by every Response method, as the built-in fetch does', async () => {
    const seen = [];
    for (const f of [httpFetch, fetch]) {
      const url = `${base}/echo`;
      const post = (body: string) => f(url, { method: 'POST', headers: [['Content-Type', 'text/plain']], body });
      const a = await post('{"x":"é"}');
      const text = await a.text();
      const used = a.bodyUsed;
      const again = await a.json().then(() => 'read twice', (e: Error) => e.constructor.name);
      const b = await post('b');
      const bytes = Buffer.from(await b.arrayBuffer()).toString('utf8');
      const blob = await (await post('c')).blob();
      const reader = (await post('d')).body!.getReader();
      let streamed = '';
      for (let r = await reader.read(); !r.done; r = await reader.read()) streamed += Buffer.from(r.value).toString('utf8');
      const taken = await post('f');
      const takenReader = taken.body!.getReader();
      const lockedThenUsed = [(await takenReader.read()).done === false, taken.bodyUsed];
      const viaBody = await post('g');
      void viaBody.body;
      const afterBody = await viaBody.text();
      const original = await post('e');
      const copy = original.clone();
      const both = [await original.text(), await copy.text()];
      seen.push({ text, used, again, lockedThenUsed, afterBody, bytes, blob: [await blob.text(), blob.type], streamed, both, ok: a.ok, url: a.url, type: a.type, header: a.headers.get('X-Seen') });
    }
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]).toMatchObject({ text: 'got {"x":"é"}', used: true, lockedThenUsed: [true, true], afterBody: 'got g', again: 'TypeError', bytes: 'got b', streamed: 'got d', both: ['got e', 'got e'], header: 'POST text/plain' });
  });

  it('streams a long body whole and in order, and fails the body of a cut response as fetch does', async () => {
    for (const f of [httpFetch, fetch]) {
      const body = Buffer.from(await (await f(`${base}/pieces`)).arrayBuffer());
      expect(body.length).toBe(200 * 65536);
      expect([body[0], body[65536 * 7], body[65536 * 199 + 5]]).toEqual([0, 7, 199]);
      const cut = await f(`${base}/cut`);
      expect(cut.status).toBe(200);
      await expect(cut.text()).rejects.toThrow();
    }
  });

  it('a body read with for await (a streamed answer) answers as the built-in fetch does', async () => {
    const seen = [];
    for (const f of [httpFetch, fetch]) {
      const whole = await f(`${base}/pieces`);
      const body = whole.body!;
      let bytes = 0;
      let first = -1;
      let last = -1;
      let lockedWhile = false;
      for await (const chunk of body) {
        if (first < 0) first = chunk[0];
        last = chunk[chunk.length - 1];
        bytes += chunk.length;
        lockedWhile ||= body.locked;
      }
      const afterAll = [whole.bodyUsed, await whole.text().then(() => 'read again', (e: Error) => e.constructor.name)];
      const broken = await f(`${base}/pieces`);
      for await (const chunk of broken.body!) if (chunk.length) break; // a break cancels the rest
      const afterBreak = await broken.text().then(() => 'read again', (e: Error) => e.constructor.name);
      const cut = await f(`${base}/cut`);
      const cutBody = await (async () => {
        let text = '';
        for await (const chunk of cut.body!) text += Buffer.from(chunk).toString('utf8');
        return text;
      })().then(() => 'whole', (e: Error) => `failed after ${e instanceof Error ? 'an error' : 'something else'}`);
      const gz = await f(`${base}/gzip`);
      let unzipped = '';
      for await (const chunk of gz.body!) unzipped += Buffer.from(chunk).toString('utf8');
      const cancelled = await f(`${base}/pieces`);
      await cancelled.body!.cancel();
      let afterCancel = 0;
      for await (const chunk of cancelled.body!) afterCancel += chunk.length;
      seen.push({ bytes, first, last, lockedWhile, afterAll, afterBreak, cutBody, unzipped, afterCancel });
    }
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]).toEqual({ bytes: 200 * 65536, first: 0, last: 199, lockedWhile: true, afterAll: [true, 'TypeError'], afterBreak: 'TypeError', cutBody: 'failed after an error', unzipped: '{"ok":true}', afterCancel: 0 });
  });

  it('rejects on an abort and on a refused connection', async () => {
    await expect(httpFetch(`${base}/slow`, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: expect.stringMatching(/Abort|Timeout/) });
    await expect(httpFetch('http://127.0.0.1:1/')).rejects.toThrow();
  });
});
