/**
 * `switchboard doctor`'s MCP listing (ARCHITECTURE.md §3, §16): each configured server started once,
 * its state and its tools, then stopped. A server gets at most DOCTOR_START_SECONDS (doctor answers
 * within seconds); an unset `${VAR}` is the one line naming it.
 */
import { silentLogger } from '../core/logger.js';
import type { McpServerConfig } from '../core/mcp-config.js';
import { oneLine } from '../core/errors.js';
import { McpHub } from './hub.js';

export const DOCTOR_START_SECONDS = 5;

export interface McpCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export async function mcpDoctorChecks(servers: Record<string, McpServerConfig>, env: NodeJS.ProcessEnv): Promise<McpCheck[]> {
  const names = Object.keys(servers);
  if (!names.length) return [];
  const quick = Object.fromEntries(names.map((n) => [n, { ...servers[n], start_timeout_seconds: Math.min(servers[n].start_timeout_seconds, DOCTOR_START_SECONDS) }]));
  let hub: McpHub;
  try {
    hub = new McpHub({ servers: quick, logger: silentLogger, env, backoffMs: () => 3_600_000 });
  } catch (error) {
    return [{ name: 'mcp', ok: false, detail: `${oneLine(error)} — fix: set it in the environment or .env, or change mcp_servers in the config` }];
  }
  try {
    await hub.start();
    return hub.status().map((s) => {
      const where = servers[s.name].url ? `${s.transport} ${servers[s.name].url}` : 'stdio';
      if (s.state === 'ready') {
        return { name: `mcp ${s.name}`, ok: true, detail: `ready (${where}), ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}: ${s.tools.join(', ') || 'none'}` };
      }
      const why = s.problem ?? `no answer within ${DOCTOR_START_SECONDS} s`;
      return { name: `mcp ${s.name}`, ok: false, detail: `${s.state} (${where}): ${why} — fix: check mcp_servers.${s.name} (${servers[s.name].url ? 'url, headers' : 'command, args, env, cwd'}); the gateway runs without its tools` };
    });
  } finally {
    await hub.close();
  }
}
