/**
 * Child process of bench/bespoke.ts: an OpenAI-compatible chat completions server that answers at a
 * model's pace, and a Bot API method that answers after a delay. It runs in its own process so the
 * client under test pays only for its own side of each call (process.cpuUsage counts the process).
 *
 * The pace is in the path, so one server serves every setting without state:
 *   /m/<ms to first token>/<tokens per second>/<tokens>/v1/chat/completions
 *   /t/<ms>/bot<token>/<method>   (a Bot API call: `{"ok":true,"result":{…}}` after <ms>)
 * A streamed answer sends one SSE chunk per token, then finish_reason, then usage (with cached
 * tokens, as OpenAI reports them) and [DONE]; an unstreamed one sends the same answer as one JSON.
 *
 * Protocol (IPC): sends `{ url }` once listening; exits when the parent goes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const WORD = ' token';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const usage = { prompt_tokens: 1200, completion_tokens: 50, total_tokens: 1250, prompt_tokens_details: { cached_tokens: 1024 } };

async function chat(res: ServerResponse, body: string, ttftMs: number, tps: number, tokens: number): Promise<void> {
  const request = JSON.parse(body) as { model?: string; stream?: boolean };
  const model = request.model ?? 'paced';
  const head = { id: 'chatcmpl-paced', created: Math.floor(Date.now() / 1000), model };
  const gap = tps > 0 ? 1000 / tps : 0;
  await delay(ttftMs);
  if (request.stream !== true) {
    await delay(gap * tokens);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ ...head, object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: WORD.repeat(tokens) } }], usage: { ...usage, completion_tokens: tokens } }),
    );
    return;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (let i = 0; i < tokens; i++) {
    if (i > 0 && gap > 0) await delay(gap);
    if (res.destroyed) return;
    res.write(chunk([{ index: 0, delta: i === 0 ? { role: 'assistant', content: WORD } : { content: WORD }, finish_reason: null }]));
  }
  res.end(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]) + chunk([], { usage: { ...usage, completion_tokens: tokens } }) + 'data: [DONE]\n\n');
}

const delay = (ms: number): Promise<void> => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

const server = createServer((req, res) => {
  void (async () => {
    const body = await readBody(req);
    const path = req.url ?? '';
    const m = /^\/m\/(\d+)\/(\d+)\/(\d+)\/v1\/chat\/completions$/.exec(path);
    if (m) return chat(res, body, Number(m[1]), Number(m[2]), Number(m[3]));
    const t = /^\/t\/(\d+)\/bot[^/]+\/(\w+)$/.exec(path);
    if (t) {
      await delay(Number(t[1]));
      const result = { message_id: 1, date: Math.floor(Date.now() / 1000), chat: { id: 1, type: 'private' }, text: 'ok' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
  })().catch(() => res.destroy());
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ url: `http://127.0.0.1:${port}` });
});
process.on('disconnect', () => process.exit(0));
