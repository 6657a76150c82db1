import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpHub } from '../../src/mcp/hub.js';
import { configHash } from '../../src/mcp/tool-cache.js';
import { mcpServersSchema } from '../../src/core/mcp-config.js';
import { TurnTaint } from '../../src/core/taint.js';
import type { Logger } from '../../src/core/logger.js';
import type { Tool, ToolContext } from '../../src/core/tools/types.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mcp/fixture-server.mjs', import.meta.url));
const SLOW_MS = 1000;

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (scope: string, message: string) => lines.push(`${level} ${scope}: ${message}`);
  return { lines, debug: () => undefined, info: log('info'), warn: log('warn'), error: log('error') };
}

const ctx = () => ({ signal: new AbortController().signal, taint: new TurnTaint() }) as ToolContext;
const dirs: string[] = [];
const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const config = (extra: Record<string, unknown> = {}) =>
  mcpServersSchema.parse({ fx: { command: process.execPath, args: [FIXTURE, 'ok', String(SLOW_MS)], start_timeout_seconds: 30, tools: ['add', 'odd'], ...extra } });

function hub(cacheFile: string, servers = config(), logger = recordingLogger()): McpHub {
  const h = new McpHub({ servers, logger, env: { PATH: process.env.PATH }, cacheFile, backoffMs: () => 60_000 });
  hubs.push(h);
  return h;
}

const named = (tools: readonly Tool[], name: string): Tool => {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return found;
};

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function tempCache(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-mcp-cache-'));
  dirs.push(dir);
  return join(dir, 'mcp-tools.json');
}

describe("MCP tool lists kept across restarts (SWITCHBOARD_HOME/mcp-tools.json)", () => {
  it('first start waits for the server; a restart offers its tools at once and a call waits for the server to come up', async () => {
    const file = tempCache();
    const cold = hub(file);
    expect(cold.current()).toEqual([]);
    let began = Date.now();
    await cold.start();
    expect(Date.now() - began).toBeGreaterThanOrEqual(SLOW_MS - 100);
    expect(cold.current().map((t) => t.name)).toEqual(['fx__add', 'fx__odd']);
    await cold.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).servers.fx.tools.map((t: { name: string }) => t.name)).toEqual(['add', 'odd']);

    const warm = hub(file);
    const first = warm.current();
    expect(first.map((t) => t.name)).toEqual(['fx__add', 'fx__odd']);
    began = Date.now();
    warm.begin();
    await warm.settled();
    expect(Date.now() - began).toBeLessThan(200);
    expect(warm.status()[0].state).toBe('starting');
    // The call is made before the server is up: it waits for it rather than answering "unavailable".
    expect(await named(first, 'fx__add').run({ a: 2, b: 3 }, ctx())).toBe('sum=5');
    expect(Date.now() - began).toBeGreaterThanOrEqual(SLOW_MS - 300);
    // Its live list is the kept one: the same array, so a session started now sends the same bytes.
    expect(warm.current()).toBe(first);
  }, 30_000);

  it('a changed config does not use the kept list; a kept list the server no longer gives is replaced from the next session only', async () => {
    const file = tempCache();
    const servers = config();
    const add = { name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object' as const, properties: { a: { type: 'number' }, b: { type: 'number' } } } };
    const gone = { name: 'gone', description: 'Removed from the server since', inputSchema: { type: 'object' as const, properties: {} } };
    writeFileSync(file, JSON.stringify({ version: 1, servers: { fx: { hash: configHash(servers.fx), tools: [add, gone] } } }));

    expect(hub(file, config({ args: [FIXTURE, 'ok', '1'] })).current()).toEqual([]);

    const h = hub(file, servers);
    const pinned = h.current();
    expect(pinned.map((t) => t.name)).toEqual(['fx__add', 'fx__gone']);
    h.begin();
    await h.settled();
    // A call starts the kept server at once (else it starts a few seconds after the gateway).
    expect(await named(pinned, 'fx__add').run({ a: 1, b: 1 }, ctx())).toBe('sum=2');
    await until(() => h.current() !== pinned);
    expect(h.current().map((t) => t.name)).toEqual(['fx__add', 'fx__odd']);
    // What a session pinned stays as it was: the change shows from the next session (the cache rule).
    expect(pinned.map((t) => t.name)).toEqual(['fx__add', 'fx__gone']);
    await h.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).servers.fx.tools.map((t: { name: string }) => t.name)).toEqual(['add', 'odd']);
  }, 30_000);

  it('a kept server that does not come up answers "unavailable" after the call timeout; a damaged file is one line', async () => {
    const file = tempCache();
    const servers = mcpServersSchema.parse({ mute: { command: process.execPath, args: [FIXTURE, 'mute'], start_timeout_seconds: 30, call_timeout_seconds: 1 } });
    const wait = { name: 'wait', description: 'Waits', inputSchema: { type: 'object' as const, properties: {} } };
    writeFileSync(file, JSON.stringify({ version: 1, servers: { mute: { hash: configHash(servers.mute), tools: [wait] } } }));
    const h = hub(file, servers);
    h.begin();
    await h.settled();
    const began = Date.now();
    await expect(named(h.current(), 'mute__wait').run({}, ctx())).rejects.toThrow("the MCP server 'mute' is unavailable right now (not up after 1 s); try again later");
    expect(Date.now() - began).toBeGreaterThanOrEqual(950);

    writeFileSync(file, '{"version": 1, "servers": {"mute": 3}}');
    const logger = recordingLogger();
    expect(hub(file, servers, logger).current()).toEqual([]);
    expect(logger.lines).toEqual([`warn mcp: ${file} could not be read; the MCP servers' tool lists are read from the servers`]);
  }, 30_000);
});
