import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { McpHub } from '../../src/mcp/hub.js';
import { mcpServersSchema } from '../../src/core/mcp-config.js';
import { TurnTaint } from '../../src/core/taint.js';
import type { Logger } from '../../src/core/logger.js';
import type { OutboundFile, Tool, ToolContext } from '../../src/core/tools/types.js';
import { freePort } from '../helpers/ports.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FIXTURE = fileURLToPath(new URL('../fixtures/mcp/fixture-server.mjs', import.meta.url));

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (scope: string, message: string) => lines.push(`${level} ${scope}: ${message}`);
  return { lines, debug: () => undefined, info: log('info'), warn: log('warn'), error: log('error') };
}

function ctxFor(extra: Partial<ToolContext> = {}): ToolContext {
  return { signal: new AbortController().signal, taint: new TurnTaint(), ...extra } as ToolContext;
}

const hubs: McpHub[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

function hub(servers: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, logger = recordingLogger()): { hub: McpHub; logger: typeof logger } {
  const h = new McpHub({ servers: mcpServersSchema.parse(servers), logger, env: { PATH: process.env.PATH, ...env }, reserved: ['web_fetch'], backoffMs: () => 200 });
  hubs.push(h);
  return { hub: h, logger };
}

const tool = (h: McpHub, name: string): Tool => {
  const found = h.current().find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in ${h.current().map((t) => t.name).join(', ')}`);
  return found;
};

// One hub for most cases, so the servers start once, side by side: server-everything (stdio), the
// fixture server twice (one to crash), one that exits before speaking MCP and one that never answers.
let shared: { hub: McpHub; logger: ReturnType<typeof recordingLogger>; startMs: number };
beforeAll(async () => {
  const logger = recordingLogger();
  const h = new McpHub({
    servers: mcpServersSchema.parse({
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], start_timeout_seconds: 90, read_only: ['echo'], approve: ['get-sum'] },
      fx: { command: process.execPath, args: [FIXTURE, 'ok'], start_timeout_seconds: 90, max_result_chars: 1000, call_timeout_seconds: 3, tools: ['add', 'odd', 'big', 'wait'] },
      fx2: { command: process.execPath, args: [FIXTURE, 'ok'], start_timeout_seconds: 90, tools: ['add', 'crash'] },
      broken: { command: process.execPath, args: [FIXTURE, 'exit'] },
      mute: { command: process.execPath, args: [FIXTURE, 'mute'], start_timeout_seconds: 1 },
    }),
    logger,
    env: { PATH: process.env.PATH },
    reserved: ['web_fetch'],
    backoffMs: () => 300,
  });
  const began = Date.now();
  await h.start();
  shared = { hub: h, logger, startMs: Date.now() - began };
}, 120_000);
afterAll(() => shared?.hub.close());

describe('MCP servers from npm', () => {
  it('server-everything over stdio: tools named <server>__<tool>, text results, an image through ctx.attach, the turn tainted', async () => {
    const h = shared.hub;
    const names = h.current().map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).toEqual([...names].sort());
    const echo = tool(h, 'everything__echo');
    expect(echo).toMatchObject({ actsOutside: false, untrustedResult: true, needsApproval: false });
    expect(tool(h, 'everything__get-sum')).toMatchObject({ actsOutside: true, needsApproval: true });
    expect(echo.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    const ctx = ctxFor();
    expect(await echo.run({ message: 'hello there' }, ctx)).toBe('Echo: hello there');
    expect(ctx.taint?.list()).toEqual([{ kind: 'tool_result', source: 'everything__echo' }]);

    const sent: OutboundFile[] = [];
    const image = await tool(h, 'everything__get-tiny-image').run({}, ctxFor({ attach: async (f) => void sent.push(f) }));
    expect(sent).toHaveLength(1);
    expect(Buffer.from(sent[0].data).subarray(1, 4).toString()).toBe('PNG');
    expect(sent[0]).toMatchObject({ mime: 'image/png', name: 'everything__get-tiny-image-2.png' });
    expect(image).toContain('[image (image/png, ');
    expect(image).toContain('sent to the chat as everything__get-tiny-image-2.png]');
    const described = await tool(h, 'everything__get-tiny-image').run({}, ctxFor());
    expect(described).toMatch(/\[image \(image\/png, [\d.]+ KB\): not shown/);
    expect(h.status().find((s) => s.name === 'everything')).toEqual(expect.objectContaining({ state: 'ready', transport: 'stdio', tools: expect.arrayContaining(['everything__echo']) }));
  });

  it('server-everything over Streamable HTTP, with a header from ${VAR}', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let said = '';
      child.stderr?.on('data', (d: Buffer) => {
        said += d.toString();
        if (said.includes('listening')) resolve();
      });
      child.on('exit', () => reject(new Error(`server-everything exited: ${said}`)));
    });
    const { hub: h } = hub({ remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer ${REMOTE_TOKEN}' }, start_timeout_seconds: 90, tools: ['echo', 'get-sum'] } }, { REMOTE_TOKEN: 't0k' });
    await h.start();
    expect(h.current().map((t) => t.name)).toEqual(['remote__echo', 'remote__get-sum']);
    expect(h.status()[0]).toMatchObject({ state: 'ready', transport: 'http' });
    expect(await tool(h, 'remote__get-sum').run({ a: 2, b: 40 }, ctxFor())).toContain('42');
  }, 120_000);

  it('server-everything in its older HTTP+SSE mode: the Streamable HTTP POST is refused, SSE is used', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, 'sse'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let said = '';
      const hear = (d: Buffer) => {
        said += d.toString();
        if (/listening|running/i.test(said)) resolve();
      };
      child.stderr?.on('data', hear);
      child.stdout?.on('data', hear);
      child.on('exit', () => reject(new Error(`server-everything exited: ${said}`)));
    });
    const { hub: h } = hub({ old: { url: `http://127.0.0.1:${port}/sse`, tools: ['echo'], start_timeout_seconds: 90 } });
    await h.start();
    expect(h.status()[0]).toMatchObject({ state: 'ready', transport: 'sse', tools: ['old__echo'] });
    expect(await tool(h, 'old__echo').run({ message: 'via sse' }, ctxFor())).toBe('Echo: via sse');
  }, 120_000);

  it('an unset ${VAR} is one line naming the variable and the setting', () => {
    expect(() => hub({ crm: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${CRM_TOKEN}' } } })).toThrow(
      "'mcp_servers.crm.headers.Authorization' uses ${CRM_TOKEN}, but CRM_TOKEN is not set in the environment",
    );
  });
});

