import { hostname } from 'node:os';
import { z } from 'zod';
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs } from './fs.js';
import type { AppConfig } from './config.js';
import { loadConfigFile, resolveConfigPath, resolveHome } from './config.js';
import { ConfigError } from './errors.js';

/** Who may talk on a platform: `*` = everyone, otherwise a set of platform user ids. Unset = nobody. */
export interface AllowList {
  everyone: boolean;
  ids: ReadonlySet<string>;
}

export function parseAllowList(value: string | undefined): AllowList {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { everyone: items.includes('*'), ids: new Set(items.filter((s) => s !== '*')) };
}

export function isAllowed(list: AllowList, userId: string): boolean {
  return list.everyone || list.ids.has(userId);
}

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

export interface TelegramSettings {
  token: string;
  apiRoot?: string;
  allowed: AllowList;
}
export interface SlackSettings {
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  apiUrl?: string;
  port: number;
  allowed: AllowList;
}
export interface DiscordSettings {
  token: string;
  apiUrl?: string;
  gatewayUrl?: string;
  allowed: AllowList;
}
/** The mailbox read as a chat door (IMAP_URL, DESIGN §11). */
export interface ImapSettings {
  host: string;
  port: number;
  /** imaps:// — TLS from the start; imap:// — STARTTLS when the server offers it. */
  secure: boolean;
  user: string;
  pass: string;
  mailbox: string;
  /** The URL with the password hidden, for messages. */
  shown: string;
}
export interface EmailSettings {
  smtpUrl?: string;
  from: string;
  allowed: AllowList;
  /** Inbound mail; absent: the e-mail door only sends. */
  imap?: ImapSettings;
}

/** The web console (DESIGN §12): where it listens and, when set explicitly, its access token. */
export interface ConsoleSettings {
  /** 0 = off. */
  port: number;
  host: string;
  /** SWITCHBOARD_CONSOLE_TOKEN; unset = generated once into $SWITCHBOARD_HOME/console.token. */
  token?: string;
}

