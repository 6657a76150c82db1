/**
 * `npm run bench`: every benchmark on the loopback fakes, one table (each figure with its unit, and the
 * machine it ran on), `bench/results.json`, and the same table as the README's "Benchmark" section.
 *
 * Options: `--no-readme` leaves README.md alone; `--from-results` only rewrites the README table from
 * bench/results.json; `--skip=gateway,prompt,render,search,footprint,dbsize,console,streaming,instances,bespoke`
 * leaves sections out; `--only=console` (a comma list) runs just those sections and writes
 * bench/results.<sections>.json only (the README table and bench/results.json stay those of the last whole run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { benchGateway, type GatewayBench } from './gateway.js';
import { benchFootprint, type FootprintBench } from './footprint.js';
import { benchPrompt, type PromptBench } from './prompt.js';
import { benchSearch, type SearchBenchResult } from './search.js';
import { benchDbSize, type DbSizeBench } from './dbsize.js';
import { benchConsole, type ConsoleBench } from './console.js';
import { benchApprovals, type ApprovalsBench } from './approvals.js';
import { benchStreaming, type StreamingBench } from './streaming.js';
import { benchInstances, type InstancesBench } from './instances.js';
import { benchPgPath, type PgPathBench } from './pgpath.js';
import { benchBespoke, type BespokeBench } from './bespoke.js';
import { benchMcp, type McpBench } from './mcp.js';
import { benchMedia, type MediaBench } from './media.js';
import { machine, round, type Machine } from './util.js';
import type { RenderStallRow } from './render.js';

interface Row {
  section: string;
  figure: string;
  value: string;
  unit: string;
}

interface RenderRow {
  name: string;
  format: string;
  docsPerSec: number;
  validPct: number;
  intactPct: number;
}

interface Results {
  date: string;
  machine: Machine;
  totalSeconds: number;
  gateway?: GatewayBench;
  prompt?: PromptBench;
  render?: RenderRow[] | { unavailable: string };
  renderStall?: RenderStallRow[];
  search?: SearchBenchResult;
  footprint?: FootprintBench;
  dbsize?: DbSizeBench;
  console?: ConsoleBench;
  streaming?: StreamingBench;
  instances?: InstancesBench;
  pgpath?: PgPathBench;
  bespoke?: BespokeBench;
  mcp?: McpBench;
  approvals?: ApprovalsBench;
  media?: MediaBench;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const SECTIONS = ['gateway', 'prompt', 'render', 'search', 'footprint', 'dbsize', 'console', 'streaming', 'instances', 'bespoke', 'mcp', 'approvals', 'pgpath', 'media'];
const only = (args.find((a) => a.startsWith('--only='))?.slice(7) ?? '').split(',').filter(Boolean);
const skip = new Set([...(args.find((a) => a.startsWith('--skip='))?.slice(7) ?? '').split(',').filter(Boolean), ...(only.length ? SECTIONS.filter((s) => !only.includes(s)) : [])]);
const log = (line: string) => process.stderr.write(`${line}\n`);
const n = (v: number, digits = 2) => v.toLocaleString('en-US', { maximumFractionDigits: digits });

/** The render benchmark is optional: it reports "unavailable" rather than failing the run. */
async function renderBench(): Promise<RenderRow[] | { unavailable: string }> {
  try {
    const mod = (await import('./render.js')) as { benchRender?: () => Promise<unknown> };
    if (typeof mod.benchRender !== 'function') return { unavailable: 'bench/render.ts has no benchRender()' };
    const rows = await mod.benchRender();
    if (!Array.isArray(rows)) return { unavailable: 'benchRender() did not return rows' };
    return rows as RenderRow[];
  } catch (error) {
    return { unavailable: (error instanceof Error ? error.message : String(error)).split('\n')[0] };
  }
}

