import { hostname } from 'node:os';
import { isLoopback } from './loopback.js';
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs } from './fs.js';
import type { AppConfig } from './config.js';
import { loadConfigFile, resolveConfigPath, resolveHome } from './config.js';
import { ConfigError } from './errors.js';
import { DOOR_IDS, DOOR_TABLE, DOORS, parseImapUrl as parseImap } from '../platform/doors/index.js';
import type { DoorId, DoorSections, DoorSettings, DoorSettingsMap, DoorYaml, EnvReader, ImapSettings } from '../platform/doors/index.js';
import { hidePassword, passwordOf } from '../platform/urls.js';

export { parseAllowList, isAllowed, type AllowList } from '../platform/doors/index.js';
export type { TelegramSettings, SlackSettings, DiscordSettings, EmailSettings, ImapSettings } from '../platform/doors/index.js';
export { hidePassword } from '../platform/urls.js';

export const DEFAULT_MODELS = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-5-5',
  ollama: 'llama3.2',
} as const;

export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

export type ModelSettings =
  | { provider: 'openai'; name: string; apiKey: string; baseURL?: string }
  | { provider: 'anthropic'; name: string; apiKey: string; baseURL?: string }
  /** Nothing configured: try a local Ollama, else answer how to configure a model. */
  | { provider: 'auto'; name: string; baseURL: string };

/** The web console (ARCHITECTURE.md §12): where it listens and, when set explicitly, its access token. */
export interface ConsoleSettings {
  /** 0 = off. */
  port: number;
  host: string;
  /** SWITCHBOARD_CONSOLE_TOKEN; unset = generated once into $SWITCHBOARD_HOME/console.token. */
  token?: string;
}

/**
 * Config file + environment, merged once at start. Environment variables win. Each door's settings
 * sit under its id (`telegram`, `email` …), read by its definition (src/platform/doors/).
 */
/** SWITCHBOARD_HEALTH_PORT (default 8788, 0 = off), SWITCHBOARD_HEALTH_HOST (default 127.0.0.1), SWITCHBOARD_METRICS_TOKEN. */
export interface HealthSettings {
  port: number;
  host: string;
  metricsToken?: string;
}

export interface Settings extends DoorSettingsMap {
  home: string;
  configPath: string;
  config: AppConfig;
  model: ModelSettings;
  /** DATABASE_URL when it names PostgreSQL (`postgres://…`); unset: embedded SQLite in `home` (ARCHITECTURE.md §9). */
  databaseUrl?: string;
  /** This instance's name in logs, leases and `doctor` (SWITCHBOARD_INSTANCE_ID, default `<hostname>-<pid>`). */
  instanceId?: string;
  /** Always set by loadSettings; absent in hand-made test settings (the console is then off). */
  console?: ConsoleSettings;
  /** The health server (ARCHITECTURE.md §18); absent in hand-made test settings (then off). */
  health?: HealthSettings;
  /** Secret values to redact from every log line. */
  secrets: string[];
  /**
   * Where voice notes are transcribed (ARCHITECTURE.md §15): TRANSCRIPTION_BASE_URL / TRANSCRIPTION_API_KEY,
   * else `transcription.base_url`, else the model's OpenAI endpoint and key. Absent in hand-made test settings.
   */
  transcription?: { baseURL?: string; apiKey?: string };
}

function env(e: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = e[name]?.trim();
  return v ? v : undefined;
}

