/**
 * The helpers the English pattern table's `accept` tests share: public IPv4, local URLs, base64
 * payloads, trusted installers, hidden-comment instructions, emoji joiners.
 */

export const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** True for an IPv4 address on the public internet (not loopback, private, link-local or unspecified). */
export function isPublicIpv4(ip: string): boolean {
  const m = IPV4.exec(ip);
  if (!m) return false;
  const [a, b, c, d] = m.slice(1).map(Number);
  if ([a, b, c, d].some((x) => x > 255)) return false; // a version number like 1.2.3.400, not an address
  if (a === 0 || a === 10 || a === 127) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false; // carrier-grade NAT
  if (a >= 224) return false; // multicast, reserved, broadcast
  return true;
}

export const LOCAL_URL = /^(?:<?https?:\/\/)(?:localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)(?:[:/]|$)/i;

/** Words that mark a parameter or placeholder as carrying data worth stealing. */
export const SENSITIVE_PARAM =
  /secret|token|key|pass|pwd|cred|env|cookie|session|memory|history|conversation|prompt|content|data|payload|exfil|leak|dump|b64|base64|output|result|response|answer|summary|info|system|file/i;

export const EMOJI_BEFORE = /(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)$/u;
export const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;
export const LETTER_BEFORE = /[^\P{L}A-Za-z]$/u;
export const LETTER_AFTER = /^[^\P{L}A-Za-z]/u;

export const BASE64_CHARS = /^[A-Za-z0-9+/_-]+$/;

/**
 * Decodes a base64 / base64url token and returns the text when it is readable (≥ 95% printable
 * ASCII, at least `minLength` characters), else null. Random ids, hashes and paths decode to
 * binary noise, so only smuggled text passes.
 */
export function decodeBase64Text(token: string, minLength = 16): string | null {
  let end = token.length;
  while (end > 0 && token.charCodeAt(end - 1) === 0x3d) end--; // the '=' padding (no regex over a long token)
  const clean = token.slice(0, end);
  if (clean.length < Math.ceil((minLength * 4) / 3) || clean.length > 8192) return null;
  // A long token is decoded piece by piece first (256 characters are 192 whole bytes), stopping
  // as soon as the noise certainly exceeds 5% of the whole (at most ceil(3n/4) bytes): random
  // runs fail within a few hundred bytes, and only a token that survives is decoded in full.
  if (clean.length > 512 && BASE64_CHARS.test(clean)) {
    const limit = Math.ceil((clean.length * 3) / 4) * 0.05 + 1;
    let noise = 0;
    for (let at = 0; at + 256 <= clean.length; at += 256) {
      const part = Buffer.from(clean.slice(at, at + 256).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      for (let i = 0; i < part.length; i++) {
        const c = part[i];
        if (!((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x09 || c === 0x0d) && ++noise > limit) return null;
      }
    }
  }
  const bytes = Buffer.from(clean.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length < minLength) return null;
  // Stops as soon as the noise is certainly over 5% (random ids and hashes fail within bytes).
  const limit = bytes.length * 0.05 + 1;
  let printable = 0;
  for (let i = 0, noise = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x09 || b === 0x0d) printable++;
    else if (++noise > limit) return null;
  }
  if (printable / bytes.length < 0.95) return null;
  const text = bytes.toString('latin1');
  return /[A-Za-z]{3}/.test(text) ? text : null;
}

/**
 * Hosts whose `curl … | sh` one-liners are the official install instructions of common tools
 * (rustup, uv, Bun, Docker, Homebrew …). Piping anything else into a shell is a hit.
 */
export const TRUSTED_INSTALLERS =
  /^https:\/\/(?:sh\.rustup\.rs|(?:www\.)?astral\.sh|bun\.sh|get\.docker\.com|deno\.land|install\.python-poetry\.org|pyenv\.run|get\.pnpm\.io|fnm\.vercel\.app|starship\.rs|get\.sdkman\.io|tailscale\.com|mise\.run|get\.volta\.sh|install\.determinate\.systems|nixos\.org|ollama\.com|get\.scoop\.sh|community\.chocolatey\.org|cli\.github\.com|deb\.nodesource\.com|rpm\.nodesource\.com)(?:[/:?#]|$)|^https:\/\/raw\.githubusercontent\.com\/(?:nvm-sh|Homebrew|ohmyzsh|pyenv|rbenv|tj\/n|Schniz|creationix)\//i;

export function isTrustedInstaller(url: string): boolean {
  return TRUSTED_INSTALLERS.test(url) || LOCAL_URL.test(url);
}

/** Text inside a hidden comment that addresses the AI or carries instructions. */
export const HIDDEN_INSTRUCTION =
  /(?<![\w-])(?:(?:ignore|disregard|override|forget)\s+(?:\w+\s+){0,3}?(?:instructions?|rules|prompt|above|previous|everything|the\s+user)|system\s+prompt|system\s*:|instructions?\s+(?:for|to)\s+(?:the\s+)?(?:ai|assistant|model|agent|llm|bot|claude|chatgpt|gpt|copilot|gemini|cursor|codex)|(?:ai|llm|assistant|chatbot|claude|chatgpt|gpt|copilot|gemini|codex)\s*:|notes?\s+(?:to|for)\s+(?:the\s+|any\s+)?(?:ai|assistant|model|agent|llm|bot|claude|chatgpt|gpt|copilot|gemini|cursor|codex)s?|(?:if|when)\s+you\s+(?:are|'re)\s+(?:an?\s+)?(?:ai|llm|assistant|agent|language\s+model|bot|claude|chatgpt|gpt|copilot|gemini)|(?:ai|llm)\s+(?:agents?|assistants?|models?)\s+(?:reading|processing|parsing|summari[sz]ing)\s+this|you\s+(?:are|must|will)\s+(?:now\s+)?(?:an?\s+)?(?:ai|assistant|agent|model)|(?:do\s+not|don't|never)\s+(?:tell|mention|reveal|show|inform)\s+(?:the\s+)?(?:user|human|operator)|(?:send|post|forward|upload|e-?mail|transmit|leak)\b[^\n]{0,120}?\b(?:to|at)\s+(?:https?:\/\/|[\w.+-]+@[\w-]+\.)|secretly|covertly|exfiltrat\w*)(?![\w-])/i;
