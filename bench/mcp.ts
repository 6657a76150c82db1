/**
 * Section `mcp` (ARCHITECTURE.md §16): what the MCP client costs the gateway.
 * - A stdio tool call through the agent's Tool (`<server>__<tool>`.run: the SDK client, the pipe, the
 *   result made text), against the smallest server (bench/mcp-server.mjs, no SDK): the gateway's own
 *   time is the round trip minus the time the server reports spending on the call. Goal p95 ≤ 5 ms.
 * - 20 servers with 10 tools each (200 tools), in process: the time hub.begin() holds the start, the
 *   time until all listed their tools, and the resident memory the hub and its 200 tools add to the
 *   gateway process — the servers' own processes are not counted. Goal ≤ 30 MB.
 * - The same 20 through the compiled `switchboard start` (Telegram fake): spawn → ready line and spawn
 *   → the first session's model request carrying all tools, without MCP, on the first start (the lists
 *   read from the servers) and on a restart (the lists kept in mcp-tools.json). Goal: ≤ 1 s added.
 */
import { fileURLToPath } from 'node:url';
import { loadavg, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startModelFake } from '../test/fakes/model.js';
import { startTelegramFake } from '../test/fakes/telegram.js';
import { McpHub } from '../src/mcp/hub.js';
import { mcpServersSchema } from '../src/core/mcp-config.js';
import { silentLogger } from '../src/core/logger.js';
import { ToolRegistry } from '../src/core/tools/registry.js';
import { TurnTaint } from '../src/core/taint.js';
import type { ToolContext } from '../src/core/tools/types.js';
import { percentile, round } from './util.js';

