/**
 * Small shared helpers for showing cron jobs (tool, `cron list`) and titling their reports. Delivery
 * targets are addresses: parsed with `parseDeliverableAddress`, shown with `formatAddress`
 * (src/platform/address.ts).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD HH:MM:SS` in `zone` (the server's zone when null), for listings. */
export function describeTime(ms: number, zone: string | null | undefined): string {
  const key = zone ?? '';
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone ?? undefined,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(key, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(ms))) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** The zone a job runs in, for display: its own, else the server's (croner's default, as node-cron's). */
export function effectiveZone(zone: string | null | undefined): string {
  return zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const SUBJECT_CHARS = 120;

/** Heading/line text without Markdown markers (emphasis, code ticks, links, list bullets). */
export function plainLine(line: string): string {
  return line
    .replace(/^\s{0,3}(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, '')
    .replace(/\s+#+\s*$/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|~~|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Subject of a cron report mail (ARCHITECTURE.md §4b): the report's first heading, else its first line,
 * else `<job id> — <date>` (date in the job's zone).
 */
export function reportSubject(answer: string, jobId: string, at: Date, zone?: string | null): string {
  const lines = answer.split('\n');
  let chosen = '';
  for (let i = 0; i < lines.length && !chosen; i++) {
    if (/^\s{0,3}#{1,6}\s+\S/.test(lines[i])) chosen = plainLine(lines[i]);
    else if (lines[i].trim() && /^\s{0,3}(=+|-+)\s*$/.test(lines[i + 1] ?? '')) chosen = plainLine(lines[i]);
  }
  if (!chosen) chosen = plainLine(lines.find((l) => plainLine(l)) ?? '');
  if (!chosen) return `${jobId} — ${describeTime(at.getTime(), zone).slice(0, 10)}`;
  return chosen.length > SUBJECT_CHARS ? `${chosen.slice(0, SUBJECT_CHARS - 1)}…` : chosen;
}
