/**
 * Database size under retention: 100,000 messages through the whole pipeline in this process
 * (createApp: journal, sessions, history, prompt, outbox, delivery — the model and the door are
 * in-process stand-ins that answer at once) on a simulated clock: 50 days, 200 users, sessions
 * replaced daily, retention 7 days for the journal, sent replies and ended sessions. Retention runs
 * every simulated 12 hours (as `interval_minutes` would); the size (state.db + WAL) and the row
 * counts are read every 10,000 messages, so the curve shows when it goes flat.
 *
 * Standalone: `node --import tsx bench/dbsize.ts [messages]` prints the result as JSON.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { loadSettings } from '../src/core/settings.js';
import { silentLogger } from '../src/core/logger.js';
import { createApp } from '../src/app.js';
import { openData } from '../src/app-open.js';
import { PLATFORM_HINTS } from '../src/core/prompt/hints.js';
import type { Provider } from '../src/core/providers/provider.js';
import type { Adapter, Delivery } from '../src/core/types.js';
import { round } from './util.js';

export interface DbSizeBench {
  messages: number;
  users: number;
  simulatedDays: number;
  retentionDays: number;
  /** Size and rows every 10,000 messages. */
  checkpoints: Array<{ messages: number; day: number; mb: number; messagesRows: number; inboundRows: number; outboxRows: number; sessions: number }>;
  /** Size after the last message, MB. */
  finalMb: number;
  /** Largest size from the first checkpoint past the retention window on, minus the smallest, MB. */
  flatSpreadMb: number;
  perSec: number;
}

const MESSAGES = 100_000;
const USERS = 200;
const DAYS = 50;
const RETENTION_DAYS = 7;
const CHECKPOINT = Number(process.env.BENCH_DB_CHECKPOINT ?? 10_000);
const DAY_MS = 24 * 60 * 60 * 1000;

export async function benchDbSize(log: (line: string) => void = () => undefined, messages = MESSAGES): Promise<DbSizeBench> {
  const root = mkdtempSync(join(tmpdir(), 'sb-bench-db-'));
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'config.yaml'),
    `sessions:\n  daily_reset_hour: 4\nretention:\n  inbound_days: ${RETENTION_DAYS}\n  outbox_sent_days: ${RETENTION_DAYS}\n  sessions_days: ${RETENTION_DAYS}\n  interval_minutes: 0\n`,
  );
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const stepMs = (DAYS * DAY_MS) / messages;
  const settings = loadSettings({ SWITCHBOARD_HOME: home, OPENAI_API_KEY: 'sk-bench', MODEL: 'fake-model', TELEGRAM_BOT_TOKEN: '1:bench', TELEGRAM_ALLOWED_USERS: '*' });
  const provider: Provider = {
    name: 'openai',
    async complete(request) {
      const last = request.messages.at(-1);
      return { text: `Echo: ${last && 'content' in last ? String(last.content) : ''}`, toolCalls: [], usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0, cacheWriteTokens: 0 }, stopReason: 'stop' };
    },
    check: async () => null,
  };
  let delivered = 0;
  let wake: (() => void) | undefined;
  const door: Adapter = {
    platform: 'telegram',
    profile: PLATFORM_HINTS.telegram,
    start: async () => undefined,
    stop: async () => undefined,
    close: async () => undefined,
    async deliver(d: Delivery) {
      for (let i = d.firstChunk; i < d.message.chunks.length; i++) await d.onChunkSent(i);
      delivered++;
      wake?.();
    },
  };
  const app = createApp({ settings, logger: silentLogger, cwd: root, store: await openData(settings), provider, adapters: [door], tools: [], outbox: { pollMs: 10 }, now: () => new Date(clock) });
  await app.start();
  const checkpoints: DbSizeBench['checkpoints'] = [];
  const start = performance.now();
  try {
    let sent = 0;
    let update = 0;
    let nextRetention = clock + DAY_MS / 2;
    while (sent < messages) {
      const batch = Math.min(USERS, messages - sent);
      const target = delivered + batch;
      for (let u = 0; u < batch; u++) {
        clock += stepMs;
        const id = String(++update);
        const user = String(1000 + u);
        void app.gateway.handle({
          platform: 'telegram',
          chatId: user,
          userId: user,
          text: `message ${update}: how is the weather on day ${Math.floor(update / 2000)}?`,
          isDirect: true,
          mentionsBot: false,
          isReplyToBot: false,
          messageId: id,
          updateId: id,
          receivedAt: new Date(clock),
          replyTarget: { platform: 'telegram', chatId: user },
        });
      }
      while (delivered < target) await new Promise<void>((r) => (wake = r));
      sent += batch;
      if (clock >= nextRetention) {
        await app.retention.runOnce();
        nextRetention = clock + DAY_MS / 2;
      }
      if (sent % CHECKPOINT === 0 || sent === messages) {
        const s = await app.store.retention.tableSizes();
        const rows = (name: string) => s.tables.find((t) => t.name === name)?.rows ?? 0;
        checkpoints.push({
          messages: sent,
          day: round1((clock - Date.parse('2026-01-01T00:00:00Z')) / DAY_MS),
          mb: round((s.bytes ?? 0) / 1024 / 1024, 1),
          messagesRows: rows('messages'),
          inboundRows: rows('inbound'),
          outboxRows: rows('outbox'),
          sessions: rows('sessions'),
        });
        log(`dbsize: ${sent.toLocaleString('en')} messages, day ${checkpoints.at(-1)!.day}, ${checkpoints.at(-1)!.mb} MB`);
      }
    }
    const elapsed = performance.now() - start;
    const past = checkpoints.filter((c) => c.day > RETENTION_DAYS + 1).map((c) => c.mb);
    return {
      messages,
      users: USERS,
      simulatedDays: DAYS,
      retentionDays: RETENTION_DAYS,
      checkpoints,
      finalMb: checkpoints.at(-1)?.mb ?? 0,
      flatSpreadMb: past.length ? round(Math.max(...past) - Math.min(...past), 1) : 0,
      perSec: round(messages / (elapsed / 1000), 0),
    };
  } finally {
    await app.stop('bench over');
    if (process.env.BENCH_KEEP_DB) log(`dbsize: kept ${home}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

const round1 = (n: number) => round(n, 1);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchDbSize((l) => process.stderr.write(`${l}\n`), Number(process.argv[2] ?? MESSAGES));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
