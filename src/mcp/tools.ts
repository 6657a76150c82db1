/**
 * An MCP server's tool as an agent Tool (src/core/tools/types.ts): named `<server>__<tool>`, its
 * input schema adjusted for the providers, untrusted result, and what the operator declared —
 * `read_only` (else it acts outside the conversation, §17) and `approve:` (a person's yes first).
 */
import type { Tool as McpToolDef } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '../core/tools/types.js';
import { providerSchema } from './schema.js';
import { resultText } from './result.js';
import type { McpServerLink } from './server.js';

const MAX_DESCRIPTION = 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mcpTool(link: McpServerLink, def: McpToolDef, name: string): Tool {
  const { config } = link;
  const approve = config.approve;
  const description = `${(def.description ?? def.title ?? def.name).trim()} (MCP server '${link.name}')`;
  return {
    name,
    description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
    parameters: providerSchema(def.inputSchema),
    actsOutside: !config.read_only.includes(def.name),
    untrustedResult: true,
    needsApproval: approve === 'all' || (Array.isArray(approve) && approve.includes(def.name)),
    async run(args, ctx) {
      if (args !== undefined && !isRecord(args)) throw new Error(`the arguments for ${name} must be an object`);
      const result = await link.call(def.name, args ?? {}, { signal: ctx.signal });
      // Whatever the server sent is text neither the operator nor the person wrote (§17).
      ctx.taint?.mark('tool_result', name);
      return resultText(result, { tool: name, maxChars: config.max_result_chars, ...(ctx.attach ? { attach: ctx.attach } : {}) });
    },
  };
}
