/**
 * Console access (ARCHITECTURE.md §12): one token; a login sets a signed cookie; forms carry a CSRF token.
 *
 * The cookie holds no token: it is `<nonce>.<HMAC(token, "session:" + nonce)>`, so it can be checked
 * without server state (a restart keeps logins) and a new token logs everyone out. The CSRF token of
 * a login is HMAC(token, "csrf:" + nonce): only a page served to that cookie can know it.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const COOKIE = 'switchboard_console';
export const TOKEN_FILE = 'console.token';

/** Compares two secrets in constant time (hashed first, so lengths do not leak either). */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

const mac = (token: string, what: string) => createHmac('sha256', token).update(what).digest('base64url');

/** A fresh login cookie value. */
export function newSessionCookie(token: string): string {
  const nonce = randomBytes(18).toString('base64url');
  return `${nonce}.${mac(token, `session:${nonce}`)}`;
}

/** The nonce of a valid cookie value, else null. */
export function checkSessionCookie(token: string, value: string | undefined): string | null {
  if (!value) return null;
  const dot = value.indexOf('.');
  if (dot <= 0) return null;
  const nonce = value.slice(0, dot);
  return sameSecret(value.slice(dot + 1), mac(token, `session:${nonce}`)) ? nonce : null;
}

export function csrfFor(token: string, nonce: string): string {
  return mac(token, `csrf:${nonce}`);
}

export function checkCsrf(token: string, nonce: string, given: unknown): boolean {
  return typeof given === 'string' && given.length > 0 && sameSecret(given, csrfFor(token, nonce));
}

/** Where the token comes from, for the start line (never the token itself). */
export type TokenSource = { kind: 'env' } | { kind: 'file'; path: string; created: boolean };

/**
 * SWITCHBOARD_CONSOLE_TOKEN when set; else `$SWITCHBOARD_HOME/console.token`, made once (32 random
 * bytes, mode 0600) when missing.
 */
export function consoleToken(home: string, explicit: string | undefined): { token: string; source: TokenSource } {
  if (explicit) return { token: explicit, source: { kind: 'env' } };
  const path = join(home, TOKEN_FILE);
  const read = (): string | null => {
    try {
      const text = readFileSync(path, 'utf8').trim();
      return text || null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
  const existing = read();
  if (existing) return { token: existing, source: { kind: 'file', path, created: false } };
  const token = randomBytes(32).toString('base64url');
  try {
    writeFileSync(path, token + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const theirs = read();
      if (theirs) return { token: theirs, source: { kind: 'file', path, created: false } };
    }
    throw error;
  }
  chmodSync(path, 0o600); // the umask may have taken bits away, never added; be explicit anyway
  return { token, source: { kind: 'file', path, created: true } };
}
