import type { z } from 'zod';
import type { Tool, ToolContext } from './types.js';

/**
 * Validates a tool's arguments at the edge. A mistake goes back to the model as one `Error: …`
 * line naming the argument (the model can correct itself), never as an exception.
 */
export function parseToolArgs<T extends z.ZodType>(schema: T, raw: unknown, hint = ''): { ok: true; data: z.infer<T> } | { ok: false; error: string } {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `Error: ${issue.path.join('.') || 'arguments'}: ${issue.message}.${hint ? ` ${hint}` : ''}` };
}

export interface ToolDefinition<T extends z.ZodType> extends Pick<Tool, 'actsOutside' | 'untrustedResult' | 'needsApproval'> {
  name: string;
  description: string;
  /** The JSON schema sent to the model. */
  parameters: Record<string, unknown>;
  /** What the arguments must be; checked before `run`. */
  schema: T;
  /** Appended to an argument error (e.g. the valid actions). */
  hint?: string;
  waitsForHuman?: boolean;
  /** Runs with arguments that passed `schema`. */
  run(args: z.infer<T>, ctx: ToolContext): Promise<string>;
}

/** A tool whose arguments are validated at the edge, so `run` only sees valid ones. */
export function defineTool<T extends z.ZodType>(definition: ToolDefinition<T>): Tool {
  const { schema, hint, run, ...rest } = definition;
  return {
    ...rest,
    async run(raw: unknown, ctx: ToolContext): Promise<string> {
      const parsed = parseToolArgs(schema, raw, hint);
      return parsed.ok ? run(parsed.data, ctx) : parsed.error;
    },
  };
}
