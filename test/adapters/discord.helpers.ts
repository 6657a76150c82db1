/** Shared setup for the Discord adapter tests: settings and deps pointed at the loopback fake, an inbox. */
import { tmpdir } from 'node:os';
import { parseConfig } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { parseAllowList, type DiscordSettings } from '../../src/core/settings.js';
import type { Delivery, DeliveryTarget, InboundMessage } from '../../src/core/types.js';
import type { AdapterDeps } from '../../src/adapters/deps.js';
import type { DiscordFake } from '../fakes/discord.js';

export function settingsFor(fake: DiscordFake, over: Partial<DiscordSettings> = {}): DiscordSettings {
  return { token: fake.token, apiUrl: fake.apiUrl, allowed: parseAllowList('*'), ...over };
}

export function depsWith(yaml = ''): AdapterDeps {
  return { config: parseConfig(yaml, 'test.yaml'), logger: silentLogger, home: tmpdir() };
}

/** Collects what the adapter hands to the gateway, with a bounded wait for the next match. */
export function inbox() {
  const received: InboundMessage[] = [];
  let waiters: (() => void)[] = [];
  return {
    received,
    handler: async (m: InboundMessage): Promise<void> => {
      received.push(m);
      for (const w of waiters) w();
    },
    waitFor(predicate: (m: InboundMessage) => boolean, timeoutMs = 3000): Promise<InboundMessage> {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching inbound message within ${timeoutMs} ms (got ${received.length})`)), timeoutMs);
        const check = (): void => {
          const hit = received.find(predicate);
          if (!hit) return;
          clearTimeout(timer);
          waiters = waiters.filter((w) => w !== check);
          resolve(hit);
        };
        waiters.push(check);
      });
    },
  };
}

export function delivery(target: DeliveryTarget, chunks: string[], firstChunk = 0): Delivery & { sent: number[] } {
  const sent: number[] = [];
  return { id: 1, target, message: { chunks }, firstChunk, onChunkSent: (i) => void sent.push(i), sent };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
