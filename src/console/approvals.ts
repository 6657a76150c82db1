/** The console's approvals page (ARCHITECTURE.md §12, §16): pending ones with Approve / Deny, and recent ones with who answered. */
import { html } from './html.js';
import { layout, type PageContext } from './pages.js';
import type { ConsoleDeps } from './types.js';
import type { ApprovalRecord } from '../core/store/types.js';

export interface ApprovalRow {
  id: string;
  tool: string;
  server: string | null;
  /** The arguments, cut for the table. */
  args: string;
  reason: string;
  chat: string;
  askedAt: string;
  expiresAt: string;
  /** pending, approved, denied, expired. */
  status: string;
  answeredBy: string | null;
  answeredAt: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function row(a: ApprovalRecord): ApprovalRow {
  return {
    id: a.id,
    tool: a.tool,
    server: a.server,
    args: a.args.length > 300 ? `${a.args.slice(0, 300)}…` : a.args,
    reason: a.reason,
    chat: `${a.platform}:${a.chatId}`,
    askedAt: iso(a.createdAt),
    expiresAt: iso(a.expiresAt),
    status: a.decision ?? 'pending',
    answeredBy: a.answeredBy,
    answeredAt: a.answeredAt === null ? null : iso(a.answeredAt),
  };
}

export async function approvalRows(deps: ConsoleDeps): Promise<{ pending: ApprovalRow[]; recent: ApprovalRow[] }> {
  const all = (await deps.store.approvals.list(100)).map(row);
  return { pending: all.filter((r) => r.status === 'pending'), recent: all.filter((r) => r.status !== 'pending') };
}

const when = (at: string | null) => (at ? html`<time datetime="${at}">${at.replace('T', ' ').slice(0, 16)}</time>` : '—');

function form(ctx: PageContext, id: string, what: 'approve' | 'deny', label: string) {
  return html`<form method="post" action="/approvals/${encodeURIComponent(id)}/${what}" class="inline"><input type="hidden" name="csrf" value="${ctx.csrf}"><button>${label}</button></form>`;
}

export function approvalsPage(rows: { pending: ApprovalRow[]; recent: ApprovalRow[] }, ctx: PageContext, canAnswer: boolean): string {
  const tool = (r: ApprovalRow) => html`<code>${r.tool}</code>${r.server ? html` (${r.server})` : ''}`;
  const pending = rows.pending.map(
    (r) => html`<tr><td>${tool(r)}</td><td><code>${r.args}</code></td><td>${r.reason}</td><td>${r.chat}</td><td>${when(r.askedAt)}</td><td>${when(r.expiresAt)}</td>
<td class="actions">${canAnswer ? html`${form(ctx, r.id, 'approve', 'Approve')}${form(ctx, r.id, 'deny', 'Deny')}` : '—'}</td></tr>`,
  );
  const recent = rows.recent.map(
    (r) => html`<tr><td>${tool(r)}</td><td><code>${r.args}</code></td><td>${r.chat}</td><td>${when(r.askedAt)}</td><td>${r.status}</td><td>${r.answeredBy ?? '—'}</td><td>${when(r.answeredAt)}</td></tr>`,
  );
  return layout(
    'Approvals',
    '/approvals',
    html`<h2>Waiting</h2>
${pending.length ? html`<table><thead><tr><th>Tool</th><th>Arguments</th><th>Why</th><th>Chat</th><th>Asked</th><th>Expires</th><th></th></tr></thead><tbody>${pending}</tbody></table>` : html`<p>No approval is waiting.</p>`}
<h2>Recent</h2>
${recent.length ? html`<table><thead><tr><th>Tool</th><th>Arguments</th><th>Chat</th><th>Asked</th><th>Answer</th><th>By</th><th>When</th></tr></thead><tbody>${recent}</tbody></table>` : html`<p>None yet.</p>`}`,
    ctx,
  );
}
