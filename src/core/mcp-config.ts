/**
 * The `mcp_servers:` section (ARCHITECTURE.md §16): each entry is one MCP server, run as a child
 * process (`command`) or reached over Streamable HTTP (`url`, SSE as the fallback). Only zod here, so
 * the config schema can include it without loading the MCP SDK.
 */
import { z } from 'zod';

/** A server's name becomes the prefix of its tools' names (`<server>__<tool>`). */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

export const mcpServerSchema = z
  .strictObject({
    /** A local server: the program to run (its stdin/stdout speak MCP). */
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    /** Added to a minimal environment (PATH, HOME, …); `${VAR}` is taken from the gateway's environment. */
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().min(1).optional(),
    /** A remote server over Streamable HTTP (SSE when the server only speaks that). */
    url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    /** Sent with every request; `${VAR}` is taken from the gateway's environment. */
    headers: z.record(z.string(), z.string()).default({}),
    /** Allow list: only these tools of the server are offered; default: every tool the server lists. */
    tools: z.array(z.string().min(1)).optional(),
    /** Tools declared without effects outside the conversation (§17): the others act outside. */
    read_only: z.array(z.string().min(1)).default([]),
    /** Tools that need a person's yes before each call: a list, `all` or `none`. */
    approve: z.union([z.enum(['all', 'none']), z.array(z.string().min(1))]).default('none'),
    /** A call that takes longer is abandoned and the model told so. */
    call_timeout_seconds: z.number().positive().max(3600).default(60),
    /** Text a result gives back to the model, at most; longer results are cut with a notice. */
    max_result_chars: z.number().int().min(100).max(1_000_000).default(20_000),
    /** How long the start waits for the server's tool list before going on without it (it keeps trying). */
    start_timeout_seconds: z.number().positive().max(600).default(20),
  })
  .superRefine((server, ctx) => {
    if (Boolean(server.command) === Boolean(server.url)) {
      ctx.addIssue({ code: 'custom', message: 'needs either `command` (a local server) or `url` (Streamable HTTP), not both' });
    }
  });

export const mcpServersSchema = z
  .record(z.string().regex(MCP_SERVER_NAME, 'MCP server names use letters, digits, _ and - (at most 40)'), mcpServerSchema)
  .default({});

export type McpServerConfig = z.infer<typeof mcpServerSchema>;