function resolveModel(e: NodeJS.ProcessEnv, config: AppConfig): ModelSettings {
  const openaiKey = env(e, 'OPENAI_API_KEY');
  const openaiBase = url(e, 'OPENAI_BASE_URL');
  const anthropicKey = env(e, 'ANTHROPIC_API_KEY');
  const anthropicBase = url(e, 'ANTHROPIC_BASE_URL');
  const override = env(e, 'MODEL');
  const hasOpenai = Boolean(openaiKey || openaiBase);
  const hasAnthropic = Boolean(anthropicKey);
  let provider: 'openai' | 'anthropic' | 'auto';
  if (hasOpenai && hasAnthropic) provider = config.model.provider;
  else if (hasAnthropic) provider = 'anthropic';
  else if (hasOpenai) provider = 'openai';
  else provider = 'auto';
  if (provider === 'anthropic') {
    return {
      provider,
      name: override ?? config.model.name ?? DEFAULT_MODELS.anthropic,
      apiKey: anthropicKey ?? '',
      baseURL: anthropicBase,
    };
  }
  if (provider === 'openai') {
    // Local OpenAI-compatible servers (Ollama, llama.cpp) need no key; the SDK insists on one.
    return { provider, name: override ?? config.model.name ?? DEFAULT_MODELS.openai, apiKey: openaiKey ?? 'not-needed', baseURL: openaiBase };
  }
  return { provider, name: override ?? config.model.name ?? DEFAULT_MODELS.ollama, baseURL: OLLAMA_BASE_URL };
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'];

/** The logger reads LOG_LEVEL itself; a value it does not know is a config error, not silently `info`. */
function checkLogLevel(e: NodeJS.ProcessEnv): void {
  const raw = env(e, 'LOG_LEVEL');
  if (raw !== undefined && !LOG_LEVELS.includes(raw.toLowerCase())) {
    throw new ConfigError(`LOG_LEVEL: '${raw}' is not a log level (one of ${LOG_LEVELS.join(', ')})`);
  }
}

function port(e: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env(e, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${name}: '${raw}' is not a port number (0-65535)`);
  return n;
}

function url(e: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env(e, name);
  if (raw === undefined) return undefined;
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name}: '${raw}' is not a URL`);
  }
  return raw.replace(/\/+$/, '');
}

/** How door definitions read the environment: a bad value is one ConfigError line naming the variable. */
function envReader(e: NodeJS.ProcessEnv): EnvReader {
  return {
    string: (name) => env(e, name),
    url: (name) => url(e, name),
    port: (name) => (env(e, name) === undefined ? undefined : port(e, name, 0)),
    fail: (line) => {
      throw new ConfigError(line);
    },
  };
}

/** The config with each door's environment overrides applied (TELEGRAM_WEBHOOK_* …). */
function withDoorOverrides(read: EnvReader, config: AppConfig): AppConfig {
  let out = config;
  for (const id of DOOR_IDS) out = overrideDoor(id, read, out);
  return out;
}

function overrideDoor<K extends DoorId>(id: K, read: EnvReader, config: AppConfig): AppConfig {
  const door = DOOR_TABLE[id];
  return door.overrideYaml ? { ...config, [id]: door.overrideYaml(read, sectionOf(config, id)) } : config;
}

function sectionOf<K extends DoorId>(config: DoorSections, id: K): DoorYaml<K> {
  return config[id];
}

function doorSettings<K extends DoorId>(id: K, read: EnvReader, config: AppConfig): DoorSettings<K> {
  return DOOR_TABLE[id].settings(read, sectionOf(config, id));
}

function doorSecrets<K extends DoorId>(id: K, settings: DoorSettings<K>, config: AppConfig): readonly string[] {
  return DOOR_TABLE[id].secretValues(settings, sectionOf(config, id));
}

