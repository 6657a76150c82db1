/**
 * Loopback fakes of the OpenAI Chat Completions and Anthropic Messages APIs. They record every
 * request byte, answer from a script (text, tool calls, errors, delays, cut connections), and report
 * usage with a simulated prefix cache (tokens ≈ chars / 4; cached = prefix shared with an earlier
 * request), so tests and the benchmark can measure cache hits.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  api: 'openai' | 'anthropic';
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Raw body bytes as received. */
  raw: string;
  body: Record<string, unknown>;
}

export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export type FakeReply =
  | {
      text?: string;
      toolCalls?: FakeToolCall[];
      delayMs?: number;
      /** A streamed request (`stream: true`) gets its text at this many tokens per second (default: the fake's). */
      tokensPerSecond?: number;
      /** A streamed request: the connection is cut after this many tokens. */
      cutAfterTokens?: number;
    }
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { hangup: true; delayMs?: number }
  | { malformed: true };

export type Script = (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

/** Tokens of a streamed text: each word with the white space before it (≈ what a tokenizer yields). */
export function streamTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** When the fake wrote the first and the last token of each streamed answer (epoch ms). */
export interface StreamTiming {
  /** The request it answered. */
  request: RecordedRequest;
  firstTokenAt: number;
  lastTokenAt: number;
}

export interface ModelFake {
  /** Streamed answers' token times, in order. */
  streams: StreamTiming[];
  /** Base URL for OPENAI_BASE_URL (…/v1). */
  openaiUrl: string;
  /** Base URL for ANTHROPIC_BASE_URL (no /v1). */
  anthropicUrl: string;
  requests: RecordedRequest[];
  /** The usage each answer reported, in order (what a provider bills). */
  reported: Array<{ inputTokens: number; cachedTokens: number; outputTokens: number }>;
  /** Completion requests only (not /models). */
  completions(): RecordedRequest[];
  setScript(script: Script): void;
  /** Queue replies used before the script (FIFO). */
  queue(...replies: FakeReply[]): void;
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

/** The text of the last user message of a request (OpenAI or Anthropic shape). */
export function lastUserText(req: RecordedRequest): string {
  const messages = (req.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      const texts = (m.content as Array<{ type: string; text?: string }>).filter((b) => b.type === 'text').map((b) => b.text ?? '');
      if (texts.length) return texts[0];
    }
  }
  return '';
}

/** The system prompt text of a request. */
export function systemText(req: RecordedRequest): string {
  if (req.api === 'openai') {
    const first = (req.body.messages as Array<{ role: string; content: string }>)[0];
    return first?.role === 'system' ? first.content : '';
  }
  const sys = req.body.system;
  if (typeof sys === 'string') return sys;
  return ((sys ?? []) as Array<{ text: string }>).map((b) => b.text).join('');
}

const echo: Script = (req) => ({ text: `Echo: ${lastUserText(req)}` });

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startModelFake(options: { script?: Script; tokensPerSecond?: number } = {}): Promise<ModelFake> {
  const requests: RecordedRequest[] = [];
  const reported: ModelFake['reported'] = [];
  const streams: StreamTiming[] = [];
  // Without a rate a streamed answer is written at once (tests that do not look at streaming).
  const defaultRate = options.tokensPerSecond ?? Infinity;
  const queued: FakeReply[] = [];
  let script: Script = options.script ?? echo;
  const waiters: Array<() => void> = [];
  const prefixes: string[] = [];
  let completionIndex = 0;
  let callId = 0;

  /** Simulated prefix cache: the longest prefix (in chars) shared with any earlier request's canonical text. */
  const cachedTokens = (canonical: string): number => {
    let best = 0;
    for (const p of prefixes) {
      const max = Math.min(p.length, canonical.length);
      let i = 0;
      while (i < max && p.charCodeAt(i) === canonical.charCodeAt(i)) i++;
      if (i > best) best = i;
    }
    prefixes.push(canonical);
    if (prefixes.length > 200) prefixes.shift();
    return Math.floor(best / 4);
  };

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await read(req);
    const url = req.url ?? '/';
    const api: 'openai' | 'anthropic' = url.includes('/messages') || req.headers['anthropic-version'] ? 'anthropic' : 'openai';
    if (req.method === 'GET' && url.includes('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(api === 'anthropic' ? { data: [{ id: 'fake-claude', type: 'model' }], has_more: false } : { object: 'list', data: [{ id: 'fake-model', object: 'model' }] }));
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw || '{}') as Record<string, unknown>;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'invalid JSON body', type: 'invalid_request_error' } }));
      return;
    }
    const recorded: RecordedRequest = { api, path: url, headers: req.headers, raw, body };
    requests.push(recorded);
    waiters.splice(0).forEach((w) => w());
    const index = completionIndex++;
    const reply = queued.length ? queued.shift()! : await script(recorded, index);
    if ('delayMs' in reply && reply.delayMs) await sleep(reply.delayMs);
    if ('hangup' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"cut","choices":[{"message":{"content":"half an ans');
      req.socket.destroy();
      return;
    }
    if ('malformed' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"this is": not json');
      return;
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
      res.end(reply.body ?? JSON.stringify({ error: { message: `fake error ${reply.status}`, type: 'api_error' } }));
      return;
    }
    const canonical = api === 'openai' ? JSON.stringify(body.messages) : JSON.stringify([body.system, body.messages]);
    const inputTokens = Math.ceil(canonical.length / 4);
    const cached = Math.min(cachedTokens(canonical), inputTokens);
    const text = reply.text ?? '';
    const outputTokens = Math.max(1, Math.ceil(text.length / 4));
    reported.push({ inputTokens, cachedTokens: cached, outputTokens });
    const calls = (reply.toolCalls ?? []).map((c) => ({ id: `call_${++callId}`, ...c }));
    if (body.stream === true) {
      await streamReply({ api, res, req, recorded, index, model: String(body.model ?? 'fake'), text, calls, inputTokens, cached, outputTokens, reply, streams, defaultRate });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    if (api === 'openai') {
      res.end(
        JSON.stringify({
          id: `chatcmpl-${index}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: String(body.model ?? 'fake'),
          choices: [
            {
              index: 0,
              finish_reason: calls.length ? 'tool_calls' : 'stop',
              message: {
                role: 'assistant',
                content: text || (calls.length ? null : ''),
                ...(calls.length
                  ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) }
                  : {}),
              },
            },
          ],
          usage: {
            prompt_tokens: inputTokens,
            completion_tokens: outputTokens,
            total_tokens: inputTokens + outputTokens,
            prompt_tokens_details: { cached_tokens: cached },
          },
        }),
      );
    } else {
      const content: unknown[] = [];
      if (text) content.push({ type: 'text', text });
      for (const c of calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
      res.end(
        JSON.stringify({
          id: `msg_${index}`,
          type: 'message',
          role: 'assistant',
          model: String(body.model ?? 'fake'),
          content,
          stop_reason: calls.length ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: {
            input_tokens: inputTokens - cached,
            output_tokens: outputTokens,
            cache_read_input_tokens: cached,
            cache_creation_input_tokens: 0,
          },
        }),
      );
    }
  };

  const server: Server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const completions = () => requests.filter((r) => r.path.includes('/chat/completions') || r.path.includes('/messages'));
  return {
    streams,
    openaiUrl: `http://127.0.0.1:${port}/v1`,
    anthropicUrl: `http://127.0.0.1:${port}`,
    requests,
    reported,
    completions,
    setScript(s) {
      script = s;
    },
    queue(...replies) {
      queued.push(...replies);
    },
    async waitForRequests(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (completions().length < n) {
        if (Date.now() > deadline) throw new Error(`model fake: expected ${n} requests, got ${completions().length}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
      return completions();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

interface StreamArgs {
  api: 'openai' | 'anthropic';
  res: ServerResponse;
  req: IncomingMessage;
  recorded: RecordedRequest;
  index: number;
  model: string;
  text: string;
  calls: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  inputTokens: number;
  cached: number;
  outputTokens: number;
  reply: { tokensPerSecond?: number; cutAfterTokens?: number };
  streams: StreamTiming[];
  defaultRate: number;
}

/**
 * Server-sent events as the real APIs send them: OpenAI `chat.completion.chunk`s (content deltas,
 * indexed tool call pieces, a last chunk with usage when `stream_options.include_usage`), then
 * `[DONE]`; Anthropic message_start → content_block_start/delta/stop → message_delta → message_stop.
 */
async function streamReply(a: StreamArgs): Promise<void> {
  const { res } = a;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const gap = 1000 / (a.reply.tokensPerSecond ?? a.defaultRate);
  const tokens = streamTokens(a.text);
  let closed = false;
  res.on('close', () => (closed = true));
  const openai = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const anthropic = (event: string, data: Record<string, unknown>) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  const base = { id: `chatcmpl-${a.index}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: a.model };
  const timing: StreamTiming = { request: a.recorded, firstTokenAt: 0, lastTokenAt: 0 };
  if (a.api === 'openai') openai({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  else {
    anthropic('message_start', {
      message: {
        id: `msg_${a.index}`, type: 'message', role: 'assistant', model: a.model, content: [], stop_reason: null, stop_sequence: null,
        usage: { input_tokens: a.inputTokens - a.cached, output_tokens: 1, cache_read_input_tokens: a.cached, cache_creation_input_tokens: 0 },
      },
    });
    if (tokens.length) anthropic('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  }
  for (let i = 0; i < tokens.length; i++) {
    if (closed) return;
    if (a.reply.cutAfterTokens !== undefined && i >= a.reply.cutAfterTokens) {
      a.req.socket.destroy();
      return;
    }
    if (i > 0 && gap > 0) await sleep(gap);
    if (a.api === 'openai') openai({ ...base, choices: [{ index: 0, delta: { content: tokens[i] }, finish_reason: null }] });
    else anthropic('content_block_delta', { index: 0, delta: { type: 'text_delta', text: tokens[i] } });
    const at = Date.now();
    if (i === 0) timing.firstTokenAt = at;
    timing.lastTokenAt = at;
  }
  if (tokens.length) a.streams.push(timing);
  if (a.api === 'openai') {
    a.calls.forEach((c, n) => {
      const args = JSON.stringify(c.arguments);
      const half = Math.floor(args.length / 2);
      openai({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: n, id: c.id, type: 'function', function: { name: c.name, arguments: args.slice(0, half) } }] }, finish_reason: null }] });
      openai({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: n, function: { arguments: args.slice(half) } }] }, finish_reason: null }] });
    });
    openai({ ...base, choices: [{ index: 0, delta: {}, finish_reason: a.calls.length ? 'tool_calls' : 'stop' }] });
    openai({
      ...base,
      choices: [],
      usage: { prompt_tokens: a.inputTokens, completion_tokens: a.outputTokens, total_tokens: a.inputTokens + a.outputTokens, prompt_tokens_details: { cached_tokens: a.cached } },
    });
    res.end('data: [DONE]\n\n');
    return;
  }
  let block = 0;
  if (tokens.length) anthropic('content_block_stop', { index: block++ });
  for (const c of a.calls) {
    const args = JSON.stringify(c.arguments);
    const half = Math.floor(args.length / 2);
    anthropic('content_block_start', { index: block, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
    anthropic('content_block_delta', { index: block, delta: { type: 'input_json_delta', partial_json: args.slice(0, half) } });
    anthropic('content_block_delta', { index: block, delta: { type: 'input_json_delta', partial_json: args.slice(half) } });
    anthropic('content_block_stop', { index: block++ });
  }
  anthropic('message_delta', { delta: { stop_reason: a.calls.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: a.outputTokens } });
  anthropic('message_stop', {});
  res.end();
}
