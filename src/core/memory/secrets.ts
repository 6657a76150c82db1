/**
 * Secrets never go into memory (ARCHITECTURE.md §7b, least privilege): MEMORY.md and USER.md enter every
 * later system prompt, so a stored API key or password would be repeated to whoever manages to
 * ask. `secretKind` names what an entry looks like (an API key, a private key, a password) or
 * returns null. Wording about secrets ("rotates keys monthly", "keeps passwords in 1Password")
 * is no secret: a value must be present.
 */

/** Provider token shapes: fixed prefixes, so a hit is never ordinary prose. */
const TOKEN_SHAPES: readonly [RegExp, string][] = [
  [/-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/, 'a private key'],
  [/\b(?:sk-(?:ant-|proj-|live_|test_)?[A-Za-z0-9_-]{20,}|rk_(?:live|test)_[A-Za-z0-9]{16,}|sk_(?:live|test)_[A-Za-z0-9]{16,})\b/, 'an API key'],
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}\b|\bglpat-[A-Za-z0-9_-]{20,}\b/, 'an access token'],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}\b|\bxapp-\d-[A-Za-z0-9-]{10,}\b/, 'a Slack token'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  [/\b\d{8,10}:AA[A-Za-z0-9_-]{30,}\b/, 'a Telegram bot token'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/, 'a signed token (JWT)'],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:[^\s@/]{3,}@/i, 'a URL with a password'],
];

/** A credential word, in the languages the threat scan reads, then `:`/`=`/"is" and a value. */
const LABELLED =
  /(?:\b(?:password|passwd|passphrase|pass(?:word)?\s*code|pin|api[\s_-]?key|secret(?:[\s_-]?key)?|access[\s_-]?key|auth[\s_-]?token|access[\s_-]?token|bearer|token|private[\s_-]?key|passwort|kennwort|mot\s+de\s+passe|contraseña|clave|senha|parola\s+d['’]ordine|şifre(?:si)?|parola)\b|(?<![\p{L}])(?:пароль|ключ|токен)(?![\p{L}])|密码|口令|パスワード|暗証番号|비밀번호|암호|كلمة\s+(?:ال)?مرور|पासवर्ड)\s*(?:(?:is|was|ist|est|es|é|è|равен|это|:|=|：|は|는|是|为)\s*)+["'`«“]?([^\s"'`»”,;]{6,})/iu;

/** Words that make a labelled "value" a description, not a secret ("password: stored in 1Password"). */
const NOT_A_VALUE = /^(?:stored|kept|saved|managed|rotated|required|optional|changed|expired|unknown|redacted|hidden|none|null|empty|set|unset|see|in|at|from|the|a|an|not|never|\*+|x+|\.+|<[^>]*>|\$\{?\w+\}?|%\w+%|\{\{?[^}]*\}?\})$/i;

/** What `text` looks like when it holds a credential, e.g. "an API key"; null when it holds none. */
export function secretKind(text: string): string | null {
  for (const [re, kind] of TOKEN_SHAPES) if (re.test(text)) return kind;
  const m = LABELLED.exec(text);
  if (m) {
    const value = m[1] ?? '';
    if (!NOT_A_VALUE.test(value) && /[0-9!@#$%^&*_+=-]|[A-Z].*[a-z]|[a-z].*[A-Z]/.test(value)) return 'a password or key';
  }
  return null;
}