function rows(r: Results): Row[] {
  const out: Row[] = [];
  const add = (section: string, figure: string, value: string, unit: string) => out.push({ section, figure, value, unit });
  const g = r.gateway;
  if (g) {
    const t = g.throughput;
    add('Throughput', `Switchboard through Telegram (${t.users} users, 1 message in flight each, instant model)`, n(t.switchboardPerSec, 0), 'messages/s');
    add('Throughput', 'bare grammY echo bot, same fake server and load', n(t.echoPerSec, 0), 'messages/s');
    add('Throughput', 'ratio Switchboard / echo bot (goal ≥ 0.5)', n(t.ratio), '×');
    if (t.modelBotPerSec !== undefined) {
      add('Throughput', 'bare grammY bot that makes the same streamed model call and replies, storing nothing (the floor of any gateway with a model)', n(t.modelBotPerSec, 0), 'messages/s');
      add('Throughput', 'ratio of that bot / echo bot (the most any gateway with a model can reach here)', n(t.modelBotRatio), '×');
      add('Throughput', 'ratio Switchboard / that bot (what journal, sessions, history, prompt, rendering and outbox leave)', n(t.ofModelBot), '×');
    }
    add('Overhead', `gateway time per message, p50 (pushed → delivered − model time; ${g.overhead.messages} sequential; goal ≤ 1)`, n(g.overhead.p50Ms), 'ms');
    add('Overhead', 'gateway time per message, p99 (goal ≤ 5)', n(g.overhead.p99Ms), 'ms');
    add('Overhead', 'model call (instant fake), p50', n(g.overhead.modelP50Ms), 'ms');
    const c = g.concurrency;
    add('Concurrency', `${n(c.sessions, 0)} sessions × ${c.messagesPerSession} messages sent at once`, n(c.perSec, 0), 'messages/s');
    add('Concurrency', 'sessions answered in order, every message once', `${n(c.sessionsInOrder, 0)} / ${n(c.sessions, 0)}`, 'sessions');
    add('Concurrency', 'answers sent (waiting messages answered together)', n(c.answers, 0), 'answers');
    add('Prompt', `prefix reuse over a ${g.prefix.turns}-turn conversation, mean (min)`, `${n(g.prefix.meanRatio * 100, 2)} (${n(g.prefix.minRatio * 100, 2)})`, '%');
    add('Prompt', 'input tokens served from the (simulated) prefix cache', n(g.prefix.cachedShare * 100, 1), '%');
  }
  if (r.prompt) {
    add('Prompt', `build from scratch (${r.prompt.skills} skills, ${n(r.prompt.contextFileChars, 0)}-char context file)`, n(r.prompt.buildMs, 3), 'ms');
    add('Prompt', 'reuse of the cached prompt (read back from SQLite)', n(r.prompt.reuseMs, 3), 'ms');
    add('Prompt', 'build / reuse', n(r.prompt.speedup, 1), '×');
    add('Prompt', 'threat scan of 1 MB of mixed text (incl. backtracking bait)', n(r.prompt.scanMbMs, 1), 'ms');
    for (const h of ['dev', 'holdout'] as const) {
      const t = r.prompt.redteam[h];
      add('Prompt', `red-team corpus, ${h} half: attacks blocked / benign passed`, `${t.blocked}/${t.attacks} · ${t.passed}/${t.benign}`, 'texts');
    }
  }
  if (r.render) {
    if ('unavailable' in r.render) add('Render', 'renderer benchmark', 'unavailable', r.render.unavailable);
    else for (const row of r.render) add('Render', `${row.name} (${row.format}); valid ${n(row.validPct, 1)}%, intact ${n(row.intactPct, 1)}%`, n(row.docsPerSec, 0), 'documents/s');
  }
  for (const row of r.renderStall ?? []) {
    add('Render', `event-loop stall rendering a ${n(row.chars / 1000, 0)} KB ordinary answer for ${row.platform}, ${{ worker: 'as the gateway does (render worker)', inline: 'inline (for comparison)', idle: 'the loop idle as long (the machine\'s floor)' }[row.mode]}, p50 / p95 / max of ${row.renders}${row.mode === 'worker' ? ' (goal: max ≤ 100)' : ''}`, `${n(row.p50Ms, 1)} / ${n(row.p95Ms, 1)} / ${n(row.maxMs, 1)}`, 'ms');
  }
  if (r.search) {
    const s = r.search;
    add('Search', `session_search over ${n(s.messages, 0)} messages (${n(s.users, 0)} users), p50`, n(s.p50Ms), 'ms');
    add('Search', 'session_search, p95', n(s.p95Ms), 'ms');
    add('Search', `request bytes with / without compression over ${s.compression.withCompression.turns} turns`, n(s.compression.requestBytesRatio, 3), '×');
  }
  if (r.footprint) {
    const f = r.footprint;
    add('Footprint', 'cold start of `switchboard start` (compiled dist/) to ready, Telegram, Slack, Discord, median (goal ≤ 700)', n(f.coldStartMs, 0), 'ms');
    add('Footprint', `resident memory at ready, all three chat doors connected, 0.5 s after the ready line, median of ${f.starts} starts (goal ≤ 110)`, n(f.rssReadyMiB, 1), 'MiB');
    if (f.rssIdleMiB !== undefined) add('Footprint', 'the same, idle 30 s later (after V8\'s memory reducer)', n(f.rssIdleMiB, 1), 'MiB');
    for (const c of f.checkpoints) add('Footprint', `resident memory after ${n(c.messages, 0)} messages${c.messages === f.messages ? ` (${n(f.perSec, 0)} messages/s; goal ≤ 150)` : ''}`, n(c.rssMiB, 1), 'MiB');
    if (f.checkpoints.length > 1 && f.checkpoints.every((c) => c.perSec !== undefined)) add('Footprint', `rate of the first and of the last ${n(f.checkpoints[0].messages, 0)} messages (sessions ${n(f.checkpoints[0].messages / 100, 0)} and ${n(f.messages / 100, 0)} turns long)`, `${n(f.checkpoints[0].perSec, 0)} / ${n(f.checkpoints.at(-1)!.perSec, 0)}`, 'messages/s');
    add('Footprint', 'growth from the next-to-last to the last checkpoint (goal ≤ 15)', n(f.growthLast10kMiB, 1), 'MiB');
    if (f.rssAfterIdleMiB !== undefined) add('Footprint', 'resident memory idle 30 s after the last message (what the messages left behind)', n(f.rssAfterIdleMiB, 1), 'MiB');
    if (f.rssAfterLongIdleMiB !== undefined) add('Footprint', 'the same, idle 90 s after the last message (V8\'s memory reducer may wait that long after a load)', n(f.rssAfterLongIdleMiB, 1), 'MiB');
    if (f.smallBox && 'skipped' in f.smallBox) add('Footprint', 'the same load in a 512 MiB memory cgroup (a small VPS)', `skipped: ${f.smallBox.skipped}`, '—');
    else if (f.smallBox) {
      const b = f.smallBox;
      add('Footprint', `resident memory in a ${b.limitMiB} MiB memory cgroup (a small VPS: Node sizes V8's heap to the limit), at ready / after ${b.checkpoints.map((c) => n(c.messages, 0)).join(' / after ')} messages`, [b.rssReadyMiB, ...b.checkpoints.map((c) => c.rssMiB)].map((v) => n(v, 1)).join(' / '), 'MiB');
      const step = n(b.checkpoints[0]?.messages ?? 0, 0);
      add('Footprint', `the same: growth over the last ${step} messages`, n(b.growthLast10kMiB, 1), 'MiB');
      add('Footprint', `the same: rate of the first and of the last ${step} messages`, b.checkpoints.map((c) => n(c.perSec, 0)).join(' / '), 'messages/s');
    }
  }
  if (r.dbsize) {
    const d = r.dbsize;
    const at = (k: number) => d.checkpoints.find((c) => c.messages === k);
    for (const k of [10_000, 50_000, d.messages]) {
      const c = at(k);
      if (c) add('Database', `state.db + WAL after ${n(k, 0)} messages (day ${n(c.day, 0)} of ${d.simulatedDays}; ${n(c.messagesRows, 0)} message rows, ${n(c.inboundRows, 0)} journal rows)`, n(c.mb, 1), 'MB');
    }
    add('Database', `spread of the size once retention (${d.retentionDays} days) applies, from day ${d.retentionDays + 1} on (flat: ≈ 0)`, n(d.flatSpreadMb, 1), 'MB');
  }
  if (r.approvals) {
    const a = r.approvals;
    add('Approvals', `button press (Telegram callback_query) to the tool call, p50 / p95 over ${a.rounds} presses (goal p95 ≤ 500)`, `${n(a.p50Ms)} / ${n(a.p95Ms)}`, 'ms');
  }
  if (r.console) {
    const c = r.console;
    for (const p of c.pages) add('Console', `${p.path} with ${n(c.sessions, 0)} sessions and ${n(c.messages, 0)} messages, p50 / p95 (goal p95 < 100)`, `${n(p.p50Ms)} / ${n(p.p95Ms)}`, 'ms');
    add('Console', 'first overview of a fresh console (reads the whole week; then only today, the past days kept 5 minutes)', n(c.coldOverviewMs), 'ms');
    add('Console', 'resident memory of `start` (compiled, terminal + e-mail doors) at ready, console off / on', `${n(c.rss.offReadyMiB, 1)} / ${n(c.rss.onReadyMiB, 1)}`, 'MiB');
    add('Console', 'the same after 30 messages through the model, console off / on and every page requested 20 times', `${n(c.rss.offMiB, 1)} / ${n(c.rss.onAfterPagesMiB, 1)}`, 'MiB');
    add('Console', `memory the console adds to \`start\` once used, median (goal ≤ 10; per run ${c.rss.perRunAddedMiB.map((v) => n(v, 1)).join(', ')})`, n(c.rss.addedMiB, 1), 'MiB');
    add('Console', 'the same with V8\'s young generation capped in both (--max-semi-space-size=1): what the console keeps', n(c.rss.cappedAddedMiB, 1), 'MiB');
  }
  if (r.streaming) {
    const s = r.streaming;
    const at = `${s.answers} answers in ${s.chats} Telegram chats (drafts and edits), model at ${s.tokensPerSecond} tokens/s`;
    add('Streaming', `model's first token → first visible update, p50 (${at})`, n(s.firstUpdateP50Ms, 0), 'ms');
    add('Streaming', "model's first token → first visible update, p95 (goal ≤ 1,200)", n(s.firstUpdateP95Ms, 0), 'ms');
    add('Streaming', `updates per second per chat, at most (shortest gap ${n(s.minGapMs, 0)} ms; limit 1)`, n(s.maxUpdatesPerSecond, 2), 'updates/s');
    add('Streaming', "model's last token → finished answer at the platform, p50", n(s.finalP50Ms, 0), 'ms');
    add('Streaming', "model's last token → finished answer at the platform, p95 (goal ≤ 300)", n(s.finalP95Ms, 0), 'ms');
  }
  if (r.instances) {
    const i = r.instances;
    add('Instances', `Slack HTTP through PostgreSQL, 1 instance (${i.scaleOut.users} users, 1 message in flight each, instant model)`, n(i.scaleOut.onePerSec, 0), 'messages/s');
    add('Instances', 'same load spread over 3 instances', n(i.scaleOut.threePerSec, 0), 'messages/s');
    add('Instances', `scale-out 3 ÷ 1 instances (goal ≥ 2.5; everything on ${i.cores} cores)`, n(i.scaleOut.ratio), '×');
    add('Instances', 'same, each session sticky to one instance (no lease hand-over per message)', n(i.scaleOut.stickyRatio), '×');
    add('Instances', `failover: SIGKILL of the Telegram door holder → a message sent then is answered, p50 of ${i.failover.trialsMs.length} (lease ${i.failover.leaseSeconds} s; goal ≤ 30)`, n(i.failover.p50Ms / 1000, 1), 's');
    add('Instances', `session_search over ${n(i.search.messages, 0)} messages on PostgreSQL, p95 (goal < 10)`, n(i.search.p95Ms), 'ms');
    if (i.handover) {
      const h = i.handover;
      add('Instances', `SIGTERM of the Telegram door holder → the standby polls, worst of ${h.polledMs.length} (lease ${h.leaseSeconds} s; goal within one heartbeat, ${n(h.heartbeatMs / 1000, 1)} s)`, n(h.maxMs / 1000, 1), 's');
    }
    if (i.rolling) {
      const r2 = i.rolling;
      add('Instances', `rolling restart of ${r2.instances} instances under steady Slack traffic (${r2.users} conversations, ${n(r2.sent, 0)} messages): lost / doubled (goal 0 / 0)`, `${r2.lost} / ${r2.doubled}`, 'messages');
      add('Instances', 'same: answers out of the order their conversation sent them (goal 0)', n(r2.outOfOrder, 0), 'answers');
    }
  }
  if (r.pgpath) {
    const p = r.pgpath;
    const at = `Slack HTTP, 1 instance, ${p.users} users, 1 message in flight each, instant model`;
    add('PostgreSQL path', `1 instance on PostgreSQL / on SQLite (${at})`, `${n(p.postgresPerSec, 0)} / ${n(p.sqlitePerSec, 0)}`, 'messages/s');
    add('PostgreSQL path', 'PostgreSQL ÷ SQLite, same door and load, one run (goal ≥ 0.5)', n(p.ratio), '×');
    add('PostgreSQL path', 'round trips to PostgreSQL per answered message (statements and transactions, counted on the wire)', n(p.roundTripsPerMessage, 1), 'trips');
  }
  if (r.bespoke) bespokeRows(r.bespoke, add);
  if (r.mcp) {
    const m = r.mcp;
    add('MCP', `stdio tool call through the gateway, round trip p95 (smallest server; ${n(m.calls, 0)} calls)`, n(m.totalP95Ms), 'ms');
    add('MCP', `same, the gateway's own time (round trip minus the server's), p95 (goal ≤ 5; load average ${n(m.loadAverage, 1)} while it ran)`, n(m.gatewayP95Ms), 'ms');
    add('MCP', "same: the gateway's CPU time per call", n(m.gatewayCpuPerCallMs, 3), 'ms');
    add('MCP', `${m.servers} servers with ${m.tools} tools, in process: time hub.begin() holds the gateway's start (the spawns are spread over the event loop)`, n(m.startMs, 0), 'ms');
    add('MCP', 'same: until all listed their tools, first start (a first session waits for it; the servers\' own start and the spawns, side by side)', n(m.allReadyMs, 0), 'ms');
    add('MCP', 'same: CPU time of the gateway until then', n(m.startCpuMs, 0), 'ms');
    add('MCP', `same: resident memory added to the gateway, without the servers' processes (goal ≤ 30)`, n(m.addedRssMiB, 1), 'MiB');
    if (m.start) {
      const { baseline: b, cold: c, warm: w } = m.start;
      add('MCP', `\`switchboard start\` (compiled, Telegram) spawn → ready line, without MCP / 20 servers first start / restart (load average ${n(m.loadAverage, 1)})`, `${n(b.readyMs, 0)} / ${n(c.readyMs, 0)} / ${n(w.readyMs, 0)}`, 'ms');
      add('MCP', 'same: spawn → the first session\'s model request (a message sent at the ready line) with all tools, without MCP / first start / restart', `${n(b.firstRequestMs, 0)} / ${n(c.firstRequestMs, 0)} / ${n(w.firstRequestMs, 0)}`, 'ms');
      add('MCP', 'same: time 20 servers add to the first request, first start (lists read from the servers) / restart (lists kept in mcp-tools.json; goal ≤ 1 s)', `${n(c.firstRequestMs - b.firstRequestMs, 0)} / ${n(w.firstRequestMs - b.firstRequestMs, 0)}`, 'ms');
      add('MCP', "same: the gateway process's CPU time until that request, without MCP / first start / restart", `${n(b.cpuMs, 0)} / ${n(c.cpuMs, 0)} / ${n(w.cpuMs, 0)}`, 'ms');
    }
  }
  if (r.media) {
    const m = r.media;
    const load = `load average ${n(m.loadAverage, 1)} while it ran`;
    add('Media', `photo (4 MP JPEG, ${n(m.photoBytes / 1e6, 1)} MB) from the Telegram update to the model request: fetch, sniff, re-encode, store, request; p50 / p95 over ${m.photos} (goal p95 ≤ 300; ${load})`, `${n(m.photoP50Ms, 0)} / ${n(m.photoP95Ms, 0)}`, 'ms');
    if ('skipped' in m.voice) add('Media', 'voice note 10 s: gateway time around the transcription backend', `skipped: ${m.voice.skipped}`, '—');
    else add('Media', `voice note ${m.voice.seconds} s (OGG/Opus): update to model request minus the transcription backend's own time, p50 / p95 over ${m.voice.notes} (goal p95 ≤ 200)`, `${n(m.voice.p50Ms, 0)} / ${n(m.voice.p95Ms, 0)}`, 'ms');
    add('Media', `resident memory of the gateway after ${m.memory.photos} more photos (each its own session), growth after gc (goal ≤ 40; ${n(m.memory.beforeMiB, 0)} → ${n(m.memory.afterMiB, 0)})`, n(m.memory.growthMiB, 1), 'MiB');
    add('Media', `${m.pdf.pages}-page PDF to text (${n(m.pdf.chars, 0)} chars) in the bench's process, pdf.js imported first and timed apart: the first / median of 5 more (goal ≤ 1,000)`, `${n(m.pdf.firstMs, 0)} / ${n(m.pdf.warmMs, 0)}`, 'ms');
    add('Media', 'same: importing pdf.js in that process before the first', n(m.pdf.loadMs, 0), 'ms');
    if ('skipped' in m.pdfFirst) add('Media', 'the first PDF in a fresh process', `skipped: ${m.pdfFirst.skipped}`, '—');
    else {
      add('Media', `the first ${m.pdf.pages}-page PDF in a fresh process (Node on dist/): with pdf.js loaded and warmed beforehand / loading pdf.js with it, as the gateway does (it loads pdf.js when a turn holds a document); median of 3 processes (goal ≤ 1,000)`, `${n(m.pdfFirst.warmedMs, 0)} / ${n(m.pdfFirst.coldMs, 0)}`, 'ms');
      add('Media', 'same: that warm-up (load pdf.js and its worker code, read a 10-page PDF), which the gateway does not do (it would hold pdf.js in every gateway)', n(m.pdfFirst.warmUpMs, 0), 'ms');
    }
    add('Media', `request bytes of an earlier image on later turns (its ${n(m.laterTurns.partBytes, 0)}-byte part in the 1st and 3rd request; goal identical)`, m.laterTurns.identical ? 'identical' : 'different', '—');
  }
  return out;
}

