/**
 * The settings' own secrets, as the redactor must know them verbatim (ARCHITECTURE.md §17): every
 * value `loadSettings` collects for log redaction (model keys, bot tokens, signing secrets, SMTP
 * and IMAP passwords, the DATABASE_URL password, SWITCHBOARD_CONSOLE_TOKEN), the generated console
 * token in `$SWITCHBOARD_HOME/console.token`, and the guard model's key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../settings.js';
import { createRedactor, type Redactor } from './redact.js';

/** The file the console keeps a generated token in (src/console/auth.ts; core does not import the console). */
const CONSOLE_TOKEN_FILE = 'console.token';

function consoleTokenFile(home: string): string | null {
  try {
    return readFileSync(join(home, CONSOLE_TOKEN_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** The secret values of `settings` (and `env`: the guard model's key variable). */
export function knownSecrets(settings: Pick<Settings, 'secrets' | 'home' | 'config'>, env: NodeJS.ProcessEnv = process.env): string[] {
  const values = [...settings.secrets];
  const token = consoleTokenFile(settings.home);
  if (token) values.push(token);
  const keyEnv = settings.config.guard?.model?.api_key_env;
  const key = keyEnv ? env[keyEnv]?.trim() : undefined;
  if (key) values.push(key);
  return values;
}

/**
 * A redactor for the settings' secrets that notices a console token made after it was built (the
 * console makes one at its first start): the list is read again at most every `refreshMs`.
 */
export function settingsRedactor(settings: Pick<Settings, 'secrets' | 'home' | 'config'>, refreshMs = 5_000, now: () => number = Date.now): Redactor {
  let known = knownSecrets(settings);
  let redactor = createRedactor(known);
  let readAt = now();
  return {
    redact(text) {
      if (now() - readAt >= refreshMs) {
        readAt = now();
        const fresh = knownSecrets(settings);
        if (fresh.join('\0') !== known.join('\0')) redactor = createRedactor((known = fresh));
      }
      return redactor.redact(text);
    },
  };
}
