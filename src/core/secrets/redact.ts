/**
 * The redactor (ARCHITECTURE.md §17 "Secrets never reach the model"): replaces the settings' own
 * secrets, verbatim, and text shaped like a credential (shapes.ts) with `[redacted secret]`.
 *
 * Deterministic and idempotent: the same text gives the same bytes every time (so a prompt and a
 * history redacted on every call keep the provider's cached prefix), and redacting a redacted text
 * changes nothing. Pure: the caller logs.
 */
import { SECRET_SHAPES } from './shapes.js';

export const REDACTED = '[redacted secret]';

/** Known secrets shorter than this are not matched verbatim (a 3-letter password would hit ordinary words). */
export const MIN_KNOWN_SECRET = 6;

export interface Redaction {
  text: string;
  /** How many secrets were replaced. */
  count: number;
  /** What they looked like (`an OpenAI key`, `a configured secret`), in order of first hit, without repeats. */
  kinds: string[];
}

export interface Redactor {
  redact(text: string): Redaction;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A redactor for `known` (the settings' secret values: API keys, bot tokens, passwords, the console
 * token) and every shape of SECRET_SHAPES.
 */
export function createRedactor(known: readonly string[] = []): Redactor {
  const values = [...new Set(known.map((v) => v.trim()).filter((v) => v.length >= MIN_KNOWN_SECRET))].sort((a, b) => b.length - a.length);
  const knownRe = values.length ? new RegExp(values.map(escapeRegExp).join('|'), 'g') : null;
  return {
    redact(text: string): Redaction {
      let count = 0;
      const kinds: string[] = [];
      const hit = (kind: string) => {
        count++;
        if (!kinds.includes(kind)) kinds.push(kind);
      };
      let out = text;
      if (knownRe && out.length) {
        out = out.replace(knownRe, () => {
          hit('a configured secret');
          return REDACTED;
        });
      }
      for (const shape of SECRET_SHAPES) {
        shape.regex.lastIndex = 0;
        if (!shape.regex.test(out)) continue;
        shape.regex.lastIndex = 0;
        out = out.replace(shape.regex, (...args: unknown[]) => {
          const match = args[0] as string;
          const groups = args.at(-1) as Record<string, string | undefined> | undefined;
          const value = typeof groups === 'object' && groups?.value !== undefined ? groups.value : match;
          if (value === REDACTED || (shape.accept && !shape.accept(value))) return match;
          hit(shape.kind);
          if (value === match) return REDACTED;
          const at = match.lastIndexOf(value);
          return match.slice(0, at) + REDACTED + match.slice(at + value.length);
        });
      }
      return { text: out, count, kinds };
    },
  };
}

/** Shapes only: for a caller that has no settings (a unit under test, a preview without secrets). */
export const SHAPES_REDACTOR: Redactor = createRedactor();