/** Bespoke code against its library (docs/bespoke.md): CPU per unit and RSS, side by side, medians of the rounds. */
function bespokeRows(b: BespokeBench, add: (section: string, figure: string, value: string, unit: string) => void): void {
  const pace = `${b.pace.ttftMs} ms to the first token, then ${b.pace.tokensPerSecond} tokens/s`;
  add('Bespoke', `the gateway's CPU per message, whole pipeline at the instant model (the 10 % rule's yardstick)`, n(b.gatewayCpuUsPerMessage, 0), 'µs');
  for (const c of b.comparisons) {
    const names = Object.keys(c.sides);
    const realistic = c.piece === 'fetch' ? `Bot API answering in ${b.botApiMs} ms` : c.piece === 'abort-controller' ? 'turns as long as such a model call, 200 at a time' : pace;
    const at = c.pace === 'realistic' ? realistic : c.piece === 'cron' ? '' : 'instant';
    const head = `${c.piece}: ${names.join(' / ')}${at ? ` (${at})` : ''}; median of ${b.rounds} rounds`;
    add('Bespoke', `${head}, CPU per ${c.unit}`, names.map((k) => n(c.sides[k].cpuUs, 1)).join(' / '), 'µs');
    add('Bespoke', `${head}, RSS / old space after the calls`, names.map((k) => `${n(c.sides[k].rssMiB, 1)} / ${n(c.sides[k].oldSpaceMiB, 1)}`).join(' · '), 'MiB');
  }
}

