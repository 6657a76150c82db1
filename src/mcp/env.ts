/** `${VAR}` in an MCP server's headers and env, from the gateway's environment (ARCHITECTURE.md §16). */
import { ConfigError } from '../core/errors.js';

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Each value with its `${VAR}`s replaced. An unset variable is one ConfigError line naming it and the
 * setting it is in (`mcp_servers.crm.headers.Authorization`), never the value itself.
 */
export function expandVariables(values: Record<string, string>, env: NodeJS.ProcessEnv, setting: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    out[key] = value.replace(VARIABLE, (_, name: string) => {
      const found = env[name];
      if (found === undefined) throw new ConfigError(`'${setting}.${key}' uses \${${name}}, but ${name} is not set in the environment`);
      return found;
    });
  }
  return out;
}
