/**
 * Readiness (ARCHITECTURE.md §18): ready only when the app runs, the store answers at the schema this
 * code migrates to, and every configured door is connected — or stands by behind a live lease holder
 * (another instance runs it). Otherwise: what is not ready, one short line each, for the 503's body.
 */
import type { Adapter } from '../core/types.js';
import type { DoorStatus } from '../core/doors.js';
import type { Store } from '../core/store/types.js';
import type { PlatformId } from '../platform/ids.js';
import type { AppState } from '../app-lifecycle.js';
import { oneLine } from '../core/errors.js';

export interface ReadinessSources {
  state: () => AppState;
  store: Pick<Store, 'schemaVersion' | 'currentSchema'>;
  doors: () => Promise<DoorStatus[]>;
  adapter: (platform: PlatformId) => Adapter | undefined;
}

export interface Readiness {
  ready: boolean;
  /** What is not ready, by part (`store`, `app`, `door:telegram`). */
  problems: Record<string, string>;
  doors: Record<string, string>;
}

/** How long the store may take to answer before it counts as not answering. */
const STORE_WAIT_MS = 2000;

export async function readiness(sources: ReadinessSources): Promise<Readiness> {
  const problems: Record<string, string> = {};
  const state = sources.state();
  if (state !== 'running') problems.app = state === 'new' || state === 'starting' ? 'starting' : 'stopping';
  try {
    const version = await within(sources.store.schemaVersion(), STORE_WAIT_MS);
    if (version !== sources.store.currentSchema) problems.store = `schema version ${version}, this Switchboard needs ${sources.store.currentSchema}`;
  } catch (error) {
    problems.store = `not answering: ${oneLine(error)}`;
  }
  const doors: Record<string, string> = {};
  if (state === 'running') {
    for (const d of await sources.doors().catch(() => [] as DoorStatus[])) {
      if (d.state === 'running') {
        const problem = sources.adapter(d.platform)?.problem?.() ?? null;
        doors[d.platform] = problem ? 'down' : 'connected';
        if (problem) problems[`door:${d.platform}`] = problem;
      } else if (d.state === 'standby') {
        doors[d.platform] = d.holder ? `standby (${d.holder} holds it)` : 'standby';
        if (!d.holder) problems[`door:${d.platform}`] = 'no instance holds the door';
      } else {
        doors[d.platform] = 'stopped';
        problems[`door:${d.platform}`] = 'stopped';
      }
    }
  }
  return { ready: Object.keys(problems).length === 0, problems, doors };
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
