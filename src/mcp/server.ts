/**
 * One configured MCP server (ARCHITECTURE.md §16): its connection, its tool list and its state. A
 * server that fails to start, dies or stops answering is one log line; it is started again with
 * backoff, and meanwhile its calls answer "unavailable". The rest of the gateway never waits on it
 * beyond the start's timeout.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool as McpToolDef } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/logger.js';
import type { McpServerConfig } from '../core/mcp-config.js';
import { expandVariables } from './env.js';

export type McpServerState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';
export type McpTransportKind = 'stdio' | 'http' | 'sse';

/** What doctor and the console show about a server. */
export interface McpServerStatus {
  name: string;
  state: McpServerState;
  transport: McpTransportKind;
  /** The server's tool names (after the allow list); empty until it listed them once. */
  tools: string[];
  /** Why it is not ready (the last failure), when it is not. */
  problem?: string;
  restarts: number;
}

/** Why a call did not reach the server or got no answer: told to the model, not the operator's problem. */
export class McpUnavailableError extends Error {}

export interface McpServerDeps {
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Called when the server's tool list changed (a new list, a `tools/list_changed`). */
  onToolsChanged: () => void;
  /** Delay before restart attempt n (1, 2, …); default 1 s doubling to 5 min. */
  backoffMs?: (attempt: number) => number;
  version: string;
  /** The list this server gave last time (McpToolCache): offered at once, calls wait for the server. */
  cached?: McpToolDef[] | null;
}

const defaultBackoff = (attempt: number) => Math.min(300_000, 1000 * 2 ** (attempt - 1));
/** After a call times out, the server gets this long to answer a ping before it is restarted. */
const PING_MS = 5000;
/** The last characters a server wrote on stderr, kept for the line that says why it stopped. */
const STDERR_KEEP = 2000;
const STDERR_WAIT_MS = 300;

