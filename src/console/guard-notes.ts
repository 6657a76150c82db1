/**
 * Where the guard touched what the model reads (ARCHITECTURE.md §12, §17), for a session's page: secrets
 * redacted and sections or entries removed, per source ("2 secrets redacted in AGENTS.md"). Read
 * from the markers the prompt builder leaves in the stored layers and from the transcript as the
 * model receives it (the same redactor the requests pass), so the page shows what was sent.
 */
import type { PromptLayer } from '../core/providers/provider.js';
import { REDACTED, type Redactor } from '../core/secrets/redact.js';

const count = (text: string, needle: string): number => text.split(needle).length - 1;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The file or setting a layer comes from. */
function sourceOf(layer: PromptLayer): string {
  switch (layer.name) {
    case 'identity':
      return 'SOUL.md';
    case 'system_message':
      return "the config's system_message";
    case 'skills_index':
      return 'the skills index';
    case 'context_files':
      return /Instructions for this workspace, from (.+?)\. Follow/.exec(layer.text)?.[1] ?? 'the context file';
    case 'memory':
      return 'MEMORY.md';
    case 'user_profile':
      return 'USER.md';
    default:
      return layer.name;
  }
}

/** One line per source the guard changed, in prompt order. */
export function promptGuardNotes(layers: readonly PromptLayer[]): string[] {
  const notes: string[] = [];
  for (const layer of layers) {
    const source = sourceOf(layer);
    const secrets = count(layer.text, REDACTED);
    if (secrets) notes.push(`${plural(secrets, 'secret', 'secrets')} redacted in ${source}`);
    const removed = count(layer.text, '[REMOVED: ');
    if (removed) notes.push(`${plural(removed, 'section', 'sections')} of ${source} removed by the threat scan`);
    const entries = count(layer.text, '[BLOCKED: entry ');
    const blocked = count(layer.text, '[BLOCKED: ') - entries;
    if (entries) notes.push(`${plural(entries, 'entry', 'entries')} of ${source} blocked by the threat scan`);
    if (blocked) notes.push(`${source} blocked by the threat scan`);
  }
  return notes;
}

/** The transcript's texts as the model receives them, and how many secrets that took. */
export function redactTranscript<T extends { content: string }>(items: readonly T[], redactor: Redactor): { items: T[]; redacted: number } {
  let redacted = 0;
  const out = items.map((m) => {
    const r = redactor.redact(m.content);
    redacted += r.count;
    return r.count ? { ...m, content: r.text } : m;
  });
  return { items: out, redacted };
}
