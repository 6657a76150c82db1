/** Temp homes and workspaces for the prompt, memory and skill tests. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseConfig, type AppConfig } from '../../../src/core/config.js';
import type { Logger } from '../../../src/core/logger.js';
import { parseAllowList, type Settings } from '../../../src/core/settings.js';
import type { Store } from '../../../src/core/store/types.js';
import { openSqliteStore, sqlitePath } from '../../../src/store/sqlite/index.js';
import { formatSessionKey, type SessionAddress } from '../../../src/platform/address.js';
import type { Provider } from '../../../src/core/providers/provider.js';
import type { ToolContext } from '../../../src/core/tools/types.js';
import type { PlatformId } from '../../../src/platform/ids.js';

export interface Sandbox {
  root: string;
  home: string;
  /** A workspace folder that is a git root (has `.git/`). */
  repo: string;
  write(path: string, text: string): string;
  cleanup(): void;
}

export function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'sb-prompt-'));
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(repo, '.git'), { recursive: true });
  return {
    root,
    home,
    repo,
    write(path, text) {
      const full = path.startsWith('/') ? path : join(root, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
      return full;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function config(yaml = ''): AppConfig {
  return parseConfig(yaml, 'test.yaml');
}

export interface Recorder {
  logger: Logger;
  lines: string[];
}

/** A Logger that keeps `level [scope] message` lines. */
export function recorder(): Recorder {
  const lines: string[] = [];
  const at = (level: string) => (scope: string, message: string) => void lines.push(`${level} [${scope}] ${message}`);
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

/** A provider for tools that never call the model: any call is a test failure. */
const noModel: Provider = {
  name: 'unconfigured',
  complete: () => Promise.reject(new Error('the model is not used by this tool')),
  check: () => Promise.resolve(null),
};

export function settings(home: string, cfg: AppConfig = config()): Settings {
  return {
    home,
    configPath: join(home, 'config.yaml'),
    config: cfg,
    model: { provider: 'auto', name: 'none', baseURL: 'http://127.0.0.1:9/v1' },
    email: { from: 'Switchboard <sb@localhost>', allowed: parseAllowList('') },
    secrets: [],
  };
}

export function toolContext(opts: { home: string; store: Store; personKey: string; platform?: PlatformId; cfg?: AppConfig; logger: Logger }): ToolContext {
  const platform = opts.platform ?? 'telegram';
  const session: SessionAddress = { platform, chatId: '1', userId: '1' };
  return {
    settings: settings(opts.home, opts.cfg),
    store: opts.store,
    logger: opts.logger,
    provider: noModel,
    platform,
    session,
    sessionKey: formatSessionKey(session),
    sessionId: 'sess-1',
    personKey: opts.personKey,
    replyAddress: { platform, chatId: '1' },
    signal: new AbortController().signal,
    now: () => new Date('2026-11-30T12:00:00Z'),
  };
}

export function openTestStore(home: string): Store {
  return openSqliteStore({ path: sqlitePath(home), home });
}