/** Reads config and environment. Throws ConfigError with one line on anything wrong. */
export function loadSettings(e: NodeJS.ProcessEnv = process.env): Settings {
  checkLogLevel(e);
  const home = resolveHome(e);
  const configPath = resolveConfigPath(e, home);
  const read = envReader(e);
  const config = withDoorOverrides(read, loadConfigFile(configPath));
  const model = resolveModel(e, config);

  const doors: Partial<Record<DoorId, unknown>> = {};
  const doorSecretValues: string[] = [];
  for (const id of DOOR_IDS) {
    const settings = doorSettings(id, read, config);
    if (settings !== undefined) doors[id] = settings;
    doorSecretValues.push(...doorSecrets(id, settings, config));
  }

  const secrets = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'TRANSCRIPTION_API_KEY', ...DOOR_IDS.flatMap((id) => DOORS[id].variables.secrets), 'SWITCHBOARD_CONSOLE_TOKEN', 'SWITCHBOARD_METRICS_TOKEN']
    .map((n) => env(e, n))
    .concat(doorSecretValues)
    .filter((v): v is string => Boolean(v) && (v as string).length >= 4);
  const databaseUrl = databaseUrlOf(e);
  const dbPassword = databaseUrl ? passwordOf(databaseUrl) : undefined;
  if (dbPassword) secrets.push(dbPassword);
  const instanceId = env(e, 'SWITCHBOARD_INSTANCE_ID') ?? `${hostname()}-${process.pid}`;

  const consoleSettings: ConsoleSettings = {
    port: port(e, 'SWITCHBOARD_CONSOLE_PORT', config.console.port),
    host: env(e, 'SWITCHBOARD_CONSOLE_HOST') ?? config.console.host,
    token: env(e, 'SWITCHBOARD_CONSOLE_TOKEN'),
  };

  const health: HealthSettings = {
    port: port(e, 'SWITCHBOARD_HEALTH_PORT', 8788),
    host: env(e, 'SWITCHBOARD_HEALTH_HOST') ?? '127.0.0.1',
    metricsToken: env(e, 'SWITCHBOARD_METRICS_TOKEN'),
  };
  if (health.port !== 0 && !health.metricsToken && !isLoopback(health.host)) {
    throw new ConfigError(`SWITCHBOARD_METRICS_TOKEN: must be set when SWITCHBOARD_HEALTH_HOST is ${health.host} (not loopback), so /metrics is not open to the network`);
  }

  // The definitions read each door under its own id; the map's type says which may be absent.
  const transcription = {
    baseURL: url(e, 'TRANSCRIPTION_BASE_URL') ?? config.transcription.base_url ?? (model.provider === 'openai' ? (model.baseURL ?? 'https://api.openai.com/v1') : undefined),
    apiKey: env(e, 'TRANSCRIPTION_API_KEY') ?? (model.provider === 'openai' ? model.apiKey : undefined),
  };
  return { ...(doors as DoorSettingsMap), home, configPath, config, model, databaseUrl, instanceId, console: consoleSettings, health, secrets, transcription };
}

/** IMAP_URL (ARCHITECTURE.md §4) as the e-mail door reads it; anything wrong is one ConfigError line, the password hidden. */
export function parseImapUrl(raw: string): ImapSettings {
  return parseImap(raw, (line) => {
    throw new ConfigError(line);
  });
}

/**
 * DATABASE_URL: unset (or empty) is the embedded SQLite; `postgres://` or `postgresql://` with a
 * host is PostgreSQL; anything else is one ConfigError line (never silently SQLite).
 */
function databaseUrlOf(e: NodeJS.ProcessEnv): string | undefined {
  const raw = env(e, 'DATABASE_URL');
  if (raw === undefined) return undefined;
  const shown = hidePassword(raw);
  if (!/^postgres(ql)?:\/\//i.test(raw)) {
    throw new ConfigError(`DATABASE_URL: '${shown}' is not a postgres:// URL (postgres://user:password@host:5432/database); unset it to use SQLite in SWITCHBOARD_HOME`);
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`DATABASE_URL: '${shown}' is not a valid URL (postgres://user:password@host:5432/database; percent-encode special characters in the password)`);
  }
  if (!parsed.hostname) throw new ConfigError(`DATABASE_URL: '${shown}' names no host (postgres://user:password@host:5432/database)`);
  return raw;
}

/**
 * Creates the data folder if needed and checks that a folder can be made in it, for the commands
 * that write there (start, chat, cron run, doctor), with one line naming SWITCHBOARD_HOME when that
 * cannot work (see makeDirs: under /proc it would otherwise hang).
 */
export function ensureHome(home: string): void {
  const fail = (what: string, error: unknown): never => {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigError(`SWITCHBOARD_HOME: ${what} ${home} (${code}); set SWITCHBOARD_HOME to a folder you can write`);
  };
  try {
    makeDirs(home);
  } catch (error) {
    fail('cannot create', error);
  }
  if (!statSync(home).isDirectory()) fail('is not a folder:', Object.assign(new Error(), { code: 'ENOTDIR' }));
  const probe = join(home, `.write-check-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
  } catch (error) {
    fail('cannot write in', error);
  }
}
