/**
 * `switchboard sessions list [--limit N] [--person P]` · `switchboard sessions search QUERY [--limit N]`
 * (ARCHITECTURE.md §3). Inspect-only: reads the store, needs no platform credentials. `list` shows each
 * session with its usage and prompt-cache hit rate, then the totals per person; `search` is the
 * operator's full-text search across everyone.
 */
import { CommandLineError, parseCommandLine, type CommandIO } from './io.js';
import { loadSettings } from '../core/settings.js';
import { UsageError } from '../core/errors.js';
import { openData, storeLocation } from '../app-open.js';
import type { SessionRecord, Store } from '../core/store/types.js';
import type { Usage } from '../core/messages.js';
import { analyzeQuery } from '../core/search/query.js';

const DEFAULT_LIST = 50;
const DEFAULT_HITS = 20;

export const usage = `usage: switchboard sessions list [--limit N] [--person NAME]
       switchboard sessions search QUERY [--limit N]

  list           the stored sessions, most recently active first, with token usage and prompt-cache
                 hit rate, then the totals per person
  search QUERY   full-text search across every stored message

options:
  --limit N      how many to show (list: ${DEFAULT_LIST}, search: ${DEFAULT_HITS})
  --person NAME  list: only that person's sessions
  -h, --help     show this help`;

function when(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** Share of input tokens served from the prompt cache, as a whole percentage. */
export function cacheHitRate(u: Pick<Usage, 'inputTokens' | 'cachedTokens'>): string {
  return u.inputTokens ? `${Math.round((100 * u.cachedTokens) / u.inputTokens)}%` : '-';
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd()).join('\n') + '\n';
}

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`sessions: --${name} expects a whole number of at least 1, not '${value}'`);
  return n;
}

function sessionRows(sessions: SessionRecord[]): string[][] {
  const rows = [['ID', 'KEY', 'PLATFORM', 'PERSON', 'STARTED', 'LAST ACTIVE', 'ENDED', 'REQ', 'IN', 'OUT', 'CACHED', 'HIT', 'REBUILDS']];
  for (const s of sessions) {
    rows.push([
      s.id,
      s.key,
      s.platform,
      s.personKey,
      when(s.startedAt),
      when(s.lastActiveAt),
      s.endedAt === null ? 'open' : `${when(s.endedAt)} (${s.endReason ?? '?'})`,
      String(s.requests),
      String(s.usage.inputTokens),
      String(s.usage.outputTokens),
      String(s.usage.cachedTokens),
      cacheHitRate(s.usage),
      String(s.promptRebuilds),
    ]);
  }
  return rows;
}

async function list(store: Store, limit: number, person: string | undefined, io: CommandIO, where: string): Promise<number> {
  const total = await store.sessions.count();
  if (!total) {
    io.stdout.write(`No sessions stored yet (${where}). They appear here once someone talks to the bot.\n`);
    return 0;
  }
  const sessions = await store.sessions.list({ limit, personKey: person });
  if (!sessions.length) {
    io.stdout.write(`No sessions for person '${person}'.\n`);
    return 0;
  }
  io.stdout.write(table(sessionRows(sessions)));
  if (sessions.length < (person ? (await store.sessions.usageByPerson(person)).sessions : total)) {
    io.stdout.write(`(${sessions.length === 1 ? 'only the most recently active one' : `the ${sessions.length} most recently active`}; --limit N shows more)\n`);
  }
  const people = (await store.sessions.usageByPeople()).filter((p) => !person || p.personKey === person);
  const rows = [['PERSON', 'SESSIONS', 'REQ', 'IN', 'OUT', 'CACHED', 'HIT']];
  for (const p of people) {
    rows.push([p.personKey, String(p.sessions), String(p.requests), String(p.inputTokens), String(p.outputTokens), String(p.cachedTokens), cacheHitRate(p)]);
  }
  io.stdout.write('\nUsage per person (all sessions):\n' + table(rows));
  return 0;
}

async function search(store: Store, query: string, limit: number, io: CommandIO, where: string): Promise<number> {
  if (!(await store.sessions.count())) {
    io.stdout.write(`No sessions stored yet (${where}); nothing to search.\n`);
    return 0;
  }
  const { terms } = analyzeQuery(query);
  const hits = terms.length ? await store.messages.searchAll(terms.join(' '), limit) : [];
  if (!hits.length) {
    io.stdout.write(`No stored message matches '${query}'.\n`);
    return 0;
  }
  hits.forEach((h, i) => {
    const snippet = h.snippet.replace(/\s+/g, ' ').trim();
    io.stdout.write(`${i + 1}. ${h.personKey}  ${h.sessionId} (${h.platform})  ${when(h.createdAt)}  ${h.role}: ${snippet}\n`);
  });
  return 0;
}

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandLine('sessions', usage, {
    args: argv,
    options: { limit: { type: 'string' }, person: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [action, ...rest] = positionals;
  if (action !== 'list' && action !== 'search') throw new CommandLineError('sessions', action ? `unknown action '${action}'` : 'say list or search', usage);
  if (action === 'list' && rest.length) throw new CommandLineError('sessions', `list takes no arguments, not '${rest.join(' ')}'`, usage);
  const query = rest.join(' ').trim();
  if (action === 'search' && !query) throw new UsageError('sessions search: give the words to look for, e.g. switchboard sessions search invoice');
  const limit = positiveInt(values.limit, action === 'list' ? DEFAULT_LIST : DEFAULT_HITS, 'limit');
  const settings = loadSettings(io.env);
  const path = storeLocation(settings);
  const store = await openData(settings);
  try {
    return action === 'list' ? await list(store, limit, values.person, io, path) : await search(store, query, limit, io, path);
  } finally {
    await store.close();
  }
}