describe('MCP servers that fail', () => {
  it('one that fails to start is one log line, however often it is retried; its tools are absent and the others work', async () => {
    const h = shared.hub;
    expect(h.current().some((t) => t.name.startsWith('broken__'))).toBe(false);
    expect(await tool(h, 'fx__add').run({ a: 1, b: 2 }, ctxFor())).toBe('sum=3');
    await new Promise((r) => setTimeout(r, 700)); // a retry or two
    expect(h.status().find((s) => s.name === 'broken')!.restarts).toBeGreaterThan(0);
    const broken = shared.logger.lines.filter((l) => l.includes("'broken'"));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(/^warn mcp: server 'broken' failed to start: .*cannot open the database.*; its tools are absent; retrying in 300 ms$/);
    expect(h.status().find((s) => s.name === 'broken')).toMatchObject({ state: expect.stringMatching(/failed|restarting/), tools: [] });
  });

  it('one that hangs at start lets the start go on after its start timeout, without its tools', () => {
    expect(shared.hub.current().some((t) => t.name.startsWith('mute__'))).toBe(false);
    expect(shared.hub.status().find((s) => s.name === 'mute')?.state).not.toBe('ready');
    expect(shared.logger.lines.filter((l) => l.includes("'mute'"))).toEqual([expect.stringMatching(/^warn mcp: server 'mute' failed to start: .*timed out.*; its tools are absent; retrying in 300 ms$/)]);
  });

  it('a call that hangs times out and the model is told', async () => {
    const t0 = Date.now();
    await expect(tool(shared.hub, 'fx__wait').run({}, ctxFor())).rejects.toThrow("the MCP server 'fx' did not answer within 3 s");
    expect(Date.now() - t0).toBeLessThan(8000);
  });

  it('one that dies mid-call answers "unavailable", says so in one line, and is back after its backoff', async () => {
    const h = shared.hub;
    await expect(tool(h, 'fx2__crash').run({}, ctxFor())).rejects.toThrow(/the MCP server 'fx2' (stopped during the call|is unavailable)/);
    await expect(tool(h, 'fx2__add').run({ a: 1, b: 1 }, ctxFor())).rejects.toThrow(/unavailable right now/);
    expect(shared.logger.lines.filter((l) => l.includes("'fx2'"))).toEqual(["warn mcp: server 'fx2' stopped; its tools answer \"unavailable\"; retrying in 300 ms"]);
    const deadline = Date.now() + 10_000;
    while (h.status().find((s) => s.name === 'fx2')!.state !== 'ready' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await tool(h, 'fx2__add').run({ a: 1, b: 1 }, ctxFor())).toBe('sum=2');
    expect(h.status().find((s) => s.name === 'fx2')!.restarts).toBe(1);
  }, 60_000);
});

describe('MCP tool shape', () => {
  it('schemas providers refuse at the top level are made an object; $schema dropped; results cut at the limit', async () => {
    const h = shared.hub;
    expect(h.current().filter((t) => t.name.startsWith('fx__')).map((t) => t.name)).toEqual(['fx__add', 'fx__big', 'fx__odd', 'fx__wait']);
    expect(tool(h, 'fx__add').parameters).toEqual({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(tool(h, 'fx__odd').parameters).toEqual({ type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } });
    const big = await tool(h, 'fx__big').run({ n: 5000 }, ctxFor());
    expect(big).toBe(`${'x'.repeat(1000)}\n[cut: the result had 5000 characters; only the first 1000 are shown]`);
  });
});
