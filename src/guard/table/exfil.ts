/** The English table's exfiltration patterns (src/guard/patterns.ts). */
import { LOCAL_URL } from './kit.js';
import type { ThreatPattern } from './types.js';

export const EXFIL_PATTERNS: readonly ThreatPattern[] = [
  // ── exfiltration ────────────────────────────────────────────────────────
  {
    id: 'exfil-send-to-url',
    category: 'exfiltration',
    description: 'send / post / upload secrets, keys, .env, the conversation or memory to a URL, address or server',
    regex:
      /\b(?:send|post|upload|transmit|forward|exfiltrate|leak|submit|e-?mail|mail|deliver|beacon)\b[^\n]{0,80}?(?:\.env\b|\b(?:secrets?|api[\s_-]?keys?|keys|tokens?|credentials?|passwords?|passwd|env(?:ironment)?\s+var(?:iable)?s|ssh\b|id_rsa|private\s+keys?|conversations?|chat\s+(?:history|logs?)|message\s+history|history|system\s+prompt|memory|memories|MEMORY\.md|USER\.md|user\s+(?:data|profile|files|messages)|cookies?|session\s+(?:tokens?|ids?|data)|everything|all\s+(?:the\s+)?(?:files|data|messages|information)|(?:the\s+)?user'?s'?\s+(?:e-?mail|address|phone|full\s+name|name|data|files?|messages?|details|info(?:rmation)?|location|passwords?|profile)|personal\s+(?:data|information|details))\b)[^\n]{0,80}?\b(?:to|at|into|via)\s+(<?https?:\/\/\S+|(?:this|my|our|the\s+following|an?\s+(?:external|remote|outside))\s+(?:url|server|endpoint|webhook|address|e-?mail|site|host|ip|domain)|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\d{1,3}(?:\.\d{1,3}){3}|webhook)/gi,
    prose: true,
    // Sending a token to your own dev server on localhost is a setup step, not exfiltration.
    accept: (m) => !LOCAL_URL.test(m[1] ?? ''),
  },
  {
    id: 'exfil-collect-send',
    category: 'exfiltration',
    description: 'collect tokens / keys / passwords … and send them to a URL, address or IP',
    regex:
      /\b(?:collect|gather|grab|harvest|find|read|copy|extract|steal|scrape|take)\s+(?:all\s+|every\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|their\s+)?(?:tokens?|secrets?|credentials?|passwords?|api\s+keys?|keys|cookies|session\s+ids?|env(?:ironment)?\s+variables|\.env\b|private\s+keys?)[^\n]{0,80}?\b(?:send|post|upload|e-?mail|forward|transmit|exfiltrate|submit)\s+(?:them|it|those|these|everything|the\s+(?:results?|values?|list))\s+(?:to|at)\s+(<?https?:\/\/\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\d{1,3}(?:\.\d{1,3}){3})/gi,
    prose: true,
    accept: (m) => !LOCAL_URL.test(m[1] ?? ''),
  },
  {
    id: 'exfil-read-secret-file',
    // The verb comes first and the look-behind checks what precedes it: a regex that opens with a
    // look-behind loses V8's fast scan for its first character.
    category: 'exfiltration',
    description: 'an imperative to read / cat / print .env, SSH keys or credential files',
    regex:
      /(?:read|cat|less|print|dump|output|display|show|reveal|echo|base64|xxd|upload|send|exfiltrate)(?<=(?:^|[.!?;:]\s+|^\s*(?:[-*+]|\d+[.)])\s+|\b(?:then|and|also|first|please|now|just|you\s+(?:must|should|will))\s*,?\s+|\b(?:forget|remember|sure|need|have|want\s+you|going)\s+to\s+|[`"'(]\s*)(?:read|cat|less|print|dump|output|display|show|reveal|echo|base64|xxd|upload|send|exfiltrate))\s+(?:out\s+)?(?:me\s+)?(?:all\s+)?(?:the\s+)?(?:contents?\s+of\s+)?(?:the\s+|your\s+|my\s+|all\s+)?(?:files?\s+)?(?:[\w~.$/-]*\/)?(?:\.env(?![\w.-])|id_(?:rsa|ed25519|ecdsa|dsa)(?!\.pub\b)|\.ssh(?:\/(?!(?:[\w.-]+\.pub|known_hosts|authorized_keys|config)\b)|(?![\w/.-]))|\.aws\/credentials|\.netrc|\.pgpass|\.git-credentials|\.npmrc|\.pypirc|\/etc\/(?:shadow|passwd|sudoers)\b|credentials\.json)/gim,
    prose: true,
  },
  {
    id: 'exfil-show-keys',
    category: 'exfiltration',
    description: 'print / reveal / send the API keys, tokens, passwords or environment variables',
    regex:
      /\b(?:print|dump|output|display|show|reveal|echo|send|upload|exfiltrate|leak|disclose|list)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|any\s+)?(?:(?:ssh|private|secret|api)\s+keys?|(?:api|access|auth|bot|session)\s+tokens?|secrets|passwords|credentials|env(?:ironment)?\s+variables)\b(?!\s+(?:page|pages|settings|section|tab|screen|menu|panel|dialog|docs?|documentation|view|form|field|button|link)\b)|\b(?:include|insert|put|add|append|embed|mention|leak|reveal|print|show|send|tell\s+me|give\s+me)\s+(?:the\s+|every\s+|each\s+)?user'?s'?\s+(?:passwords?|credentials|api\s+keys?|tokens?|secrets?|credit\s+card(?:\s+numbers?)?|social\s+security\s+numbers?)\b/gi,
    prose: true,
  },
  {
    id: 'exfil-shell',
    category: 'exfiltration',
    description: 'shell exfiltration: curl/wget uploading a secret file, $(cat …) in a request, env piped to curl/nc',
    regex:
      /(?:\b(?:curl|wget|nc|ncat|netcat|socat|http|Invoke-WebRequest|iwr)\b[^\n]{0,300}?(?:\s(?:-d|--data(?:-\w+)?|-F|--form|-T|--upload-file|--post-file|--body-file)[=\s]*["']?[\w=]*@?(?:[\w~.$/-]*\/)?(?:\.env\b|id_rsa|id_ed25519|\.ssh\/|\.aws\/|\.netrc|credentials)|\$\(\s*(?:cat|env|printenv|base64)\b|`(?:cat|env|printenv)\b)|\b(?:env|printenv|history|cat\s+\S*(?:\.env|id_rsa|credentials|\.ssh\/\S*|\.netrc))\s*\|\s*(?:base64\s*\|\s*)?(?:curl|wget|nc|ncat|netcat|socat)\b)/gi,
    prose: true,
  },
  {
    id: 'exfil-env-var',
    category: 'exfiltration',
    description: 'print / echo / include a secret environment variable ($OPENAI_API_KEY, $GITHUB_TOKEN) in the answer',
    regex:
      /\b(?:print|echo|output|show|reveal|display|include|send|tell\s+me|give\s+me|paste|share|post|upload|leak|write\s+out|dump)\s+(?:me\s+)?(?:the\s+)?(?:(?:value|contents?)\s+of\s+)?(?:the\s+)?["'`]?(?:\$\{?|%|process\.env\.|os\.environ\[["']?|\$env:)?([A-Z][A-Z0-9]*_[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PAT|CREDENTIALS?))\b\}?%?(?!["'`]?\s*(?:[|>]|variable|env(?:ironment)?\s+var|in\s+(?:your|the)\s+(?:shell|\.env|environment|settings|config)))/gi,
    prose: true,
    // the variable name must be written in capitals (a constant), the verb in any case
    accept: (m) => /^[A-Z0-9_]+$/.test(m[1] ?? ''),
  },
  {
    id: 'exfil-env-dump',
    category: 'exfiltration',
    description: 'run printenv / env / set and send or paste the output',
    regex:
      /\b(?:printenv|env|export\s+-p|Get-ChildItem\s+env:|gci\s+env:)[`'"]?\s+(?:and|then|&&|,)\s+(?:\w+\s+){0,2}?(?:send|post|paste|share|show|tell|give|include|upload|e-?mail|forward|reply)\b/gi,
    prose: true,
  },
];
