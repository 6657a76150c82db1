/** The console's pages: plain server-rendered HTML, forms for actions, no script. */
import { formatUsd } from '../core/cost/pricing.js';
import { html, type Markup } from './html.js';
import { activityChart } from './chart.js';
import type { AttachmentView, CronRow, Overview, Page, PairingRow, ParkedReply, SessionDetail, SessionSummary } from './data.js';
import { formatSize } from '../core/media/parts.js';

export interface PageContext {
  /** The CSRF token for this login's forms. */
  csrf: string;
  /** One line to show on top (the result of an action). */
  notice?: { ok: boolean; text: string };
}

const NAV: Array<[string, string]> = [
  ['/', 'Overview'],
  ['/sessions', 'Sessions'],
  ['/cron', 'Cron'],
  ['/outbox', 'Outbox'],
  ['/pairing', 'Pairing'],
  ['/approvals', 'Approvals'],
];

export function layout(title: string, current: string, body: Markup, ctx?: PageContext): string {
  const nav = NAV.map(([href, label]) => html`<a href="${href}"${current === href ? html` aria-current="page"` : ''}>${label}</a>`);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Switchboard</title><link rel="stylesheet" href="/static/console.css"></head>
<body><header><strong>Switchboard</strong><nav>${nav}</nav></header>
<main>${ctx?.notice ? html`<p class="notice ${ctx.notice.ok ? 'ok' : 'bad'}" role="status">${ctx.notice.text}</p>` : ''}<h1>${title}</h1>
${body}</main></body></html>`.text;
}

export function loginPage(failed: boolean): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Log in · Switchboard</title><link rel="stylesheet" href="/static/console.css"></head>
<body><main class="login"><h1>Switchboard console</h1>
${failed ? html`<p class="notice bad">That token is not right.</p>` : ''}
<p>Open the login link printed by <code>switchboard start</code>, or paste the token (<code>SWITCHBOARD_CONSOLE_TOKEN</code>, else the file <code>console.token</code> in the data folder).</p>
<form method="get" action="/login"><label>Token <input type="password" name="token" autocomplete="off" required></label> <button>Log in</button></form>
</main></body></html>`.text;
}

