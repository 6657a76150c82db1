/**
 * Display names from `users.info`, looked up lazily and cached, so the model can tell people apart
 * in a shared thread. Best effort: a missing `users:read` scope or a slow API leaves the name unset
 * rather than delaying or failing the message.
 */
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { Logger } from '../../core/logger.js';

const CACHE_TTL_MS = 60 * 60 * 1000;
/** Failed look-ups are not repeated for every message. */
const FAILURE_TTL_MS = 10 * 60 * 1000;
const MAX_ENTRIES = 1000;
/** The message waits at most this long for a name. */
const LOOKUP_BUDGET_MS = 1500;

const userInfoSchema = z.object({
  user: z.object({
    name: z.string().optional(),
    real_name: z.string().optional(),
    profile: z.object({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
  }),
});

export type DisplayNameLookup = (userId: string) => Promise<string | undefined>;

export function createDisplayNames(client: WebClient, logger: Logger, now: () => Date): DisplayNameLookup {
  const cache = new Map<string, { name?: string; until: number }>();

  async function fetchName(userId: string): Promise<string | undefined> {
    const result = userInfoSchema.safeParse(await client.users.info({ user: userId }));
    if (!result.success) return undefined;
    const u = result.data.user;
    const name = u.profile?.display_name || u.profile?.real_name || u.real_name || u.name;
    return name || undefined;
  }

  return async (userId) => {
    const at = now().getTime();
    const hit = cache.get(userId);
    if (hit && hit.until > at) return hit.name;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), LOOKUP_BUDGET_MS);
    });
    try {
      const name = await Promise.race([fetchName(userId), timeout]);
      if (name === 'timeout') {
        logger.debug('slack', `users.info for ${userId} is slow; going on without a display name`);
        return undefined;
      }
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(userId, { name, until: at + CACHE_TTL_MS });
      return name;
    } catch (error) {
      logger.debug('slack', `users.info for ${userId} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      cache.set(userId, { until: at + FAILURE_TTL_MS });
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
}
