/**
 * Each MCP server's last tool list, kept in SWITCHBOARD_HOME (`mcp-tools.json`, ARCHITECTURE.md §16a), so
 * after a restart a session can pin its tool list at once instead of waiting for 20 processes to start.
 * An entry is keyed by the server's name and a hash of what decides its list (command, args, env, cwd,
 * url, headers as written, the allow list): a changed config never uses an old list. The live list, when
 * it differs, applies from the next session (the same rule as `tools/list_changed`).
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolSchema, type Tool as McpToolDef } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../core/mcp-config.js';
import type { Logger } from '../core/logger.js';

const fileSchema = z.object({
  version: z.literal(1),
  servers: z.record(z.string(), z.object({ hash: z.string(), tools: z.array(ToolSchema) })),
});
type CacheFile = z.infer<typeof fileSchema>;

/** What decides a server's tool list: a change here means its cached list is not used. */
export function configHash(config: McpServerConfig): string {
  const { command, args, env, cwd, url, headers, tools } = config;
  return createHash('sha256')
    .update(JSON.stringify({ command, args, env, cwd, url, headers, tools }))
    .digest('hex')
    .slice(0, 16);
}

export class McpToolCache {
  private data: CacheFile = { version: 1, servers: {} };
  private writing: NodeJS.Timeout | undefined;

  constructor(
    private readonly path: string,
    private readonly logger: Logger,
  ) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return; // the first start: nothing kept yet
    }
    try {
      this.data = fileSchema.parse(JSON.parse(text));
    } catch {
      // A damaged or older file only costs the wait for the servers' lists; it is rewritten then.
      logger.warn('mcp', `${path} could not be read; the MCP servers' tool lists are read from the servers`);
    }
  }

  /** The list kept for this server with this config, or null. */
  get(name: string, config: McpServerConfig): McpToolDef[] | null {
    const entry = this.data.servers[name];
    return entry && entry.hash === configHash(config) ? (entry.tools as McpToolDef[]) : null;
  }

  /** Keeps a server's live list; written shortly after (one write for servers listing together). */
  put(name: string, config: McpServerConfig, tools: readonly McpToolDef[]): void {
    const hash = configHash(config);
    const known = this.data.servers[name];
    if (known && known.hash === hash && JSON.stringify(known.tools) === JSON.stringify(tools)) return;
    this.data.servers[name] = { hash, tools: tools as CacheFile['servers'][string]['tools'] };
    clearTimeout(this.writing);
    this.writing = setTimeout(() => this.flush(), 200);
    this.writing.unref();
  }

  /** Writes what changed now (the hub's close calls it, so a short run keeps its lists too). */
  flush(): void {
    if (!this.writing) return;
    clearTimeout(this.writing);
    this.writing = undefined;
    const tmp = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(this.data), { mode: 0o600 });
      renameSync(tmp, this.path);
    } catch (error) {
      this.logger.warn('mcp', `${this.path} could not be written (${error instanceof Error ? error.message : String(error)}); the next start waits for the MCP servers' tool lists`);
    }
  }
}
