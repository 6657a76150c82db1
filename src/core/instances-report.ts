/**
 * What `doctor` says about the instances on one database (ARCHITECTURE.md §9): the live ones with their last
 * heartbeat, and which instance holds each lease. Pure: rows in, lines out.
 */
import type { InstanceRecord, Lease } from './store/types.js';

/** Session leases listed one by one up to this; past it, a count per holder. */
const MAX_SESSION_LEASES = 10;

function ago(ms: number): string {
  return ms < 1000 ? 'just now' : `${Math.round(ms / 1000)} s ago`;
}

export interface InstancesReport {
  live: InstanceRecord[];
  /** One line for the live instances, one for the leases. */
  lines: string[];
}

export function instancesReport(instances: readonly InstanceRecord[], leases: readonly Lease[], now: number): InstancesReport {
  const live = instances.filter((i) => i.expiresAt > now);
  const stale = instances.length - live.length;
  const instanceLine = live.length
    ? `${live.length} live: ${live.map((i) => `${i.id} (pid ${i.pid} on ${i.host}, heartbeat ${ago(now - i.heartbeatAt)})`).join(', ')}`
    : 'no instance is running';
  const lines = [stale ? `${instanceLine}; ${stale} stopped without a clean stop (their leases expire by themselves)` : instanceLine];
  const held = leases.filter((l) => l.expiresAt > now);
  if (!held.length) {
    lines.push('leases: none held');
    return { live, lines };
  }
  const doors = held.filter((l) => !l.name.startsWith('session:'));
  const sessions = held.filter((l) => l.name.startsWith('session:'));
  const show = (l: Lease) => `${l.name} → ${l.holder} (expires in ${Math.max(0, Math.round((l.expiresAt - now) / 1000))} s)`;
  const parts = doors.map(show);
  if (sessions.length <= MAX_SESSION_LEASES) parts.push(...sessions.map(show));
  else {
    const perHolder = new Map<string, number>();
    for (const l of sessions) perHolder.set(l.holder, (perHolder.get(l.holder) ?? 0) + 1);
    parts.push(`${sessions.length} session leases (${[...perHolder].map(([h, n]) => `${n} → ${h}`).join(', ')})`);
  }
  lines.push(`leases: ${parts.join('; ')}`);
  return { live, lines };
}