function table(r: Results): string {
  const m = r.machine;
  const lines = [
    `Machine: ${m.cpu}, ${m.cores} cores, ${n(m.memoryGiB, 1)} GiB, Node ${m.node} (${m.platform}); ${r.date.slice(0, 10)}; whole run ${n(r.totalSeconds, 0)} s.`,
    '',
    '| section | figure | value | unit |',
    '|---|---|---:|---|',
    ...rows(r).map((x) => `| ${x.section} | ${x.figure.replace(/\|/g, '\\|')} | ${x.value} | ${x.unit.replace(/\|/g, '\\|')} |`),
  ];
  return lines.join('\n');
}

/** Replaces the README's trailing "## Benchmark" section, or appends one. */
/** Where to read how the figures are made (the method is in docs/ARCHITECTURE.md §19, not in the README). */
const NOTES = `
How to read it — what each run does, on what load, and what bounds its figures: [docs/ARCHITECTURE.md §19](docs/ARCHITECTURE.md#19-the-benchmark-method-and-how-to-read-it).
`;

function updateReadme(text: string): void {
  const path = `${root}README.md`;
  const readme = readFileSync(path, 'utf8');
  const section = `## Benchmark\n\n\`npm run bench\` (loopback fakes; figures from the last run, also in \`bench/results.json\`):\n\n${text}\n${NOTES}`;
  const at = readme.search(/^## Benchmark\s*$/m);
  let next: string;
  if (at < 0) next = `${readme.replace(/\s*$/, '')}\n\n${section}`;
  else {
    const rest = readme.slice(at + 1);
    const end = rest.search(/^## /m);
    next = readme.slice(0, at) + section + (end < 0 ? '' : `\n${rest.slice(end)}`);
  }
  writeFileSync(path, next);
}

if (args.includes('--from-results')) {
  // Rewrites the README table from bench/results.json without running anything.
  updateReadme(table(JSON.parse(readFileSync(`${root}bench/results.json`, 'utf8')) as Results));
  process.exit(0);
}

const started = performance.now();
const results: Results = { date: new Date().toISOString(), machine: machine(), totalSeconds: 0 };
log(`bench on ${results.machine.cpu} (${results.machine.cores} cores), Node ${results.machine.node}`);
if (!skip.has('gateway')) results.gateway = await benchGateway(log);
if (!skip.has('prompt')) {
  log('prompt: build vs. reuse…');
  results.prompt = await benchPrompt();
}
if (!skip.has('render')) {
  log('render: documents per second per format…');
  results.render = await renderBench();
  log('render: event-loop stall while rendering 30 KB and 100 KB answers…');
  results.renderStall = await ((await import('./render.js')) as typeof import('./render.js')).benchRenderStall();
}
if (!skip.has('search')) {
  log('search: session_search and compression…');
  results.search = await benchSearch();
}
if (!skip.has('footprint')) {
  log('footprint: cold start and memory of switchboard start (compiled)…');
  results.footprint = await benchFootprint(log);
}
if (!skip.has('dbsize')) {
  log('dbsize: database size over 100,000 messages with retention…');
  results.dbsize = await benchDbSize(log);
}
if (!skip.has('console')) {
  log('console: pages on 1,000 sessions / 100,000 messages, and the memory it adds to start…');
  results.console = await benchConsole(log);
}
if (!skip.has('streaming')) {
  log('streaming: partial answers at 50 tokens/s…');
  results.streaming = await benchStreaming(log);
}
if (!skip.has('instances')) {
  log('instances: scale-out, failover and search on PostgreSQL…');
  results.instances = await benchInstances(log);
}
if (!skip.has('pgpath')) {
  log('pgpath: one instance on PostgreSQL and on SQLite, same door and load, round trips per message…');
  results.pgpath = await benchPgPath(log);
}
if (!skip.has('bespoke')) {
  log('bespoke: hand-written pieces against their libraries at a realistic model pace…');
  results.bespoke = await benchBespoke(log);
}
if (!skip.has('mcp')) {
  log('mcp: a stdio tool call, and 20 servers with 200 tools…');
  results.mcp = await benchMcp(log);
}
if (!skip.has('approvals')) {
  log('approvals: button press to tool call through the Telegram fake…');
  results.approvals = await benchApprovals(log);
}
if (!skip.has('media')) {
  log('media: photos, voice notes and a PDF through the Telegram fake…');
  results.media = await benchMedia(log);
}
results.totalSeconds = round((performance.now() - started) / 1000, 1);

const text = table(results);
process.stdout.write(`\n${text}\n`);
const file = only.length ? `results.${only.join('+')}.json` : 'results.json';
writeFileSync(`${root}bench/${file}`, `${JSON.stringify(results, null, 2)}\n`);
const readme = !args.includes('--no-readme') && !only.length;
if (readme) updateReadme(text);
log(`wrote bench/${file}${readme ? ' and the README Benchmark section' : ''}`);
