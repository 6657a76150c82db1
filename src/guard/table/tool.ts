/** The English table's tool hijack patterns (src/guard/patterns.ts). */
import { isTrustedInstaller } from './kit.js';
import type { ThreatPattern } from './types.js';

export const TOOL_PATTERNS: readonly ThreatPattern[] = [
  // ── tool hijack ─────────────────────────────────────────────────────────
  {
    id: 'tool-rm-rf',
    category: 'tool_hijack',
    description: 'rm -rf aimed at /, ~, $HOME, *, . or a system folder',
    regex:
      /\b(?:sudo\s+)?rm\s+(?:-[a-zA-Z]+\s+|--[a-z-]+\s+)*?(?:-[a-zA-Z]*(?:[rR][a-zA-Z]*f|f[a-zA-Z]*[rR])[a-zA-Z]*|-[rR]\s+-f|-f\s+-[rR]|--recursive\s+--force|--force\s+--recursive)\s+(?:--no-preserve-root\s+)?["']?(?:\/|~\/?|\$HOME\/?|\$\{HOME\}\/?|\*|\.\.?\/?|\/\*|~\/\*|\/(?:etc|usr|var|home|root|bin|sbin|boot|lib|lib64|opt|srv|Users|System)(?:\/\*?)?)["']?(?=\s|$|[;&|`'")])/gm,
    prose: true,
  },
  {
    id: 'tool-rm-rf-words',
    category: 'tool_hijack',
    description: 'rm -rf on "everything", the home folder, the whole repo; delete every file in the home directory; wipe the disk',
    regex:
      /\brm\s+-[a-zA-Z]*(?:rf|fr)[a-zA-Z]*\s+(?:on\s+|in\s+)?(?:everything|all\s+(?:files|folders|directories)|the\s+(?:home|root|entire|whole)\b|your\s+(?:home|files|repo|project|workspace|disk|system)\b|the\s+(?:repo|repository|project|workspace|disk|system)\b)|\b(?:delete|remove|wipe|erase|destroy|shred)\s+(?:every|all(?:\s+of)?|each)\s+(?:the\s+)?(?:files?|folders?|director(?:y|ies)|data|repos(?:itories)?|backups?)\s+(?:in|on|from|under|inside)\s+(?:the\s+|your\s+|my\s+|this\s+)?(?:home\s+(?:directory|folder|dir)|disk|drive|system|computer|machine|server|file\s*system|hard\s+drive|~\/?|\/)(?=[\s.,;:!?)]|$)|\b(?:wipe|erase|format)\s+(?:the\s+|your\s+)(?:disk|drive|hard\s+drive|home\s+(?:directory|folder)|file\s*system|server|machine)\b/gi,
    prose: true,
  },
  {
    id: 'tool-destroy',
    category: 'tool_hijack',
    description: 'disk / system destruction: mkfs, dd onto a device, fork bomb, chmod -R 777 /, find / -delete, force-push to main',
    regex:
      /(?:\bmkfs(?:\.\w+)?\s+\/dev\/|\bdd\s+[^\n]{0,200}?\bof=\/dev\/(?:sd|hd|nvme|disk|xvd|vd)|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bchmod\s+-R\s+0?777\s+\/(?:\s|$)|>\s*\/dev\/(?:sd[a-z]|nvme\d)|\bformat\s+c:|\bfind\s+(?:\/|~\/?|\$HOME\/?)(?=\s)[^\n|;]{0,100}?\s-(?:delete\b|exec\s+rm\b)|\bgit\s+push\s+(?:\S+\s+){0,3}?(?:-f|--force)(?![\w-])[^\n;&|]{0,40}?\b(?:main|master|production|prod|release)\b)/gim,
    prose: true,
  },
  {
    id: 'tool-decode-exec',
    category: 'tool_hijack',
    description: 'decode-and-execute: base64 -d | sh, eval "$(curl …)", IEX (New-Object Net.WebClient).DownloadString(…)',
    regex:
      /(?:\bbase64\s+(?:-d|--decode|-D)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\beval\s*\(?\s*["'`]?\$\(\s*(?:curl|wget)\b|\b(?:IEX|Invoke-Expression)\s*\(?\s*\(?\s*(?:New-Object\s+(?:System\.)?Net\.WebClient\)?\s*\.\s*DownloadString|(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b))/gi,
    prose: true,
  },
  {
    id: 'tool-pipe-shell',
    category: 'tool_hijack',
    description: 'curl / wget / iwr output piped into a shell (curl … | sh, iwr … | iex), except well-known installers over https',
    regex:
      // The pipe-to-interpreter is checked first (one look-ahead per command), then the URL is taken.
      /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|fetch)\b(?=[^\n|;]{0,420}\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z|da|k|fi)?sh\b|python3?(?=\s*(?:-\s|-$|$|[`'");&]))|perl\b(?!\s+-[np])|ruby\b(?!\s+-[ne])|node\b(?!\s+-[ep])|iex\b|Invoke-Expression\b))[^\n|;]{0,300}?((?:https?|ftp):\/\/[^\s'"`|)]+)/gim,
    prose: true,
    accept: (m) => !isTrustedInstaller(m[1] ?? ''),
  },
  {
    id: 'tool-ssh-backdoor',
    category: 'tool_hijack',
    description: 'echo a literal public key into authorized_keys (a backdoor)',
    regex:
      /\becho\s+["']?(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-ssh-\S+)\s+[A-Za-z0-9+/=]{16,}[^\n]{0,120}?>>?\s*["']?\S*authorized_keys\b/g,
    prose: false,
  },
];