export class McpServerLink {
  private client: Client | null = null;
  private transport: Transport | null = null;
  private stateNow: McpServerState = 'starting';
  private problem: string | undefined;
  private listed: McpToolDef[] | null = null;
  private attempt = 0;
  private restarts = 0;
  private timer: NodeJS.Timeout | undefined;
  private stderrTail = '';
  /** Resolves when the child's stderr ended: what it said before exiting is read before the line is written. */
  private stderrEnded: Promise<void> = Promise.resolve();
  private kind: McpTransportKind;
  private closed = false;
  private readonly headers: Record<string, string>;
  private readonly childEnv: Record<string, string>;
  /** The first connection attempt: start() waits on it (up to the start timeout). */
  private firstAttempt: Promise<void> | null = null;
  /** Whether `listed` came from the server in this process (not from the cache). */
  private live = false;
  /** Calls made while the server is (re)connecting wait here for the outcome. */
  private comeUp: Array<() => void> = [];

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly deps: McpServerDeps,
  ) {
    this.kind = config.command ? 'stdio' : 'http';
    // An unset ${VAR} stops the start with one line naming it (a ConfigError), before anything runs.
    this.headers = expandVariables(config.headers, deps.env, `mcp_servers.${name}.headers`);
    this.childEnv = expandVariables(config.env, deps.env, `mcp_servers.${name}.env`);
    this.listed = deps.cached ?? null;
  }

  /** Whether the tool list is the server's own answer in this process (else the cached one, or none). */
  get listedLive(): boolean {
    return this.live;
  }

  get state(): McpServerState {
    return this.stateNow;
  }

  /** The server's tools after the allow list, as it last listed them; null until it has once. */
  get tools(): readonly McpToolDef[] | null {
    return this.listed;
  }

  status(names: (tool: string) => string = (t) => t): McpServerStatus {
    return {
      name: this.name,
      state: this.stateNow,
      transport: this.kind,
      tools: (this.listed ?? []).map((t) => names(t.name)),
      ...(this.problem && this.stateNow !== 'ready' ? { problem: this.problem } : {}),
      restarts: this.restarts,
    };
  }

  /** Starts the first connection (spawning the process) unless it began; returns at once. */
  launch(): void {
    if (!this.firstAttempt && !this.closed) this.firstAttempt = this.connect();
  }

  /** launch(), then resolves when the tools are listed or the start timeout passed (it keeps trying then). */
  start(): Promise<void> {
    this.launch();
    const wait = this.config.start_timeout_seconds * 1000;
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([this.firstAttempt ?? Promise.resolve(), new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))]).finally(() => clearTimeout(timer));
  }

  async call(tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal }): Promise<CallToolResult> {
    let timeoutMs = this.config.call_timeout_seconds * 1000;
    this.launch(); // offered from the kept list and not started yet: it starts now, ahead of its turn
    if (this.stateNow === 'starting' || this.stateNow === 'restarting') {
      // Offered from the cached list before the server came up: the call waits for it, within its timeout.
      const began = Date.now();
      await this.waitForConnect(timeoutMs, options.signal);
      timeoutMs -= Date.now() - began;
    }
    const client = this.client;
    if (!client || this.stateNow !== 'ready' || timeoutMs <= 0) {
      const why = this.stateNow === 'starting' || this.stateNow === 'restarting' ? `not up after ${this.config.call_timeout_seconds} s` : (this.problem ?? this.stateNow);
      throw new McpUnavailableError(`the MCP server '${this.name}' is unavailable right now (${why}); try again later`);
    }
    // A signal of its own per call: the SDK listens on the one it is given, and a turn's signal
    // outlives many calls.
    const call = new AbortController();
    const stop = () => call.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs, signal: call.signal })) as CallToolResult;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/timed out|timeout/i.test(message)) {
        this.checkAlive(client);
        throw new McpUnavailableError(`the MCP server '${this.name}' did not answer within ${this.config.call_timeout_seconds} s`);
      }
      if (this.client !== client || this.stateNow !== 'ready') throw new McpUnavailableError(`the MCP server '${this.name}' stopped during the call`);
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.stateNow = 'stopped';
    this.settleWaiters();
    await this.drop();
  }

  /** Resolves when the connection in progress succeeded or failed, the time passed or the signal aborted. */
  private waitForConnect(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.comeUp = this.comeUp.filter((f) => f !== done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.comeUp.push(done);
    });
  }

  private settleWaiters(): void {
    const waiting = this.comeUp;
    this.comeUp = [];
    for (const f of waiting) f();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    this.stateNow = this.attempt === 0 ? 'starting' : 'restarting';
    const startMs = this.config.start_timeout_seconds * 1000;
    try {
      const client = await this.open(startMs);
      const tools = await this.listTools(client, startMs);
      if (this.closed) {
        await client.close().catch(() => undefined);
        return;
      }
      this.client = client;
      this.stateNow = 'ready';
      this.problem = undefined;
      if (this.attempt > 0) this.deps.logger.info('mcp', `server '${this.name}' is back (${tools.length} tools)`);
      this.attempt = 0;
      this.setTools(tools);
      this.settleWaiters();
    } catch (error) {
      // What a server that exits at once said on stderr may come after the close: wait a moment for it.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.stderrEnded, new Promise((resolve) => (timer = setTimeout(resolve, STDERR_WAIT_MS)))]);
      clearTimeout(timer);
      await this.drop();
      this.failed(`failed to start: ${this.describe(error)}`);
      this.settleWaiters();
    }
  }

  private async open(timeoutMs: number): Promise<Client> {
    const client = new Client({ name: 'switchboard', version: this.deps.version }, { capabilities: {} });
    const attach = (transport: Transport) => {
      this.transport = transport;
      client.onclose = () => {
        if (this.client === client) this.lost('stopped');
      };
      client.onerror = () => undefined; // a failure shows as a failed request or a close
    };
    if (this.config.command) {
      const transport = new StdioClientTransport({
        command: this.config.command,
        args: this.config.args,
        env: { ...getDefaultEnvironment(), ...this.childEnv },
        ...(this.config.cwd ? { cwd: this.config.cwd } : {}),
        stderr: 'pipe',
      });
      this.stderrTail = '';
      const stderr = transport.stderr;
      stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_KEEP);
      });
      this.stderrEnded = stderr ? new Promise((resolve) => stderr.once('end', () => resolve())) : Promise.resolve();
      attach(transport);
      await client.connect(transport, { timeout: timeoutMs });
      return client;
    }
    const url = new URL(this.config.url ?? '');
    const requestInit = { headers: this.headers };
    try {
      const transport = new StreamableHTTPClientTransport(url, { requestInit });
      attach(transport);
      await client.connect(transport, { timeout: timeoutMs });
      this.kind = 'http';
      return client;
    } catch (error) {
      // A server that only speaks the older HTTP+SSE transport answers the POST with 4xx.
      const code = (error as { code?: unknown }).code;
      if (!(typeof code === 'number' && code >= 400 && code < 500)) throw error;
      await this.drop();
      const sse = new Client({ name: 'switchboard', version: this.deps.version }, { capabilities: {} });
      const transport = new SSEClientTransport(url, { requestInit, eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...this.headers } }) } });
      this.transport = transport;
      sse.onclose = () => {
        if (this.client === sse) this.lost('stopped');
      };
      sse.onerror = () => undefined;
      await sse.connect(transport, { timeout: timeoutMs });
      this.kind = 'sse';
      return sse;
    }
  }

  private async listTools(client: Client, timeoutMs: number): Promise<McpToolDef[]> {
    const all: McpToolDef[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const allowed = this.config.tools;
    if (client.getServerCapabilities()?.tools?.listChanged) {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        if (this.client !== client) return;
        this.listTools(client, timeoutMs).then(
          (tools) => this.setTools(tools),
          (error: unknown) => this.deps.logger.warn('mcp', `server '${this.name}': its new tool list could not be read: ${this.describe(error)}`),
        );
      });
    }
    return allowed ? all.filter((t) => allowed.includes(t.name)) : all;
  }

  private setTools(tools: McpToolDef[]): void {
    const before = this.listed;
    this.listed = tools;
    this.live = true;
    if (!before || JSON.stringify(before) !== JSON.stringify(tools)) this.deps.onToolsChanged();
  }

  /** A call timed out: a server that does not answer a ping either is restarted. */
  private checkAlive(client: Client): void {
    client.ping({ timeout: PING_MS }).catch(() => {
      if (this.client === client) this.lost(`did not answer within ${this.config.call_timeout_seconds} s`);
    });
  }

  /** A ready server stopped or hangs: one line, then a restart with backoff. */
  private lost(why: string): void {
    this.client = null;
    void this.drop();
    this.failed(why);
  }

  private failed(why: string): void {
    if (this.closed) return;
    this.attempt++;
    this.problem = why;
    this.stateNow = 'failed';
    const delay = (this.deps.backoffMs ?? defaultBackoff)(this.attempt);
    const tools = this.listed ? 'its tools answer "unavailable"' : 'its tools are absent';
    // One line when it stops working; the retries of the same outage are debug lines.
    const log = this.attempt === 1 ? this.deps.logger.warn : this.deps.logger.debug;
    log('mcp', `server '${this.name}' ${why}; ${tools}; retrying in ${formatDelay(delay)}`);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.restarts++;
      void this.connect();
    }, delay);
    this.timer.unref();
  }

  private async drop(): Promise<void> {
    const transport = this.transport;
    this.transport = null;
    this.client = null;
    if (transport) await transport.close().catch(() => undefined);
  }

  /** The error's first line, with the last thing the server wrote on stderr when it had nothing better. */
  private describe(error: unknown): string {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    const said = this.stderrTail.trim().split('\n').pop()?.trim();
    return said && /connection closed|closed/i.test(message) ? `${message} (it said: ${said.slice(0, 200)})` : message;
  }
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}
