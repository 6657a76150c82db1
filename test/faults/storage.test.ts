/**
 * Storage faults with the real `switchboard start`: the database locked by another process, and a data
 * folder that cannot be written. Each ends in one clear line on stderr and a non-zero exit, and the
 * database is intact afterwards (PRAGMA integrity_check) and usable again once the fault is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteStore, sqlitePath } from '../../src/store/sqlite/index.js';
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, runCli } from '../helpers/cli.js';
import type { InboundMessage } from '../../src/core/types.js';

let tg: TelegramFake;
const roots: string[] = [];
// root ignores file permissions, so chmod cannot make a folder read-only for it.
const isRoot = process.getuid?.() === 0;

beforeAll(async () => {
  tg = await startTelegramFake({ maxPollHoldMs: 300 });
});

afterAll(() =>
  cleanUp(
    () => tg?.close(),
    ...roots.map((r) => () => {
      chmodSync(r, 0o755);
      rmSync(r, { recursive: true, force: true });
    }),
  ),
);

function tempRoot(): string {
  const r = mkdtempSync(join(tmpdir(), 'sb-faults-storage-'));
  roots.push(r);
  return r;
}

/** A home with a database holding one handled inbound update. */
async function homeWithData(): Promise<string> {
  const home = join(tempRoot(), 'home');
  const store = openSqliteStore({ path: sqlitePath(home), home });
  const message: InboundMessage = {
    platform: 'telegram',
    chatId: '1',
    userId: '1',
    text: 'hello',
    isDirect: true,
    mentionsBot: false,
    isReplyToBot: false,
    messageId: '1',
    updateId: '1',
    receivedAt: new Date(0),
    replyTarget: { platform: 'telegram', chatId: '1' },
  };
  await store.inbound.claim(message, null);
  await store.inbound.mark('telegram', '1', 'done');
  await store.close();
  return home;
}

function start(home: string) {
  return runCli(['start'], {
    env: cleanEnv({ SWITCHBOARD_HOME: home, OPENAI_API_KEY: 'sk-storage', TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url }),
    timeoutMs: 15_000,
  });
}

function integrity(home: string): { check: string; rows: number } {
  const db = new Database(sqlitePath(home), { readonly: true });
  try {
    return { check: db.pragma('integrity_check', { simple: true }) as string, rows: (db.prepare('SELECT count(*) AS n FROM inbound').get() as { n: number }).n };
  } finally {
    db.close();
  }
}

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^switchboard: /);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
}

describe('storage faults', () => {
  it('a database another process holds an exclusive lock on: one line, exit 1, nothing damaged', async () => {
    const home = await homeWithData();
    const holder = new Database(sqlitePath(home));
    holder.exec('BEGIN EXCLUSIVE');
    holder.prepare("INSERT INTO inbound (platform, update_id, received_at, payload) VALUES ('telegram', '2', 0, '{}')").run();
    try {
      const res = await start(home);
      expect(res.code).toBe(1);
      expectOneLine(res.stderr, /state\.db is not usable \(SQLITE_BUSY: database is locked\): another process holds a lock on it/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(integrity(home)).toEqual({ check: 'ok', rows: 1 });
  });

  it('a data folder that cannot be created (its parent is a file): one line, exit 1', async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'not-a-folder'), 'x');
    const res = await start(join(root, 'not-a-folder', 'home'));
    expect(res.code).toBe(1);
    expectOneLine(res.stderr, /SWITCHBOARD_HOME: cannot create .*not-a-folder\/home \(ENOTDIR\); set SWITCHBOARD_HOME to a folder you can write/);
  });

  it.skipIf(isRoot)('a read-only data folder with a database in it: one line, exit 1, nothing damaged (skipped as root: chmod does not stop root)', async () => {
    const home = await homeWithData();
    chmodSync(home, 0o555);
    chmodSync(sqlitePath(home), 0o444);
    try {
      const res = await start(home);
      expect(res.code).toBe(1);
      expectOneLine(res.stderr, /state\.db .*(not writable|readonly|unable to open)/i);
    } finally {
      chmodSync(home, 0o755);
      chmodSync(sqlitePath(home), 0o644);
    }
    expect(integrity(home)).toEqual({ check: 'ok', rows: 1 });
  });
});