const SERVER = fileURLToPath(new URL('./mcp-server.mjs', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/switchboard.js', import.meta.url));
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
  /** What the gateway's start waits for: hub.begin() (the spawns follow, spread over the event loop), ms. */
  startMs: number;
  /** Until all 20 listed their tools (what the first session waits for; the servers' own start included), ms. */
  allReadyMs: number;
  /** CPU time of the gateway process during that start, ms. */
  startCpuMs: number;
  /** Resident memory the started hub with its tools adds to the gateway process, MiB. */
  addedRssMiB: number;
  /** The real `switchboard start` (compiled) on Telegram, without MCP servers and with the 20: see StartRun. */
  start: { baseline: StartRun; cold: StartRun; warm: StartRun };
}

/** One `switchboard start`: from the spawn, ms; and the gateway process's CPU time until that first request. */
export interface StartRun {
  readyMs: number;
  /** Spawn → the first session's model request carrying every tool (a message sent at the ready line). */
  firstRequestMs: number;
  /** Tools in that request. */
  tools: number;
  cpuMs: number;
}

const servers = (count: number, tools: number) =>
  mcpServersSchema.parse(Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${String(i + 1).padStart(2, '0')}`, { command: process.execPath, args: [SERVER, String(tools)], read_only: ['t1'], start_timeout_seconds: 60 }])));

const gc = (globalThis as { gc?: () => void }).gc;

function rssMiB(): number {
  gc?.();
  return process.memoryUsage().rss / 1024 / 1024;
}

/** CPU time (user + system) of a process so far, ms, from /proc (Linux). */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

const SERVERS_YAML = (count: number, tools: number) =>
  `mcp_servers:\n${Array.from({ length: count }, (_, i) => `  s${String(i + 1).padStart(2, '0')}:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(SERVER)}, "${tools}"]\n    read_only: [t1]\n    start_timeout_seconds: 60\n`).join('')}`;

/**
 * The compiled `switchboard start` with the Telegram door (fakes on loopback): spawn → ready line, and
 * spawn → the first session's model request (a message is sent when the ready line shows) carrying
 * `expectTools` tools or more. Cold: a new SWITCHBOARD_HOME; warm: the same home again (a restart).
 */
async function startRun(home: string, expectTools: number, firstUpdateId: number): Promise<StartRun> {
  const model = await startModelFake({ script: () => ({ text: 'ok' }) });
  // A new update id per run: the same home's journal would take a repeated one for a duplicate.
  const tg = await startTelegramFake({ maxPollHoldMs: 200, firstUpdateId });
  let firstAt = 0;
  let tools = 0;
  let cpuMs = NaN;
  const child = spawn(process.execPath, [BIN, 'start'], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      SWITCHBOARD_HOME: home,
      LOG_LEVEL: 'info',
      SWITCHBOARD_CONSOLE_PORT: '0',
      SWITCHBOARD_HEALTH_PORT: '0',
      OPENAI_BASE_URL: model.openaiUrl,
      OPENAI_API_KEY: 'sk-bench',
      MODEL: 'bench-model',
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.url,
      TELEGRAM_ALLOWED_USERS: '1001',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const t0 = performance.now();
  let output = '';
  try {
    const readyMs = await new Promise<number>((resolve, reject) => {
      const look = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (/ready \(telegram/.test(output)) resolve(performance.now() - t0);
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      child.once('exit', (code) => reject(new Error(`switchboard start exited (${code}): ${output.slice(-500)}`)));
    });
    tg.pushText({ text: 'hello', userId: 1001 });
    const deadline = Date.now() + 120_000;
    while (!firstAt) {
      const request = model.completions()[0];
      if (request) {
        firstAt = performance.now();
        cpuMs = cpuOf(child.pid ?? 0);
        tools = Array.isArray(request.body.tools) ? request.body.tools.length : 0;
      }
      if (Date.now() > deadline) throw new Error(`no model request within 120 s: ${output.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    if (tools < expectTools) throw new Error(`the first request carried ${tools} tools, not ${expectTools}`);
    return { readyMs: round(readyMs, 0), firstRequestMs: round(firstAt - t0, 0), tools, cpuMs: round(cpuMs, 0) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    await tg.close();
    await model.close();
  }
}

/** Baseline (no MCP server), then 20 servers with 200 tools cold (first start) and warm (restart, the same home). */
export async function benchMcpStart(log: (line: string) => void = () => undefined): Promise<McpBench['start']> {
  const plain = mkdtempSync(join(tmpdir(), 'sb-bench-mcp-plain-'));
  const home = mkdtempSync(join(tmpdir(), 'sb-bench-mcp-start-'));
  try {
    writeFileSync(join(plain, 'config.yaml'), 'streaming:\n  telegram: off\n');
    writeFileSync(join(home, 'config.yaml'), `streaming:\n  telegram: off\n${SERVERS_YAML(20, 10)}`);
    // Baseline and restart twice each (the better of two: the machine's load moves them by seconds); the first start once.
    const best = (a: StartRun, b: StartRun) => (a.firstRequestMs <= b.firstRequestMs ? a : b);
    let baseline = await startRun(plain, 0, 1000);
    log(`mcp: switchboard start without MCP: ready ${baseline.readyMs} ms, first request ${baseline.firstRequestMs} ms`);
    const cold = await startRun(home, 200, 2000);
    log(`mcp: with 20 servers, first start: ready ${cold.readyMs} ms, first request with ${cold.tools} tools ${cold.firstRequestMs} ms`);
    let warm = await startRun(home, 200, 3000);
    log(`mcp: with 20 servers, restart: ready ${warm.readyMs} ms, first request with ${warm.tools} tools ${warm.firstRequestMs} ms`);
    baseline = best(baseline, await startRun(plain, 0, 4000));
    warm = best(warm, await startRun(home, 200, 5000));
    log(`mcp: best of two: without MCP ${baseline.firstRequestMs} ms, restart with 20 servers ${warm.firstRequestMs} ms to the first request`);
    return { baseline, cold, warm };
  } finally {
    rmSync(plain, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
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
    start: await benchMcpStart(log),
  };
  log(`mcp: a stdio call p95 ${result.totalP95Ms} ms round trip, ${result.gatewayP95Ms} ms the gateway's own`);
  return result;
}
