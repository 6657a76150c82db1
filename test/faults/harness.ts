/**
 * Fault-test setup: the real app (store, prompt builder, agent, gateway, outbox, renderer) and real
 * adapters, configured from an environment as `switchboard start` does, against loopback fakes, and
 * started and stopped as `switchboard start` does it (app.start(), app.stop()). The logger keeps its
 * lines so a test can check what an operator would read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings, type Settings } from '../../src/core/settings.js';
import type { Logger } from '../../src/core/logger.js';
import Database from 'better-sqlite3';
import { createApp, type App } from '../../src/app.js';
import { openData } from '../../src/app-open.js';
import type { Adapter } from '../../src/core/types.js';
import { cleanUp } from '../helpers/cli.js';

export interface MemoryLogger extends Logger {
  lines: string[];
  /** Lines at warn or error level. */
  problems(): string[];
}

export function memoryLogger(): MemoryLogger {
  const lines: string[] = [];
  const log = (level: string) => (scope: string, message: string) => void lines.push(`${level} [${scope}] ${message}`);
  return {
    lines,
    problems: () => lines.filter((l) => l.startsWith('warn') || l.startsWith('error')),
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
  };
}

export interface Harness {
  home: string;
  settings: Settings;
  /** The wired app; built by attach() with the adapters it runs. */
  readonly app: App;
  logger: MemoryLogger;
  /** Builds the app with these adapters and starts it (app.start(): presence, doors, outbox, sweep, …). */
  attach(...adapters: Adapter[]): Promise<void>;
  /** Reads the database file directly (what an operator would see with sqlite3). */
  query<T>(sql: string, ...params: unknown[]): T[];
  close(): Promise<void>;
}

/** Door and session leases in the fault tests (see makeHarness). */
const FAULT_LEASE_SECONDS = 120;

/** A runtime on a fresh temp home; `env` adds platform credentials and fake URLs. */
export function makeHarness(env: Record<string, string>, yaml = '', options: { outboxBackoffMs?: number } = {}): Harness {
  const root = mkdtempSync(join(tmpdir(), 'sb-faults-'));
  const home = join(root, 'home');
  const cwd = join(root, 'workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  // The doors run under their leases, as in `start`. A test that floods a door can starve the
  // heartbeat on a loaded machine for longer than the default 15 s lease: the Discord door then
  // stands by for a tick and a DM the fake gateway sends meanwhile is gone (Discord does not replay
  // it). These tests are about bad input, not failover, so their leases outlive such a pause.
  const config = /^gateway:/m.test(yaml) ? yaml : `gateway:\n  lease_seconds: ${FAULT_LEASE_SECONDS}\n${yaml}`;
  writeFileSync(join(home, 'config.yaml'), config);
  const logger = memoryLogger();
  let settings: Settings;
  try {
    settings = loadSettings({ SWITCHBOARD_HOME: home, OPENAI_API_KEY: 'sk-faults', MODEL: 'fake-model', ...env });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  let app: App | null = null;
  let reader: Database.Database | null = null;
  return {
    home,
    settings,
    get app(): App {
      if (!app) throw new Error('attach() builds the app');
      return app;
    },
    logger,
    async attach(...adapters) {
      const backoff = options.outboxBackoffMs;
      app = createApp({ settings, logger, cwd, store: await openData(settings), adapters, outbox: backoff === undefined ? undefined : { backoffMs: () => backoff } });
      await app.start();
    },
    query<T>(sql: string, ...params: unknown[]): T[] {
      reader ??= new Database(join(home, 'state.db'), { readonly: true });
      return reader.prepare(sql).all(...params) as T[];
    },
    /** Stops the app (as a SIGTERM does) and removes the temp home, each even if one before fails. */
    async close() {
      await cleanUp(
        () => app?.stop('test over'),
        () => reader?.close(),
        () => rmSync(root, { recursive: true, force: true }),
      );
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` every 20 ms. */
export async function until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}
