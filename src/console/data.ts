/**
 * The console's figures, one function per page: the HTML pages and `/api/…` answer from the same
 * objects. Everything is read from the store on each request (several instances may share it).
 */
import type { ConsoleCosts, ConsoleDeps, DoorStatus, McpServerView } from './types.js';
import { costOf, formatUsd, type Cost } from '../core/cost/pricing.js';
import type { DailyActivity, OutboxItem, SessionRecord, TranscriptLine } from '../core/store/types.js';
import { formatAddress } from '../platform/address.js';
import { createRedactor } from '../core/secrets/redact.js';
import { promptGuardNotes, redactTranscript } from './guard-notes.js';
import { isMediaId } from '../core/media/types.js';

const DAY_MS = 86_400_000;
export const CHART_DAYS = 7;

export interface DayFigures {
  date: string;
  messages: number;
  inputTokens: number;
  cachedTokens: number;
  /** cached / input tokens, 0..1; null without model calls that day. */
  cacheHitRate: number | null;
}

export interface Overview {
  doors: DoorStatus[];
  model: string;
  engine: string;
  schemaVersion: number;
  today: DayFigures;
  days: DayFigures[];
  outbox: { pending: number; parked: number; sent: number };
  sessions: number;
  /** The MCP servers of this process (ARCHITECTURE.md §16). */
  mcp: McpServerView[];
  /** What today's (UTC) model calls cost, and who is near their daily budget (ARCHITECTURE.md §18). */
  spending: Spending | null;
}

export interface Spending {
  todayUsd: number;
  /** What the prompt cache saved today against the same tokens uncached. */
  todaySavedUsd: number;
  /** People at 80 % or more of a daily budget, the nearest first. */
  nearBudget: Array<{ person: string; spent: string; budget: string; percent: number }>;
}

export interface Page<T> {
  page: number;
  pageSize: number;
  total: number | null;
  hasNext: boolean;
  items: T[];
}

export interface SessionSummary {
  id: string;
  platform: string;
  user: string;
  chat: string;
  thread: string | null;
  person: string;
  startedAt: string;
  lastActiveAt: string;
  ended: string | null;
  requests: number;
  tokens: { input: number; output: number; cached: number; total: number };
  cacheHitRate: number | null;
  /** USD by the price list, and what the prompt cache saved; null when the model has no price. */
  cost: Cost | null;
}

export interface SessionDetail {
  session: SessionSummary & { model: string | null; promptSha256: string; promptChars: number; promptRebuilds: number };
  layers: Array<{ name: string; chars: number; text: string }>;
  /** Where the guard changed what the model reads: "2 secrets redacted in AGENTS.md" (ARCHITECTURE.md §17). */
  guardNotes: string[];
  transcript: Page<TranscriptItem>;
}

/** A message of a transcript as the console shows it. */
export interface TranscriptItem {
  id: number;
  role: string;
  content: string;
  at: string;
  /** What the message carried (ARCHITECTURE.md §15): a user's photos, voice notes and documents, the files a reply sent. */
  attachments: AttachmentView[];
}

export interface AttachmentView {
  kind: string;
  name: string;
  type: string;
  bytes: number;
  /** `in`: a user sent it; `out`: the agent sent it with its reply. */
  direction: 'in' | 'out';
  /** The console's own URL of a thumbnail of a stored image (behind its login); null when there is none to show. */
  thumbnail: string | null;
}

/** The console's thumbnail URL of stored image `id`. */
export const thumbnailPath = (id: string) => `/media/${id}/thumbnail`;

export interface CronRow {
  id: string;
  source: string;
  owner: string | null;
  schedule: string;
  timezone: string | null;
  deliver: string;
  paused: boolean;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastStatus: string | null;
  lastResult: string | null;
}

export interface ParkedReply {
  id: number;
  to: string;
  session: string | null;
  createdAt: string;
  attempts: number;
  lastError: string | null;
  chunks: number;
  preview: string;
}

export interface PairingRow {
  code: string;
  platform: string;
  userId: string;
  expiresAt: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
export const rate = (cached: number, input: number): number | null => (input > 0 ? cached / input : null);

/** The offset that makes day buckets the server's local days. */
function localOffset(now: Date): number {
  return -now.getTimezoneOffset() * 60_000;
}

/**
 * The finished days of the chart, read again at most every `ttlMs`: only today is counted on every
 * overview, so the page costs what today holds, not the whole week.
 */
export class PastDays {
  private key = '';
  private at = 0;
  private rows: DailyActivity[] = [];

  constructor(private readonly ttlMs = 5 * 60_000) {}

