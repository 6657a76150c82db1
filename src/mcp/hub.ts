/**
 * Every configured MCP server, and the tools they give the agent (ARCHITECTURE.md §16). The hub is
 * the agent's ToolSource: `current()` is the same array while no server's tool list changed, in a
 * stable order (by name), so a session's tool list — part of the cached prefix — is the same bytes
 * on every call. A change (a server that came up late, `tools/list_changed`) gives a new array,
 * which only sessions started from then on get (the agent pins each session's list).
 */
import type { Logger } from '../core/logger.js';
import type { McpServerConfig } from '../core/mcp-config.js';
import type { Tool } from '../core/tools/types.js';
import type { ToolSource } from '../core/tools/registry.js';
import { McpServerLink, type McpServerStatus } from './server.js';
import { providerToolNames } from './names.js';
import { mcpTool } from './tools.js';
import { McpToolCache } from './tool-cache.js';

/** A kept server gets this long to come up before the next one is started (it keeps starting). */
const KEPT_STAGGER_MS = 1500;
/** Kept servers start this long after begin() (a call to one starts it at once). */
const KEPT_DELAY_MS = 5000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export interface McpHubOptions {
  servers: Record<string, McpServerConfig>;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Names the tools must not take (the built-in tools). */
  reserved?: readonly string[];
  backoffMs?: (attempt: number) => number;
  version?: string;
  /**
   * Where each server's last tool list is kept (`<SWITCHBOARD_HOME>/mcp-tools.json`): with it a restart
   * offers the tools at once and the servers come up behind (ARCHITECTURE.md §16a). Unset: none kept.
   */
  cacheFile?: string;
}

export class McpHub implements ToolSource {
  private readonly links: McpServerLink[];
  private catalog: readonly Tool[] = Object.freeze([]);
  private names = new Map<McpServerLink, Map<string, string>>();
  /** Tool objects by server, tool name and definition: unchanged definitions keep their object. */
  private made = new Map<string, { key: string; tool: Tool }>();
  private readonly reserved: ReadonlySet<string>;
  private settling: Promise<void> | null = null;
  private readonly cache: McpToolCache | null;

  constructor(private readonly options: McpHubOptions) {
    this.reserved = new Set(options.reserved ?? []);
    this.cache = options.cacheFile ? new McpToolCache(options.cacheFile, options.logger) : null;
    // Links are made in name order, so the catalog's order does not depend on the config's.
    this.links = Object.keys(options.servers)
      .sort()
      .map(
        (name) =>
          new McpServerLink(name, options.servers[name], {
            logger: options.logger,
            env: options.env,
            onToolsChanged: () => this.rebuild(),
            backoffMs: options.backoffMs,
            version: options.version ?? '0',
            cached: this.cache?.get(name, options.servers[name]) ?? null,
          }),
      );
    if (this.links.some((l) => l.tools)) this.rebuild();
  }

  /** Whether this process started the servers (a `console` alone never does). */
  get started(): boolean {
    return this.settling !== null;
  }

  get size(): number {
    return this.links.length;
  }

  /**
   * Starts the servers and returns: the gateway's start does not wait for them. Spawning a process
   * blocks this thread until the child has exec'd (long on a busy machine), so the spawns are spread
   * over the event loop, one per turn of it. Servers whose tool list is not known go first, all
   * connecting side by side: the first session waits (settled()) for them. Servers with a list kept
   * from the last run (McpToolCache) are offered at once and started KEPT_DELAY_MS later, one after
   * another (each given up to KEPT_STAGGER_MS before the next), so a restart's ready line and first turns
   * are not slowed by 20 processes starting; a call to one not started yet starts it at once and waits.
   */
  begin(): void {
    if (this.settling || !this.links.length) {
      this.settling ??= Promise.resolve();
      return;
    }
    const began = Date.now();
    const fresh = this.links.filter((l) => !l.tools);
    const kept = this.links.filter((l) => l.tools);
    const spawned = (async () => {
      for (const link of fresh) {
        await nextTurn();
        link.launch();
      }
    })();
    this.settling = spawned.then(() => Promise.all(fresh.map((l) => l.start()))).then(() => undefined);
    const all = this.settling.then(async () => {
      // The gateway's own start and its first turns go first: each spawn holds the event loop.
      if (kept.length) await delay(KEPT_DELAY_MS);
      for (const link of kept) {
        await nextTurn();
        await Promise.race([link.start(), delay(KEPT_STAGGER_MS)]);
      }
      await Promise.all(kept.map((l) => l.start()));
    });
    void all.then(() => {
      const ready = this.links.filter((l) => l.state === 'ready');
      this.options.logger.info('mcp', `${ready.length} of ${this.links.length} MCP server(s) ready with ${this.catalog.length} tool(s) in ${Date.now() - began} ms`);
    });
  }

  /** Resolves when each server listed its tools or passed its start timeout (at once when never begun). */
  settled(): Promise<void> {
    return this.settling ?? Promise.resolve();
  }

  /** begin(), then settled(). */
  async start(): Promise<void> {
    this.begin();
    await this.settled();
  }

  current(): readonly Tool[] {
    return this.catalog;
  }

  status(): McpServerStatus[] {
    return this.links.map((l) => {
      const names = this.names.get(l);
      return l.status((t) => names?.get(t) ?? t);
    });
  }

  async close(): Promise<void> {
    this.cache?.flush();
    await Promise.all(this.links.map((l) => l.close()));
  }

  private rebuild(): void {
    const tools: Tool[] = [];
    const taken = new Set(this.reserved);
    for (const link of this.links) {
      const defs = link.tools;
      if (!defs) continue;
      if (link.listedLive) this.cache?.put(link.name, link.config, defs);
      const names = providerToolNames(link.name, defs.map((d) => d.name), taken);
      this.names.set(link, names);
      for (const def of defs) {
        const name = names.get(def.name) as string;
        taken.add(name);
        const key = JSON.stringify(def);
        const known = this.made.get(name);
        const tool = known && known.key === key ? known.tool : mcpTool(link, def, name);
        this.made.set(name, { key, tool });
        tools.push(tool);
      }
    }
    tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const same = tools.length === this.catalog.length && tools.every((t, i) => t === this.catalog[i]);
    if (!same) this.catalog = Object.freeze(tools);
  }
}
