/**
 * Text shaped like a credential (ARCHITECTURE.md §17 "Secrets never reach the model"): provider key
 * prefixes, tokens with a fixed form, private key blocks, URLs with a password, and credential
 * assignments (`password=…`, `secret: …`, `API_KEY="…"`). Each shape names the part to replace, so
 * `DB_PASSWORD=hunter22` keeps its name and loses its value.
 *
 * Kept narrow on purpose: ordinary hex hashes, UUIDs, git SHAs, version strings and code
 * (`token = getToken()`, `apiKey: process.env.OPENAI_API_KEY`) are not secrets. Every shape either
 * has a fixed prefix no prose has, or needs a credential word right before a value that looks like one.
 */

export interface SecretShape {
  /** What the shape is, for logs and tests (`an OpenAI key`). */
  kind: string;
  /** Global regex; `value` (a named group) is what is replaced, else the whole match. */
  regex: RegExp;
  /** Further check of a match (values that must mix letters and digits). */
  accept?: (value: string) => boolean;
}

/** A value that mixes at least two of: lower case, upper case, digits (so words and numbers are not secrets). */
const mixed = (v: string): boolean => [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(v)).length >= 2;

/** Placeholders and references that stand for a secret without being one. */
const PLACEHOLDER =
  /^(?:your|my|example|sample|changeme|change[_-]?me|placeholder|dummy|redacted|xxx|\*\*\*|<)|(?:example|placeholder|_here|-here|changeme)|^\$|^%|^process\.env|^os\.environ|^env\(|^(?:true|false|null|none|undefined|string|number|required|optional)$/i;

/** `config.auth.token`, `settings.apiKey`: a dotted name, not a value. */
const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/** A credential value after `name=` / `name:`: at least 8 characters, not a placeholder, not a name. */
function credentialValue(v: string): boolean {
  if (v.length < 8 || PLACEHOLDER.test(v) || DOTTED_NAME.test(v)) return false;
  if (/^(.)\1+$/.test(v)) return false; // ******** or xxxxxxxx
  if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/.test(v)) return false; // `LIVE_E2E_API_KEY`: the name of a variable
  // letters and digits: hunter22, Tr0ub4dor&3, s3cr3t-Value (a bare camelCase word is a variable name)
  return /[A-Za-z]/.test(v) && /[0-9]/.test(v);
}

const CREDENTIAL_WORD = String.raw`(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?|auth[_-]?key)`;

export const SECRET_SHAPES: readonly SecretShape[] = [
  {
    kind: 'a private key',
    // the whole block, BEGIN to END; without its END line, the BEGIN line and the base64 lines after it
    regex:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,16384}?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?:\s*[A-Za-z0-9+/=]{8,}){0,400})/g,
  },
  { kind: 'an Anthropic key', regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'an OpenAI key', regex: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, accept: (v) => /[0-9]/.test(v) && /[A-Za-z]/.test(v.slice(3)) },
  { kind: 'a Stripe key', regex: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  // an AWS secret key written next to its key id ("AKIA… / wJalr…", a CSV row): 40 base64 characters
  {
    kind: 'an AWS secret key',
    regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b[^\n]{0,80}?(?<![A-Za-z0-9/+])(?<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
    accept: (v) => mixed(v) && /[0-9/+]/.test(v),
  },
  { kind: 'an AWS access key', regex: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g },
  { kind: 'a GitHub token', regex: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: 'a GitLab token', regex: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'a Slack token', regex: /\b(?:xox[abprs]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})/g },
  { kind: 'a Google API key', regex: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'a Telegram bot token', regex: /\b\d{5,12}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g, accept: mixed },
  { kind: 'a signed token (JWT)', regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // postgres://user:password@host: only the password goes
  { kind: 'a URL with a password', regex: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:(?<value>[^\s@/]{3,})@/gi, accept: (v) => !PLACEHOLDER.test(v) && !/^(?:\*+|\.+|[a-z]+)$/.test(v) }, // postgres:postgres@, user:password@: defaults
  { kind: 'a bearer token', regex: /\bBearer\s+(?<value>[A-Za-z0-9._~+/-]{20,}=*)/g, accept: mixed },
  {
    kind: 'a credential assignment',
    // DB_PASSWORD=…, "client_secret": "…", aws_secret_access_key = …, password: …
    regex: new RegExp(
      String.raw`(?<![\w.-])[\w.-]*?${CREDENTIAL_WORD}[\w.-]*["']?[ \t]*(?:=|:(?!//))[ \t]*["'\x60]?(?<value>[^\s"'\x60,;(){}\[\]<>]{8,200})(?![(\w])`,
      'gi',
    ),
    accept: credentialValue,
  },
];