const pct = (r: number | null) => (r === null ? '—' : `${Math.round(r * 100)} %`);
const num = (n: number) => n.toLocaleString('en-US');
const when = (iso: string | null) => (iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').slice(0, 16)}</time>` : '—');

function csrfField(ctx: PageContext): Markup {
  return html`<input type="hidden" name="csrf" value="${ctx.csrf}">`;
}

function action(ctx: PageContext, path: string, label: string, name?: string): Markup {
  return html`<form method="post" action="${path}" class="inline">${csrfField(ctx)}<button${name ? html` name="do" value="${name}"` : ''}>${label}</button></form>`;
}

/** Page links; lists run newest first, a transcript oldest first (`labels`). */
function pager(base: string, p: Page<unknown>, labels: [string, string] = ['← newer', 'older →']): Markup {
  const pages = p.total === null ? null : Math.max(1, Math.ceil(p.total / p.pageSize));
  return html`<nav class="pager">${p.page > 1 ? html`<a href="${base}?page=${p.page - 1}" rel="prev">${labels[0]}</a>` : ''}
<span>page ${p.page}${pages && p.page <= pages ? ` of ${pages}` : pages ? ` (there are ${pages})` : ''}</span>${p.hasNext ? html`<a href="${base}?page=${p.page + 1}" rel="next">${labels[1]}</a>` : ''}</nav>`;
}

export function overviewPage(o: Overview, ctx: PageContext): string {
  const doors = o.doors.length
    ? html`<table><thead><tr><th>Door</th><th>State</th><th>Detail</th></tr></thead><tbody>${o.doors.map(
        (d) => html`<tr><td>${d.platform}</td><td><span class="state ${d.state}">${d.state}</span></td><td>${d.detail ?? ''}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No door runs in this process (<code>switchboard console</code> serves the console alone).</p>`;
  return layout(
    'Overview',
    '/',
    html`<section class="cards">
<div class="card"><span>Messages today</span><strong id="messages-today">${num(o.today.messages)}</strong></div>
<div class="card"><span>Prompt-cache hit rate today</span><strong id="cache-today">${pct(o.today.cacheHitRate)}</strong></div>
<div class="card"><span>Outbox backlog</span><strong id="outbox-backlog">${num(o.outbox.pending)}</strong><a href="/outbox">${num(o.outbox.parked)} parked</a></div>
<div class="card"><span>Sessions</span><strong>${num(o.sessions)}</strong></div>${o.spending ? html`
<div class="card"><span>Model cost today (UTC)</span><strong id="cost-today">${formatUsd(o.spending.todayUsd)}</strong><small>the prompt cache saved ${formatUsd(o.spending.todaySavedUsd)}</small></div>` : ''}
</section>${o.spending?.nearBudget.length ? html`
<h2>Near their daily budget</h2><table id="near-budget"><thead><tr><th>Person</th><th>Spent today</th><th>Budget</th><th>Used</th></tr></thead><tbody>${o.spending.nearBudget.map(
      (b) => html`<tr><td>${b.person}</td><td>${b.spent}</td><td>${b.budget}</td><td class="n">${b.percent}%</td></tr>`,
    )}</tbody></table>` : ''}
<h2>Doors</h2>${doors}${o.mcp.length ? html`
<h2>MCP servers</h2><table id="mcp-servers"><thead><tr><th>Server</th><th>State</th><th>Tools</th></tr></thead><tbody>${o.mcp.map(
      (m) => html`<tr><td>${m.name} <small>${m.transport}</small></td><td><span class="state ${m.state}">${m.state}</span>${m.problem ? html` <small>${m.problem}</small>` : ''}</td><td>${m.tools.length ? m.tools.join(', ') : 'none'}</td></tr>`,
    )}</tbody></table>` : ''}
<dl class="facts"><dt>Model</dt><dd>${o.model}</dd><dt>Storage</dt><dd>${o.engine} (schema ${o.schemaVersion})</dd></dl>
<h2>Last ${o.days.length} days</h2>
<figure>${activityChart(o.days)}<figcaption><span class="key bar"></span> messages <span class="key line"></span> prompt-cache hit rate</figcaption></figure>
<table><thead><tr><th>Day</th><th>Messages</th><th>Input tokens</th><th>Cached</th><th>Hit rate</th></tr></thead><tbody>${o.days.map(
      (d) => html`<tr><td>${d.date}</td><td>${num(d.messages)}</td><td>${num(d.inputTokens)}</td><td>${num(d.cachedTokens)}</td><td>${pct(d.cacheHitRate)}</td></tr>`,
    )}</tbody></table>`,
    ctx,
  );
}

export function sessionsPage(p: Page<SessionSummary>, ctx: PageContext): string {
  const rows = p.items.map(
    (s) => html`<tr><td>${s.platform}</td><td><a href="/sessions/${encodeURIComponent(s.id)}">${s.user}</a>${s.chat !== s.user ? html` <small>in ${s.chat}</small>` : ''}</td>
<td>${when(s.lastActiveAt)}${s.ended ? html` <small>ended</small>` : ''}</td><td class="n">${num(s.tokens.total)}</td><td class="n">${pct(s.cacheHitRate)}</td><td class="n">${s.cost ? html`${formatUsd(s.cost.usd)}${s.cost.savedUsd > 0 ? html` <small>saved ${formatUsd(s.cost.savedUsd)}</small>` : ''}` : '—'}</td></tr>`,
  );
  return layout(
    'Sessions',
    '/sessions',
    html`<p>${num(p.total ?? 0)} ${p.total === 1 ? 'session' : 'sessions'}, most recently active first.</p>
<table><thead><tr><th>Platform</th><th>User</th><th>Last activity</th><th>Tokens</th><th>Cache hit rate</th><th>Cost</th></tr></thead><tbody>${rows}</tbody></table>${pager('/sessions', p)}`,
    ctx,
  );
}

/** A message's attachments: a thumbnail of each stored image (served by the console itself), then kind, name, type and size. */
function attachmentList(items: readonly AttachmentView[]): Markup | '' {
  if (!items.length) return '';
  return html`<ul class="attachments">${items.map(
    (a) =>
      html`<li class="attachment ${a.direction}">${a.thumbnail ? html`<a href="${a.thumbnail}"><img src="${a.thumbnail}" alt="${a.name}" loading="lazy"></a>` : ''}<span class="kind">${a.direction === 'in' ? 'received' : 'sent'} ${a.kind}</span> <span class="name">${a.name}</span> <small>${a.type}, ${formatSize(a.bytes)}</small></li>`,
  )}</ul>`;
}

export function sessionPage(d: SessionDetail, ctx: PageContext): string {
  const s = d.session;
  const layers = d.layers.map(
    (l) => html`<tr><td><details><summary>${l.name}</summary><pre class="layer">${l.text}</pre></details></td><td class="n">${num(l.chars)}</td></tr>`,
  );
  const lines = d.transcript.items.map(
    (m) =>
      html`<article class="msg ${m.role}"><header>${m.role === 'user' ? s.user : 'assistant'} · ${when(m.at)}</header>${m.content ? html`<div class="text">${m.content}</div>` : ''}${attachmentList(m.attachments)}</article>`,
  );
  return layout(
    `Session ${s.platform} ${s.user}`,
    '/sessions',
    html`<dl class="facts"><dt>Session</dt><dd><code>${s.id}</code></dd><dt>Chat</dt><dd>${s.chat}${s.thread ? ` (thread ${s.thread})` : ''}</dd><dt>Person</dt><dd>${s.person}</dd>
<dt>Started</dt><dd>${when(s.startedAt)}</dd><dt>Last activity</dt><dd>${when(s.lastActiveAt)}</dd>${s.ended ? html`<dt>Ended</dt><dd>${s.ended}</dd>` : ''}
<dt>Model</dt><dd>${s.model ?? 'the global model'}</dd><dt>Requests</dt><dd>${num(s.requests)}</dd>
<dt>Tokens</dt><dd>${num(s.tokens.input)} in (${num(s.tokens.cached)} cached) · ${num(s.tokens.output)} out</dd><dt>Cache hit rate</dt><dd>${pct(s.cacheHitRate)}</dd></dl>
<h2>Cached prompt</h2>
<p>${num(s.promptChars)} characters, sha256 <code>${s.promptSha256.slice(0, 16)}…</code>, rebuilt ${s.promptRebuilds} time(s).</p>
<table class="layers"><thead><tr><th>Layer</th><th>Characters</th></tr></thead><tbody>${layers}</tbody></table>
${d.guardNotes.length ? html`<h3>Guard</h3><ul class="guard-notes">${d.guardNotes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
<h2>Transcript</h2>
${lines.length ? lines : html`<p>No messages yet.</p>`}
${pager(`/sessions/${encodeURIComponent(s.id)}`, d.transcript, ['← earlier', 'later →'])}`,
    ctx,
  );
}

export function cronPage(jobs: CronRow[], ctx: PageContext): string {
  const rows = jobs.map(
    (j) => html`<tr><td><code>${j.id}</code><br><small>${j.source}${j.owner ? ` · ${j.owner}` : ''}</small></td><td><code>${j.schedule}</code>${j.timezone ? html`<br><small>${j.timezone}</small>` : ''}</td>
<td>${j.deliver}</td><td>${j.paused ? html`<span class="state stopped">paused</span>` : when(j.nextRunAt)}</td>
<td>${when(j.lastRunAt)}${j.lastStatus ? html` <span class="state ${j.lastStatus}">${j.lastStatus}</span>` : ''}${j.lastResult ? html`<br><small>${j.lastResult}</small>` : ''}</td>
<td class="actions">${action(ctx, `/cron/${encodeURIComponent(j.id)}/run`, 'Run now')}${j.paused ? action(ctx, `/cron/${encodeURIComponent(j.id)}/resume`, 'Resume') : action(ctx, `/cron/${encodeURIComponent(j.id)}/pause`, 'Pause')}</td></tr>`,
  );
  return layout(
    'Cron',
    '/cron',
    jobs.length
      ? html`<table><thead><tr><th>Job</th><th>Schedule</th><th>Delivers to</th><th>Next run</th><th>Last run</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
      : html`<p>No cron jobs (add them under <code>cron:</code> in the config, or ask the bot in chat).</p>`,
    ctx,
  );
}

export function outboxPage(p: Page<ParkedReply> & { pending: number }, ctx: PageContext): string {
  const rows = p.items.map(
    (r) => html`<tr><td>${r.id}</td><td>${r.to}</td><td>${when(r.createdAt)}</td><td class="n">${r.attempts}</td><td>${r.lastError ?? ''}</td><td><div class="preview">${r.preview}</div></td>
<td>${action(ctx, `/outbox/${r.id}/retry`, 'Retry')}</td></tr>`,
  );
  return layout(
    'Outbox',
    '/outbox',
    html`<p>${num(p.pending)} replies waiting to be sent; ${num(p.total ?? 0)} parked (out of attempts or refused for good).</p>
${rows.length ? html`<table><thead><tr><th>#</th><th>To</th><th>Created</th><th>Attempts</th><th>Last error</th><th>Reply</th><th></th></tr></thead><tbody>${rows}</tbody></table>${pager('/outbox', p)}` : html`<p>No parked replies.</p>`}`,
    ctx,
  );
}

export function pairingPage(rows: PairingRow[], ctx: PageContext): string {
  const body = rows.map(
    (r) => html`<tr><td><code>${r.code}</code></td><td>${r.platform}</td><td>${r.userId}</td><td>${when(r.expiresAt)}</td>
<td class="actions">${action(ctx, `/pairing/${encodeURIComponent(r.code)}/approve`, 'Approve')}${action(ctx, `/pairing/${encodeURIComponent(r.code)}/deny`, 'Deny')}</td></tr>`,
  );
  return layout(
    'Pairing',
    '/pairing',
    rows.length
      ? html`<table><thead><tr><th>Code</th><th>Platform</th><th>User</th><th>Expires</th><th></th></tr></thead><tbody>${body}</tbody></table>`
      : html`<p>No pairing requests are waiting.</p>`,
    ctx,
  );
}

export function errorPage(status: number, text: string): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status} · Switchboard</title><link rel="stylesheet" href="/static/console.css"></head>
<body><main><h1>${status}</h1><p>${text}</p><p><a href="/">Overview</a> · <a href="/login">Log in</a></p></main></body></html>`.text;
}

export const STYLESHEET = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#5b6470;--line:#d8dde3;--accent:#2563eb;--ok:#15803d;--bad:#b91c1c;--warn:#a16207}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--bg:#111418;--muted:#9aa3ad;--line:#2c333b;--accent:#60a5fa}}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
body>header{display:flex;gap:2rem;align-items:center;padding:.7rem 1.5rem;border-bottom:1px solid var(--line)}
nav a{margin-right:1rem;color:var(--muted);text-decoration:none}nav a[aria-current]{color:var(--fg);font-weight:600}
main{max-width:1100px;margin:0 auto;padding:1rem 1.5rem 3rem}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:500}td.n{text-align:right;font-variant-numeric:tabular-nums}a{color:var(--accent)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(190px,1fr));gap:.8rem}.card{border:1px solid var(--line);border-radius:8px;padding:.8rem 1rem;display:flex;flex-direction:column}
.card span{color:var(--muted);font-size:.85rem}.card strong{font-size:1.7rem}.card a{font-size:.85rem}
.state{font-size:.8rem;padding:.05rem .45rem;border-radius:1rem;border:1px solid currentColor}.state.running,.state.ok{color:var(--ok)}.state.stopped,.state.skipped,.state.silent,.state.standby,.state.starting{color:var(--warn)}.state.failed,.state.error{color:var(--bad)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
.chart{width:100%;max-width:760px;height:auto}.chart .bar{fill:var(--accent);opacity:.75}.chart .line{fill:none;stroke:var(--ok);stroke-width:2}.chart .dot{fill:var(--ok)}
.chart .axis{stroke:var(--line)}.chart .tick{fill:var(--muted);font-size:11px}figcaption{color:var(--muted);font-size:.85rem}
.key{display:inline-block;width:.9rem;height:.6rem;margin:0 .3rem 0 .8rem}.key.bar{background:var(--accent)}.key.line{border-top:2px solid var(--ok);height:0}
.msg{border:1px solid var(--line);border-radius:8px;padding:.5rem .8rem;margin:.5rem 0}.msg.assistant{background:color-mix(in srgb,var(--accent) 6%,transparent)}
.msg header{color:var(--muted);font-size:.8rem}.msg .text,.preview{white-space:pre-wrap;overflow-wrap:anywhere}
pre.layer{white-space:pre-wrap;max-height:24rem;overflow:auto;font-size:.8rem;background:color-mix(in srgb,var(--fg) 5%,transparent);padding:.5rem}
form.inline{display:inline}td.actions form{margin-right:.3rem}button{font:inherit;padding:.2rem .7rem;border-radius:6px;border:1px solid var(--line);background:var(--bg);color:var(--fg);cursor:pointer}
.notice{padding:.5rem .8rem;border-radius:6px;border:1px solid}.notice.ok{color:var(--ok)}.notice.bad{color:var(--bad)}.pager{display:flex;gap:1rem;margin:1rem 0}
.login{max-width:32rem;margin-top:10vh}
ul.attachments{list-style:none;padding:0;margin:.4rem 0 0}li.attachment{display:flex;gap:.5rem;align-items:center;font-size:.85rem;margin:.2rem 0}li.attachment img{max-width:160px;max-height:160px;border-radius:4px;border:1px solid var(--line)}li.attachment .kind{color:var(--muted)}
`;
