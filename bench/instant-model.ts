/**
 * The cheapest OpenAI-compatible chat completions server that still behaves like one: it parses the
 * request and answers at once with "Echo: <last user message>". The throughput runs use it instead of
 * test/fakes/model.ts, whose simulated prefix cache compares every request with the last 200 (a few ms
 * each), which would make the fake — not the gateway — the bottleneck. The prefix-reuse run uses the
 * recording fake.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InstantModel {
  /** Base URL for OPENAI_BASE_URL (…/v1). */
  url: string;
  calls: number;
  close(): Promise<void>;
}

interface Body {
  model?: string;
  stream?: boolean;
  messages?: Array<{ role: string; content: unknown }>;
}

export async function startInstantModel(): Promise<InstantModel> {
  const state = { calls: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"invalid JSON body"}}');
        return;
      }
      state.calls++;
      const lastUser = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
      const text = `Echo: ${typeof lastUser?.content === 'string' ? lastUser.content : ''}`;
      const id = `chatcmpl-${state.calls}`;
      const created = Math.floor(Date.now() / 1000);
      const model = body.model ?? 'fake';
      if (body.stream === true) {
        // A streamed request (the gateway streams to Telegram by default): the same answer as SSE.
        const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: Record<string, number>) =>
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(
          chunk({ role: 'assistant', content: text }, null) +
            chunk({}, 'stop') +
            chunk({}, null, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }) +
            'data: [DONE]\n\n',
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get calls() {
      return state.calls;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
