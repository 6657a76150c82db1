/**
 * `guard:` in the config file (ARCHITECTURE.md §17): the optional second opinion on texts that enter the
 * prompt — an OpenAI-compatible endpoint asked about new or changed context files, memory entries
 * and tool results (see src/guard/second-opinion.ts). Absent: the threat scan alone decides.
 */
import { z } from 'zod';

export const guardModelSchema = z.strictObject({
  /** OpenAI-compatible base URL, e.g. `http://127.0.0.1:8000/v1`. */
  base_url: z.url(),
  /** The model the endpoint serves (`meta-llama/Llama-Prompt-Guard-2-86M`, `gpt-4o-mini`). */
  model: z.string().min(1),
  /** Environment variable holding its API key (never the key itself in the file); unset: no key sent. */
  api_key_env: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, 'the name of an environment variable, e.g. GUARD_API_KEY')
    .optional(),
  /**
   * `classifier`: POST /classifications {model, input} → {data: [{label, score}]} (a Prompt Guard
   * style server); `chat`: POST /chat/completions with a fixed judging prompt, answered `SAFE` or `INJECTION`.
   */
  mode: z.enum(['classifier', 'chat']).default('chat'),
  /** Texts shorter than this (characters) are not sent; the table scan alone judges them. */
  min_chars: z.number().int().min(0).default(200),
  /** Classifier score at or above which a text is judged an injection. */
  threshold: z.number().min(0).max(1).default(0.5),
  /** Per request; past it the table scan's verdict stands. */
  timeout_ms: z.number().int().min(50).max(60_000).default(3000),
  /** Characters sent per request (the head of a longer text; a classifier reads only a window anyway). */
  max_chars: z.number().int().min(100).default(8000),
});
export type GuardModelConfig = z.infer<typeof guardModelSchema>;

export const guardConfigSchema = z.strictObject({ model: guardModelSchema.optional() }).prefault({});
