/** URLs as they may be shown: with the password hidden. */

/** `scheme://user:***@host…`: a URL as it may be shown in an error line. */
export function hidePassword(url: string): string {
  // Up to the last '@': a password with an unencoded '/' or '@' is hidden whole (hiding more is safe).
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):.*@/i, '$1:***@');
}

/** The decoded password of a URL, when it is long enough to be worth redacting (4+ characters). */
export function passwordOf(url: string): string | undefined {
  try {
    const p = decodeURIComponent(new URL(url).password);
    return p.length >= 4 ? p : undefined;
  } catch {
    return undefined;
  }
}
