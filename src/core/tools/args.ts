import type { z } from 'zod';

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
