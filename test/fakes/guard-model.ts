/**
 * A loopback fake of a guard model server (`guard.model`, ARCHITECTURE.md §17): `POST /v1/classifications`
 * as a Prompt Guard style classifier server answers (`{data: [{label, score}]}`), and `POST
 * /v1/chat/completions` answering `SAFE` or `INJECTION`. Its verdict comes from `judge(text)`; it
 * records every request and can be made slow or broken.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GuardModelFake {
  url: string;
  requests: { path: string; body: Record<string, unknown>; authorization?: string }[];
  /** `ok` (default), `down` (HTTP 503), `slow` (answers after 2.5 s), `garbled` (200 with another shape). */
  mode: 'ok' | 'down' | 'slow' | 'garbled';
  close(): Promise<void>;
}

export async function startGuardModelFake(judge: (text: string) => boolean): Promise<GuardModelFake> {
  const fake = { requests: [], mode: 'ok' } as unknown as GuardModelFake;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      fake.requests.push({ path: req.url ?? '', body, authorization: req.headers.authorization });
      const answer = () => {
        if (fake.mode === 'down') return void res.writeHead(503).end('{"error":"down"}');
        res.setHeader('content-type', 'application/json');
        if (fake.mode === 'garbled') return void res.end('{"result":"maybe"}');
        if (req.url === '/v1/classifications') {
          const bad = judge(String(body.input ?? ''));
          return void res.end(JSON.stringify({ data: [{ label: bad ? 'MALICIOUS' : 'BENIGN', score: bad ? 0.97 : 0.99 }, { label: bad ? 'BENIGN' : 'MALICIOUS', score: bad ? 0.03 : 0.01 }] }));
        }
        if (req.url === '/v1/chat/completions') {
          const messages = body.messages as { content: string }[];
          const bad = judge(messages.at(-1)?.content ?? '');
          return void res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: bad ? 'INJECTION' : 'SAFE' } }] }));
        }
        res.writeHead(404).end();
      };
      if (fake.mode === 'slow') setTimeout(answer, 2500);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return fake;
}
