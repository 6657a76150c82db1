/**
 * The one error sink and log: plain lines on stderr, `LOG_LEVEL` = debug|info|warn|error|silent.
 * Every line passes through redaction so that no token or key reaches a log.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(scope: string, message: string): void;
  info(scope: string, message: string): void;
  warn(scope: string, message: string): void;
  error(scope: string, message: string): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  secrets?: readonly string[];
  write?: (line: string) => void;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const list = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  // Also catch bot tokens embedded in URLs (e.g. /bot123:ABC/sendMessage) even when unknown.
  const tokenInUrl = /\/bot\d+:[A-Za-z0-9_-]+/g;
  const pattern = list.length ? new RegExp(list.map(escapeRegExp).join('|'), 'g') : null;
  return (text) => {
    let out = pattern ? text.replace(pattern, '[REDACTED]') : text;
    out = out.replace(tokenInUrl, '/bot[REDACTED]');
    return out;
  };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const envLevel = (process.env.LOG_LEVEL ?? '').toLowerCase();
  const level: LogLevel = options.level ?? (envLevel in ORDER ? (envLevel as LogLevel) : 'info');
  const redact = createRedactor(options.secrets ?? []);
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const log = (l: LogLevel) => (scope: string, message: string) => {
    if (ORDER[l] < ORDER[level]) return;
    write(redact(`${new Date().toISOString()} ${l.padEnd(5)} [${scope}] ${message}`));
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** A logger that drops everything (tests, inspect-only commands). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
