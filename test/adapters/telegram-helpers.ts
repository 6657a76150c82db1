/** Shared setup for the Telegram adapter tests: a fake Bot API, the real adapter, a collecting handler. */
import { parseConfig, type AppConfig } from '../../src/core/config.js';
import { silentLogger, type Logger } from '../../src/core/logger.js';
import { parseAllowList } from '../../src/core/settings.js';
import type { Delivery, DeliveryTarget, InboundMessage } from '../../src/core/types.js';
import { createTelegramAdapter, type TelegramAdapter, type TelegramAdapterDeps } from '../../src/adapters/telegram/index.js';
import type { TelegramFake } from '../fakes/telegram.js';

export function testConfig(yaml = ''): AppConfig {
  return parseConfig(yaml, 'test.yaml');
}

export function makeAdapter(fake: TelegramFake, overrides: Partial<TelegramAdapterDeps> & { token?: string } = {}): TelegramAdapter {
  const { token, ...deps } = overrides;
  return createTelegramAdapter(
    { token: token ?? fake.token, apiRoot: fake.url, allowed: parseAllowList('*') },
    { config: testConfig(), logger: silentLogger, home: '/nonexistent', pollTimeoutSeconds: 1, stopGraceMs: 500, ...deps },
  );
}

/** A handler that records messages and lets a test wait for the next one. */
export function collector() {
  const messages: InboundMessage[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const handler = async (message: InboundMessage) => {
    messages.push(message);
    for (const w of [...waiters]) if (messages.length >= w.count) w.resolve();
  };
  function waitFor(count: number, timeoutMs = 5000): Promise<InboundMessage[]> {
    if (messages.length >= count) return Promise.resolve(messages.slice());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${count} inbound message(s), have ${messages.length}`)), timeoutMs);
      waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(messages.slice());
        },
      });
    });
  }
  return { messages, handler, waitFor };
}

export function delivery(target: DeliveryTarget, chunks: string[], firstChunk = 0): Delivery & { sentIndexes: number[] } {
  const sentIndexes: number[] = [];
  return { id: 1, target, message: { chunks }, firstChunk, sentIndexes, onChunkSent: (i) => void sentIndexes.push(i) };
}

/** A logger that keeps lines, to assert what an operator would read. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (scope: string, message: string) => lines.push(`${level} [${scope}] ${message}`);
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
