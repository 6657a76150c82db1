/**
 * Section `mcp` (ARCHITECTURE.md §16): what the MCP client costs the gateway.
 * - A stdio tool call through the agent's Tool (`<server>__<tool>`.run: the SDK client, the pipe, the
 *   result made text), against the smallest server (bench/mcp-server.mjs, no SDK): the gateway's own
 *   time is the round trip minus the time the server reports spending on the call. Goal p95 ≤ 5 ms.
 * - 20 servers with 10 tools each (200 tools): the time the gateway's start adds (it spawns them and
 *   goes on; the first session waits for their tools), the time until all listed their tools, and the resident memory the hub and its 200 tools add to the gateway process — the servers' own
 *   processes are not counted. Goals ≤ 1 s / ≤ 30 MB.
 */
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { McpHub } from '../src/mcp/hub.js';
import { mcpServersSchema } from '../src/core/mcp-config.js';
import { silentLogger } from '../src/core/logger.js';
import { ToolRegistry } from '../src/core/tools/registry.js';
import { TurnTaint } from '../src/core/taint.js';
import type { ToolContext } from '../src/core/tools/types.js';
import { percentile, round } from './util.js';

const SERVER = fileURLToPath(new URL('./mcp-server.mjs', import.meta.url));
const CALLS = 1000;
const WARM_UP = 100;

export interface McpBench {
  calls: number;
  /** Round trip of a call through the Tool, ms. */
  totalP50Ms: number;
  totalP95Ms: number;
  /** The same minus the server's own reported time, ms. */
  gatewayP50Ms: number;
  gatewayP95Ms: number;
  /** CPU time of the gateway process per call (what it does itself, whatever else runs on the machine), ms. */
  gatewayCpuPerCallMs: number;
  /** The machine's 1-minute load average when the calls ran (wall-clock figures rise with it). */
  loadAverage: number;
  servers: number;
  tools: number;
  /** What the gateway's start waits for: hub.begin() spawning 20 servers (it does not wait for their tools), ms. */
  startMs: number;
  /** Until all 20 listed their tools (what the first session waits for; the servers' own start included), ms. */
  allReadyMs: number;
  /** CPU time of the gateway process during that start, ms. */
  startCpuMs: number;
  /** Resident memory the started hub with its tools adds to the gateway process, MiB. */
  addedRssMiB: number;
}

const servers = (count: number, tools: number) =>
  mcpServersSchema.parse(Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${String(i + 1).padStart(2, '0')}`, { command: process.execPath, args: [SERVER, String(tools)], read_only: ['t1'], start_timeout_seconds: 60 }])));

const gc = (globalThis as { gc?: () => void }).gc;

function rssMiB(): number {
  gc?.();
  return process.memoryUsage().rss / 1024 / 1024;
}

export async function benchMcp(log: (line: string) => void = () => undefined): Promise<McpBench> {
  // Memory and start first, in a process that has done nothing else yet.
  const before = rssMiB();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const many = new McpHub({ servers: servers(20, 10), logger: silentLogger, env: { PATH: process.env.PATH } });
  many.begin();
  const startMs = performance.now() - t0;
  await many.settled();
  const allReadyMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const tools = many.current();
  ToolRegistry.specs(tools); // the specs a turn sends, made once
  ToolRegistry.signature(tools);
  const after = rssMiB();
  const ready = many.status().filter((s) => s.state === 'ready').length;
  await many.close();
  log(`mcp: 20 servers (${ready} ready), ${tools.length} tools: start +${round(startMs, 0)} ms, all ready in ${round(allReadyMs, 0)} ms, +${round(after - before, 1)} MiB`);

  const one = new McpHub({ servers: servers(1, 10), logger: silentLogger, env: { PATH: process.env.PATH } });
  await one.start();
  const tool = one.current().find((t) => t.name === 's01__t1');
  if (!tool) throw new Error('the benchmark MCP server did not start');
  const ctx = { signal: new AbortController().signal, taint: new TurnTaint() } as ToolContext;
  const total: number[] = [];
  const own: number[] = [];
  let cpuCalls = { user: 0, system: 0 };
  for (let i = 0; i < WARM_UP + CALLS; i++) {
    if (i === WARM_UP) cpuCalls = process.cpuUsage();
    const began = performance.now();
    const text = await tool.run({ text: `call ${i}`, n: i }, ctx);
    const ms = performance.now() - began;
    const { serverMs } = JSON.parse(text) as { serverMs: number };
    if (i < WARM_UP) continue;
    total.push(ms);
    own.push(ms - serverMs);
  }
  const callsCpu = process.cpuUsage(cpuCalls);
  await one.close();
  const result: McpBench = {
    calls: CALLS,
    totalP50Ms: round(percentile(total, 50), 3),
    totalP95Ms: round(percentile(total, 95), 3),
    gatewayP50Ms: round(percentile(own, 50), 3),
    gatewayP95Ms: round(percentile(own, 95), 3),
    gatewayCpuPerCallMs: round((callsCpu.user + callsCpu.system) / 1000 / CALLS, 3),
    loadAverage: round(loadavg()[0], 1),
    servers: 20,
    tools: tools.length,
    startMs: round(startMs, 0),
    allReadyMs: round(allReadyMs, 0),
    startCpuMs: round((cpu.user + cpu.system) / 1000, 0),
    addedRssMiB: round(after - before, 1),
  };
  log(`mcp: a stdio call p95 ${result.totalP95Ms} ms round trip, ${result.gatewayP95Ms} ms the gateway's own`);
  return result;
}