  async get(deps: ConsoleDeps, first: number, today: number, offset: number, now: number): Promise<DailyActivity[]> {
    const key = `${first}:${today}:${offset}`;
    if (key !== this.key || now - this.at > this.ttlMs) {
      this.rows = await deps.store.messages.daily(first * DAY_MS - offset, today * DAY_MS - offset, offset);
      this.key = key;
      this.at = now;
    }
    return this.rows;
  }
}

export async function overview(deps: ConsoleDeps, past: PastDays = new PastDays()): Promise<Overview> {
  const now = (deps.now ?? (() => new Date()))();
  const offset = localOffset(now);
  const today = Math.floor((now.getTime() + offset) / DAY_MS);
  const first = today - (CHART_DAYS - 1);
  const [before, todays, counts, sessions, schemaVersion] = await Promise.all([
    past.get(deps, first, today, offset, now.getTime()),
    deps.store.messages.daily(today * DAY_MS - offset, (today + 1) * DAY_MS - offset, offset),
    deps.store.outbox.counts(),
    deps.store.sessions.count(),
    deps.store.schemaVersion(),
  ]);
  const byDay = new Map([...before, ...todays].map((r) => [Number(r.day), r]));
  const days: DayFigures[] = [];
  for (let d = first; d <= today; d++) {
    const r = byDay.get(d);
    const input = Number(r?.inputTokens ?? 0);
    const cached = Number(r?.cachedTokens ?? 0);
    days.push({ date: iso(d * DAY_MS).slice(0, 10), messages: Number(r?.messages ?? 0), inputTokens: input, cachedTokens: cached, cacheHitRate: rate(cached, input) });
  }
  return {
    doors: [...(await deps.doors())],
    model: deps.model(),
    engine: deps.store.engine,
    schemaVersion,
    today: days[days.length - 1],
    days,
    outbox: { pending: counts.pending, parked: counts.failed, sent: counts.sent },
    sessions,
    mcp: [...(deps.mcp?.() ?? [])],
    spending: deps.costs ? await spending(deps.costs, deps.store, now) : null,
  };
}

/** Today's (UTC) cost over everyone, and who is at 80 % or more of a person's daily budget. */
async function spending(costs: ConsoleCosts, store: ConsoleDeps['store'], now: Date): Promise<Spending> {
  const rows = await store.messages.usageByPeopleSince(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const people = new Map<string, { tokens: number; usd: number }>();
  let todayUsd = 0;
  let todaySavedUsd = 0;
  for (const r of rows) {
    const usage = { inputTokens: Number(r.inputTokens), cachedTokens: Number(r.cachedTokens), outputTokens: Number(r.outputTokens) };
    const price = costs.prices(r.model ?? costs.defaultModel);
    const c = price ? costOf(usage, price) : { usd: 0, savedUsd: 0 };
    todayUsd += c.usd;
    todaySavedUsd += c.savedUsd;
    const p = people.get(r.personKey) ?? { tokens: 0, usd: 0 };
    p.tokens += usage.inputTokens + usage.outputTokens;
    p.usd += c.usd;
    people.set(r.personKey, p);
  }
  const budget = costs.budgets.person;
  const nearBudget: Spending['nearBudget'] = [];
  if (budget) {
    for (const [person, p] of people) {
      if (person.startsWith('cron')) continue;
      const byTokens = budget.daily_tokens ? p.tokens / budget.daily_tokens : 0;
      const byUsd = budget.daily_usd ? p.usd / budget.daily_usd : 0;
      const share = Math.max(byTokens, byUsd);
      if (share < 0.8) continue;
      nearBudget.push(
        byTokens >= byUsd
          ? { person, spent: `${p.tokens.toLocaleString('en-US')} tokens`, budget: `${budget.daily_tokens!.toLocaleString('en-US')} tokens`, percent: Math.round(share * 100) }
          : { person, spent: formatUsd(p.usd), budget: formatUsd(budget.daily_usd!), percent: Math.round(share * 100) },
      );
    }
  }
  nearBudget.sort((a, b) => b.percent - a.percent);
  return { todayUsd, todaySavedUsd, nearBudget };
}

function summary(s: SessionRecord, costs: ConsoleCosts | undefined): SessionSummary {
  const u = s.usage;
  const price = costs?.prices(s.model ?? costs.defaultModel);
  return {
    id: s.id,
    platform: s.platform,
    user: s.address.userId,
    chat: s.address.chatId,
    thread: s.address.threadId ?? null,
    person: s.personKey,
    startedAt: iso(s.startedAt),
    lastActiveAt: iso(s.lastActiveAt),
    ended: s.endedAt === null ? null : `${iso(s.endedAt)}${s.endReason ? ` (${s.endReason})` : ''}`,
    requests: s.requests,
    tokens: { input: u.inputTokens, output: u.outputTokens, cached: u.cachedTokens, total: u.inputTokens + u.outputTokens },
    cacheHitRate: rate(u.cachedTokens, u.inputTokens),
    cost: price ? costOf(u, price) : null,
  };
}

const pageSizeOf = (deps: ConsoleDeps) => deps.pageSize ?? 50;

export async function sessions(deps: ConsoleDeps, page: number): Promise<Page<SessionSummary>> {
  const size = pageSizeOf(deps);
  const [rows, total] = await Promise.all([deps.store.sessions.page((page - 1) * size, size + 1), deps.store.sessions.count()]);
  return { page, pageSize: size, total, hasNext: rows.length > size, items: rows.slice(0, size).map((r) => summary(r, deps.costs)) };
}

export async function session(deps: ConsoleDeps, id: string, page: number): Promise<SessionDetail | null> {
  const s = await deps.store.sessions.get(id);
  if (!s) return null;
  const size = pageSizeOf(deps);
  // One row more than the page tells whether there is a next one, without counting the session.
  const lines: TranscriptLine[] = await deps.store.messages.transcript(s.id, s.personKey, { offset: (page - 1) * size, limit: size + 1 });
  const slice = lines.slice(0, size);
  // The transcript as the model receives it: the requests pass the same redactor (src/core/secrets).
  const shown = redactTranscript(
    await Promise.all(slice.map(async (l) => ({ id: l.id, role: l.role, content: l.content, at: iso(l.createdAt), attachments: await attachmentsOf(deps, l) }))),
    createRedactor(deps.secrets),
  );
  const guardNotes = promptGuardNotes(s.promptLayers);
  if (shown.redacted) guardNotes.push(`${shown.redacted} ${shown.redacted === 1 ? 'secret' : 'secrets'} redacted in the messages on this page`);
  return {
    guardNotes,
    session: { ...summary(s, deps.costs), model: s.model, promptSha256: s.promptSha256, promptChars: s.prompt.length, promptRebuilds: s.promptRebuilds },
    layers: s.promptLayers.map((l) => ({ name: l.name, chars: l.text.length, text: l.text })),
    transcript: {
      page,
      pageSize: size,
      total: null,
      hasNext: lines.length > size,
      items: shown.items,
    },
  };
}

/** A transcript line's attachments: its images (thumbnails while the store has them), then its other files. */
async function attachmentsOf(deps: ConsoleDeps, line: TranscriptLine): Promise<AttachmentView[]> {
  const direction = line.role === 'user' ? 'in' : 'out';
  const stored = async (id: string | undefined, mime: string) =>
    id && isMediaId(id) && mime.startsWith('image/') && (await deps.store.media.stat(id)) ? thumbnailPath(id) : null;
  const images = (line.media ?? []).map(async (m): Promise<AttachmentView> => ({ kind: 'image', name: m.name, type: m.mime, bytes: m.bytes, direction, thumbnail: await stored(m.id, m.mime) }));
  const files = (line.files ?? []).map(async (f): Promise<AttachmentView> => ({ kind: f.kind, name: f.name, type: f.mime, bytes: f.bytes, direction, thumbnail: await stored(f.id, f.mime) }));
  return Promise.all([...images, ...files]);
}

export async function cronJobs(deps: ConsoleDeps): Promise<CronRow[]> {
  const jobs = await deps.store.cron.list();
  const next = deps.cron.nextRuns();
  return jobs.map((j) => {
    const at = next.get(j.id);
    return {
      id: j.id,
      source: j.source,
      owner: j.owner,
      schedule: j.schedule,
      timezone: j.timezone,
      deliver: formatAddress(j.deliver),
      paused: j.paused,
      nextRunAt: j.paused || at === undefined || at === null ? null : iso(at),
      lastRunAt: j.lastRunAt === null ? null : iso(j.lastRunAt),
      lastStatus: j.lastStatus,
      lastResult: j.lastResult,
    };
  });
}

function parked(item: OutboxItem): ParkedReply {
  const text = item.message.subject ?? item.message.chunks[0] ?? '';
  return {
    id: item.id,
    // Only the address: a target's extra fields may hold a Slack response_url.
    to: formatAddress(item.target),
    session: item.sessionKey,
    createdAt: iso(item.createdAt),
    attempts: item.attempts,
    lastError: item.lastError,
    chunks: item.message.chunks.length,
    preview: text.length > 200 ? `${text.slice(0, 200)}…` : text,
  };
}

export async function outbox(deps: ConsoleDeps, page: number): Promise<Page<ParkedReply> & { pending: number }> {
  const size = pageSizeOf(deps);
  const [rows, counts] = await Promise.all([deps.store.outbox.parked((page - 1) * size, size + 1), deps.store.outbox.counts()]);
  return { page, pageSize: size, total: counts.failed, hasNext: rows.length > size, items: rows.slice(0, size).map(parked), pending: counts.pending };
}

export async function pairing(deps: ConsoleDeps): Promise<PairingRow[]> {
  const now = (deps.now ?? (() => new Date()))().getTime();
  return (await deps.store.pairing.list(now)).map((p) => ({ code: p.code, platform: p.platform, userId: p.userId, expiresAt: iso(p.expiresAt) }));
}
