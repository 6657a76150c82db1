/**
 * Display names from `users.info`, looked up lazily and cached, so the model can tell people apart
 * in a shared thread. Best effort: a missing `users:read` scope or a slow API leaves the name unset
 * rather than delaying or failing the message. Messages are handed over with the cached name only;
 * an unknown sender's name is looked up meanwhile (`prefetch`) and asked for by the turn (`lookup`),
 * which shares that one request.
 */
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { Logger } from '../../core/logger.js';

const CACHE_TTL_MS = 60 * 60 * 1000;
/** Failed look-ups are not repeated for every message. */
const FAILURE_TTL_MS = 10 * 60 * 1000;
const MAX_ENTRIES = 1000;
/** A turn waits at most this long for a name. */
const LOOKUP_BUDGET_MS = 1500;

const userInfoSchema = z.object({
  user: z.object({
    name: z.string().optional(),
    real_name: z.string().optional(),
    profile: z.object({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
  }),
});

export interface DisplayNames {
  /** The name, looked up unless cached; waits at most 1.5 s. */
  lookup(userId: string): Promise<string | undefined>;
  /** What the cache knows now: `{ name }` (the name may be unknown for good), or undefined when it must be looked up. */
  cached(userId: string): { name?: string } | undefined;
  /** Starts the look-up of an uncached sender without waiting for it. */
  prefetch(userId: string): void;
}

export function createDisplayNames(client: WebClient, logger: Logger, now: () => Date): DisplayNames {
  const cache = new Map<string, { name?: string; until: number }>();
  const inFlight = new Map<string, Promise<string | undefined>>();

  async function fetchName(userId: string): Promise<string | undefined> {
    const result = userInfoSchema.safeParse(await client.users.info({ user: userId }));
    if (!result.success) return undefined;
    const u = result.data.user;
    const name = u.profile?.display_name || u.profile?.real_name || u.real_name || u.name;
    return name || undefined;
  }

  function remember(userId: string, entry: { name?: string; until: number }): void {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(userId, entry);
  }

  /** One users.info request per sender at a time; its outcome goes into the cache. */
  function request(userId: string): Promise<string | undefined> {
    let pending = inFlight.get(userId);
    if (!pending) {
      const at = now().getTime();
      pending = fetchName(userId)
        .then(
          (name) => {
            remember(userId, { name, until: at + CACHE_TTL_MS });
            return name;
          },
          (error: unknown) => {
            logger.debug('slack', `users.info for ${userId} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
            remember(userId, { until: at + FAILURE_TTL_MS });
            return undefined;
          },
        )
        .finally(() => inFlight.delete(userId));
      inFlight.set(userId, pending);
    }
    return pending;
  }

  function cached(userId: string): { name?: string } | undefined {
    const hit = cache.get(userId);
    return hit && hit.until > now().getTime() ? { name: hit.name } : undefined;
  }

  return {
    cached,
    prefetch(userId) {
      if (!cached(userId)) void request(userId);
    },
    async lookup(userId) {
      const hit = cached(userId);
      if (hit) return hit.name;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), LOOKUP_BUDGET_MS);
      });
      try {
        const name = await Promise.race([request(userId), timeout]);
        if (name !== 'timeout') return name;
        logger.debug('slack', `users.info for ${userId} is slow; going on without a display name`);
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