/** Config file + environment, merged once at start. Environment variables win. */
export interface Settings {
  home: string;
  configPath: string;
  config: AppConfig;
  model: ModelSettings;
  telegram?: TelegramSettings;
  slack?: SlackSettings;
  discord?: DiscordSettings;
  email: EmailSettings;
  /** DATABASE_URL when it names PostgreSQL (`postgres://…`); unset: embedded SQLite in `home` (DESIGN §9). */
  databaseUrl?: string;
  /** This instance's name in logs, leases and `doctor` (SWITCHBOARD_INSTANCE_ID, default `<hostname>-<pid>`). */
  instanceId?: string;
  /** Always set by loadSettings; absent in hand-made test settings (the console is then off). */
  console?: ConsoleSettings;
  /** Secret values to redact from every log line. */
  secrets: string[];
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

/**
 * TELEGRAM_WEBHOOK_URL / _PORT / _SECRET override `telegram.webhook_url`, `webhook_port`,
 * `webhook_secret`: one config file for several instances, each on its own port (DESIGN §4).
 */
function withTelegramWebhookEnv(e: NodeJS.ProcessEnv, config: AppConfig): AppConfig {
  const webhookUrl = env(e, 'TELEGRAM_WEBHOOK_URL');
  if (webhookUrl !== undefined) {
    // Kept as written (the path matters to Telegram and to the server); only checked to be a URL.
    let parsed: URL;
    try {
      parsed = new URL(webhookUrl);
    } catch {
      throw new ConfigError(`TELEGRAM_WEBHOOK_URL: '${webhookUrl}' is not a URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new ConfigError(`TELEGRAM_WEBHOOK_URL: '${webhookUrl}' is not an http(s) URL`);
  }
  const webhookPort = env(e, 'TELEGRAM_WEBHOOK_PORT') === undefined ? undefined : port(e, 'TELEGRAM_WEBHOOK_PORT', 0);
  const webhookSecret = env(e, 'TELEGRAM_WEBHOOK_SECRET');
  if (webhookSecret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(webhookSecret)) {
    throw new ConfigError('TELEGRAM_WEBHOOK_SECRET: 1-256 characters of A-Z, a-z, 0-9, _ and - (what Telegram accepts as secret_token)');
  }
  if (webhookUrl === undefined && webhookPort === undefined && webhookSecret === undefined) return config;
  return {
    ...config,
    telegram: {
      ...config.telegram,
      ...(webhookUrl !== undefined ? { webhook_url: webhookUrl } : {}),
      ...(webhookPort !== undefined ? { webhook_port: webhookPort } : {}),
      ...(webhookSecret !== undefined ? { webhook_secret: webhookSecret } : {}),
    },
  };
}

/** Reads config and environment. Throws ConfigError with one line on anything wrong. */
export function loadSettings(e: NodeJS.ProcessEnv = process.env): Settings {
  checkLogLevel(e);
  const home = resolveHome(e);
  const configPath = resolveConfigPath(e, home);
  const config = withTelegramWebhookEnv(e, loadConfigFile(configPath));
  const model = resolveModel(e, config);

  const tgToken = env(e, 'TELEGRAM_BOT_TOKEN');
  const telegram = tgToken
    ? { token: tgToken, apiRoot: url(e, 'TELEGRAM_API_ROOT'), allowed: parseAllowList(env(e, 'TELEGRAM_ALLOWED_USERS')) }
    : undefined;

  const slackToken = env(e, 'SLACK_BOT_TOKEN');
  const slack = slackToken
    ? {
        botToken: slackToken,
        signingSecret: env(e, 'SLACK_SIGNING_SECRET'),
        appToken: env(e, 'SLACK_APP_TOKEN'),
        apiUrl: url(e, 'SLACK_API_URL'),
        port: port(e, 'SLACK_PORT', 3000),
        allowed: parseAllowList(env(e, 'SLACK_ALLOWED_USERS')),
      }
    : undefined;

  const discordToken = env(e, 'DISCORD_BOT_TOKEN');
  const discord = discordToken
    ? {
        token: discordToken,
        apiUrl: url(e, 'DISCORD_API_URL'),
        gatewayUrl: url(e, 'DISCORD_GATEWAY_URL'),
        allowed: parseAllowList(env(e, 'DISCORD_ALLOWED_USERS')),
      }
    : undefined;

  const imapRaw = env(e, 'IMAP_URL');
  const email: EmailSettings = {
    smtpUrl: env(e, 'SMTP_URL'),
    from: env(e, 'EMAIL_FROM') ?? config.email.from ?? 'Switchboard <switchboard@localhost>',
    // Addresses compare lower-cased (DESIGN §11); the adapter lower-cases the sender too.
    allowed: parseAllowList(env(e, 'EMAIL_ALLOWED_SENDERS')?.toLowerCase()),
    imap: imapRaw === undefined ? undefined : parseImapUrl(imapRaw),
  };

  const secrets = [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'TELEGRAM_BOT_TOKEN',
    'SLACK_BOT_TOKEN',
    'SLACK_SIGNING_SECRET',
    'SLACK_APP_TOKEN',
    'DISCORD_BOT_TOKEN',
    'SWITCHBOARD_CONSOLE_TOKEN',
  ]
    .map((n) => env(e, n))
    .concat(config.telegram.webhook_secret ?? undefined)
    .filter((v): v is string => Boolean(v) && (v as string).length >= 4);
  const smtp = email.smtpUrl ? safePassword(email.smtpUrl) : undefined;
  if (smtp) secrets.push(smtp);
  if (email.imap && email.imap.pass.length >= 4) secrets.push(email.imap.pass);
  const databaseUrl = databaseUrlOf(e);
  const dbPassword = databaseUrl ? safePassword(databaseUrl) : undefined;
  if (dbPassword) secrets.push(dbPassword);
  const instanceId = env(e, 'SWITCHBOARD_INSTANCE_ID') ?? `${hostname()}-${process.pid}`;

  const consoleSettings: ConsoleSettings = {
    port: port(e, 'SWITCHBOARD_CONSOLE_PORT', config.console.port),
    host: env(e, 'SWITCHBOARD_CONSOLE_HOST') ?? config.console.host,
    token: env(e, 'SWITCHBOARD_CONSOLE_TOKEN'),
  };

  return { home, configPath, config, model, telegram, slack, discord, email, databaseUrl, instanceId, console: consoleSettings, secrets };
}

/** `scheme://user:***@host…`: a URL as it may be shown in an error line. */
export function hidePassword(url: string): string {
  // Up to the last '@': a password with an unencoded '/' or '@' is hidden whole (hiding more is safe).
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):.*@/i, '$1:***@');
}

const IMAP_FORM = 'imaps://user:password@host:993/INBOX or imap://user:password@host:143/INBOX';

const imapUrlSchema = z
  .url({ protocol: /^imaps?$/, error: `expected ${IMAP_FORM}` })
  .transform((raw) => new URL(raw))
  .refine((u) => u.hostname !== '', { error: `names no host (${IMAP_FORM})` })
  .refine((u) => u.username !== '' && u.password !== '', { error: `needs the user and password (${IMAP_FORM}; percent-encode special characters)` });

/**
 * IMAP_URL (DESIGN §4): `imaps://user:pass@host:993/INBOX` (TLS) or `imap://…:143/…` (STARTTLS when
 * offered); the path is the mailbox (default INBOX). Anything else is one ConfigError line with the
 * password hidden.
 */
export function parseImapUrl(raw: string): ImapSettings {
  const shown = hidePassword(raw);
  const result = imapUrlSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(`IMAP_URL: '${shown}' ${result.error.issues[0]?.message ?? 'is not valid'}`);
  const u = result.data;
  const secure = u.protocol === 'imaps:';
  let user: string;
  let pass: string;
  let mailbox: string;
  try {
    user = decodeURIComponent(u.username);
    pass = decodeURIComponent(u.password);
    mailbox = decodeURIComponent(u.pathname.replace(/^\/+/, '').replace(/\/+$/, '')) || 'INBOX';
  } catch {
    throw new ConfigError(`IMAP_URL: '${shown}' has a bad percent-escape (${IMAP_FORM})`);
  }
  const port = u.port ? Number(u.port) : secure ? 993 : 143;
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port, secure, user, pass, mailbox, shown };
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

function safePassword(url: string): string | undefined {
  try {
    const p = decodeURIComponent(new URL(url).password);
    return p.length >= 4 ? p : undefined;
  } catch {
    return undefined;
  }
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
