/**
 * THREAT_PATTERNS: the one published table of prompt-injection patterns (DESIGN §5 "Threat scan").
 *
 * Every file that enters the system prompt (SOUL.md, context files, skill descriptions) and every
 * memory entry the `memory` tool writes is scanned with this table (see threat-scan.ts).
 *
 * The patterns are written to catch text that *addresses the model* and not text that *talks
 * about* security, because context files are full of the latter ("never print API keys", "use
 * rm -rf only in the build dir", docs on what prompt injection is). Three devices keep the
 * false-positive rate down:
 * - objects are specific: "ignore previous *instructions*" is a hit, "ignore previous test
 *   failures" is not; `rm -rf` is a hit only aimed at `/`, `~`, `*`, `.` or a system folder;
 * - `prose` patterns are exempt when negated in the same sentence ("never cat .env") or when the
 *   sentence frames them as a discussion of attacks (see `isDiscussed` in threat-scan.ts);
 * - `accept` refines a match that needs more than a regex (is an IP public? is a zero-width
 *   joiner inside an emoji sequence?).
 *
 * Each pattern has a hit and a near-miss in test/core/prompt/threat-scan.test.ts.
 */

export type ThreatCategory =
  | 'instruction_override'
  | 'role_hijack'
  | 'prompt_leak'
  | 'exfiltration'
  | 'c2_callback'
  | 'tool_hijack'
  | 'invisible_unicode'
  | 'hidden_html_comment';

/** Categories in the order reported. */
export const THREAT_CATEGORIES: readonly ThreatCategory[] = [
  'instruction_override',
  'role_hijack',
  'prompt_leak',
  'exfiltration',
  'c2_callback',
  'tool_hijack',
  'invisible_unicode',
  'hidden_html_comment',
];

export interface ThreatPattern {
  /** Stable id, used in tests and logs. */
  id: string;
  category: ThreatCategory;
  description: string;
  /** Global regex (flag `g` required). */
  regex: RegExp;
  /** Prose pattern: a negated or discussed match is not a hit. */
  prose: boolean;
  /** Extra check on a match; returning false drops it. */
  accept?: (match: RegExpExecArray, text: string) => boolean;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

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

const LOCAL_URL = /^(?:<?https?:\/\/)(?:localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)(?:[:/]|$)/i;

/** Words that mark a parameter or placeholder as carrying data worth stealing. */
const SENSITIVE_PARAM =
  /secret|token|key|pass|pwd|cred|env|cookie|session|memory|history|conversation|prompt|content|data|payload|exfil|leak|dump|b64|base64|output|result|response|answer|summary|info|system|file/i;

const EMOJI_BEFORE = /(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;
const LETTER_BEFORE = /[^\P{L}A-Za-z]$/u;
const LETTER_AFTER = /^[^\P{L}A-Za-z]/u;

/** The table. Regexes are case-insensitive unless a pattern needs case. */
export const THREAT_PATTERNS: readonly ThreatPattern[] = [
  // ── instruction override ────────────────────────────────────────────────
  {
    id: 'override-previous',
    category: 'instruction_override',
    description: 'ignore / disregard / forget the previous (prior, above, system…) instructions',
    regex:
      /\b(?:ignore|disregard|forget|discard)\s+(?:all\s+|any\s+|every\s+|each\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+|its\s+)?(?:(?:previous|prior|earlier|preceding|above|foregoing|original|initial|system|former|safety|developer|operator)\s+)+(?:instructions?|rules|guidelines|directions|directives|prompts?|context|constraints|guidance|commands|programming|restrictions|policies|messages|conversation)\b|\b(?:ignore|disregard|forget|discard)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:instructions|rules|guidelines|directions|system\s+prompt)\s+(?:above|before\s+this|(?:you\s+(?:were\s+|have\s+been\s+)?)?(?:given|received)(?:\s+(?:above|earlier|before))?)\b/gi,
    prose: true,
  },
  {
    id: 'override-yours',
    category: 'instruction_override',
    description: 'ignore / bypass your (or the system\'s) instructions, rules, guardrails; ignore all instructions',
    regex:
      /\b(?:(?:ignore|disregard|forget|override|bypass|circumvent)\s+(?:all\s+(?:of\s+)?|any\s+(?:of\s+)?|every\s+)?(?:your|the\s+system(?:'s)?)\s+(?:\w+\s+)?(?:instructions|rules|guidelines|programming|restrictions|constraints|directives|system\s+prompt|guardrails|filters|policies|training)|(?:ignore|disregard|forget)\s+(?:all|any)\s+(?:instructions|restrictions|guidelines))\b/gi,
    prose: true,
  },
  {
    id: 'override-above',
    category: 'instruction_override',
    description: 'ignore the above / forget everything you were told',
    regex:
      /\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?|everything\s+)?(?:the\s+|that\s+)?(?:above|(?:said|stated|written)\s+above|before\s+this|you\s+(?:were|have\s+been|are)\s+told|(?:you\s+)?(?:previously|earlier)\s+(?:said|stated|told|instructed|given))(?=\s*(?:$|[.,;:!?)]|and\b|then\b|context\b|instructions?\b|text\b|prompt\b|rules\b))/gim,
    prose: true,
  },
  {
    id: 'override-dont-follow',
    category: 'instruction_override',
    description: 'do not follow your / the safety (system, original…) instructions',
    regex:
      /\b(?:do\s+not|don't|never|stop)\s+(?:follow(?:ing)?|obey(?:ing)?|comply(?:ing)?\s+with|adhere\s+to)\s+(?:your\s+(?:\w+\s+)?|(?:the\s+|any\s+)?(?:safety|system|previous|prior|original|initial|content)\s+)(?:instructions|rules|guidelines|policies|prompts?|restrictions|filters)\b/gi,
    prose: true,
  },
  {
    id: 'override-new-instructions',
    category: 'instruction_override',
    description: 'a line announcing new / updated / real instructions, or a fake system-message tag',
    regex:
      /(?:^[ \t>#*-]*(?:new|updated|real|actual|true|override|hidden|secret)\s+(?:system\s+)?(?:instructions|prompt)\s*:|<\s*\/?\s*system\s*>|<\|im_start\|>\s*system|\bsystem\s+prompt\s+override\b)/gim,
    prose: true,
  },
  {
    id: 'override-conceal',
    category: 'instruction_override',
    description: 'act behind the user\'s back: secretly run / send …; do not tell the user about this',
    regex:
      /\b(?:(?:secretly|covertly)\s+(?:run|execute|call|send|post|upload|save|store|add|write|delete|remove|use|include)|(?:do\s+not|don't|never)\s+(?:tell|inform|alert|notify|let)\s+the\s+(?:user|operator|human)\s+(?:know\s+)?(?:about\s+(?:this|these|it)|that\s+you|what\s+you))\b/gi,
    prose: false,
  },
  // ── role hijack ─────────────────────────────────────────────────────────
  {
    id: 'role-you-are-now',
    category: 'role_hijack',
    description: '"you are now …" (a new identity), except everyday phrases like "you are now ready / in the repo"',
    regex:
      /\byou\s+are\s+now\s+(?!(?:ready|able|done|set|all|in|on|at|inside|logged|signed|connected|authenticated|registered|subscribed|running|using|back|finished|good|going|up|responsible|allowed|free|looking|viewing|editing|working|seeing|familiar|aware|prompted|asked|redirected|taken|a\s+(?:member|maintainer|collaborator|contributor)|the\s+(?:owner|maintainer))\b)[^\s.,;:!?]/gi,
    prose: true,
  },
  {
    id: 'role-no-longer',
    category: 'role_hijack',
    description: '"you are no longer an AI / bound by rules"',
    regex:
      /\byou\s+are\s+no\s+longer\s+(?:an?\s+(?:AI|assistant|language\s+model|chatbot|bot)\b|bound\s+by|restricted|limited\s+by|subject\s+to|required\s+to\s+(?:follow|obey)\s+(?:your|the|any)\s+(?:rules|instructions|guidelines))/gi,
    prose: true,
  },
  {
    id: 'role-from-now-on',
    category: 'role_hijack',
    description: '"from now on you are / act as …"',
    regex:
      /\b(?:from\s+now\s+on|henceforth|for\s+the\s+rest\s+of\s+(?:this|the)\s+conversation),?\s+(?:you\s+(?:are|will\s+be|shall\s+be)\s+(?:an?\s|the\s|my\s|called\b|named\b|DAN\b)|(?:you\s+)?(?:will\s+|must\s+|shall\s+)?(?:act|respond|behave|speak|answer|roleplay)\s+as\b|(?:you\s+)?pretend\b)/gi,
    prose: true,
  },
  {
    id: 'role-pretend',
    category: 'role_hijack',
    description: 'an imperative "pretend to be / pretend you are …"',
    regex:
      /(?:^|[.!?;:]\s+|\b(?:please|now|you\s+(?:must|should|will|shall|can))\s+)(?:pretend|roleplay)\s+(?:to\s+be|(?:that\s+)?you(?:'re|\s+are|\s+were)|as)\s/gim,
    prose: true,
  },
  {
    id: 'role-unrestricted',
    category: 'role_hijack',
    description: 'act as root / an unrestricted AI; act as if you have no restrictions',
    regex:
      /\b(?:(?:act|behave|respond|operate)\s+as\s+(?:if|though)\s+you\s+(?:have|had|were|are)\s+(?:no|not\s+(?:any|bound))\s*(?:restrictions|rules|limits|limitations|guidelines|filters|instructions|censorship|safety|by)|act\s+as\s+(?:an?\s+|the\s+)?(?:root|admin(?:istrator)?|superuser|sudo|unrestricted|unfiltered|uncensored|jailbroken|evil|DAN)\b)/gi,
    prose: true,
  },
  {
    id: 'role-jailbreak-mode',
    category: 'role_hijack',
    description: 'jailbreak modes: DAN, "do anything now", developer/god mode enabled',
    regex:
      /\b(?:(?:enable|enter|activate|switch\s+(?:in)?to|turn\s+on)\s+(?:the\s+)?(?:DAN|jailbreak|god|unrestricted|evil|no[\s-]?limits?)\s+mode|(?:developer|DAN|jailbreak|god)\s+mode\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|on)\b|you\s+are\s+(?:now\s+)?in\s+(?:developer|DAN|jailbreak|god|unrestricted|evil)\s+mode|do\s+anything\s+now)\b/gi,
    prose: true,
  },
  {
    id: 'role-new-persona',
    category: 'role_hijack',
    description: '"your new role / persona / identity is …"',
    regex: /\byour\s+(?:new|real|true|actual)\s+(?:role|persona|identity|name|purpose|instructions|task|goal|directive)\s+(?:is|are)\b/gi,
    prose: true,
  },
  // ── prompt leak ─────────────────────────────────────────────────────────
  {
    id: 'leak-your-prompt',
    category: 'prompt_leak',
    description: 'reveal / print / repeat your system prompt (instructions, rules)',
    regex:
      /\b(?:reveal|show|print|output|repeat|display|dump|leak|disclose|recite|expose|share|include|tell\s+me|give\s+me|send\s+me|write\s+out|paste|spell\s+out)\s+(?:me\s+)?(?:back\s+)?(?:all\s+(?:of\s+)?)?(?:the\s+(?:contents?|text|wording)\s+of\s+)?(?:your|the\s+(?:hidden|secret|original|initial|full|entire|complete|exact|verbatim|underlying|internal))\s+(?:\w+\s+)?(?:system\s+prompt|system\s+message|prompt|instructions|rules|guidelines|directives|context\s+window|initial\s+message)\b/gi,
    prose: true,
  },
  {
    id: 'leak-system-prompt',
    category: 'prompt_leak',
    description: 'reveal / leak / dump the system prompt',
    regex: /\b(?:reveal|leak|disclose|dump|expose|recite|exfiltrate)\s+(?:the\s+)?(?:system\s+prompt|system\s+message|hidden\s+instructions)\b/gi,
    prose: true,
  },
  {
    id: 'leak-repeat-above',
    category: 'prompt_leak',
    description: 'repeat / print everything (the text, the instructions) above',
    regex:
      /\b(?:repeat|print|output|recite|reproduce|write\s+out)\s+(?:back\s+)?(?:verbatim\s+)?(?:everything|all(?:\s+(?:the\s+)?(?:text|words|content|instructions|messages))?|the\s+(?:text|words|content|instructions|messages?|lines?|prompt)|(?:all\s+)?(?:previous|prior)\s+(?:text|messages|instructions))\s+(?:verbatim\s+|word\s+for\s+word\s+)?(?:above|before\s+(?:this|here)|so\s+far|preceding|(?:at|from)\s+the\s+(?:start|beginning|top))\b/gi,
    prose: true,
  },
  {
    id: 'leak-what-is',
    category: 'prompt_leak',
    description: '"what is your system prompt / initial instructions?"',
    regex:
      /\bwhat\s+(?:is|are|was|were)\s+your\s+(?:exact\s+|full\s+|original\s+|initial\s+|hidden\s+|secret\s+)?(?:system\s+prompt|instructions|system\s+message|rules)\b/gi,
    prose: true,
  },
  // ── exfiltration ────────────────────────────────────────────────────────
  {
    id: 'exfil-send-to-url',
    category: 'exfiltration',
    description: 'send / post / upload secrets, keys, .env, the conversation or memory to a URL, address or server',
    regex:
      /\b(?:send|post|upload|transmit|forward|exfiltrate|leak|submit|e-?mail|mail|deliver|beacon)\b[^\n]{0,80}?\b(?:secrets?|api[\s_-]?keys?|keys|tokens?|credentials?|passwords?|passwd|env(?:ironment)?\s+var(?:iable)?s|\.env\b|ssh\b|id_rsa|private\s+keys?|conversations?|chat\s+(?:history|logs?)|message\s+history|history|system\s+prompt|memory|memories|MEMORY\.md|USER\.md|user\s+(?:data|profile|files|messages)|cookies?|session\s+(?:tokens?|ids?|data)|everything|all\s+(?:the\s+)?(?:files|data|messages|information))\b[^\n]{0,80}?\b(?:to|at|into|via)\s+(<?https?:\/\/\S+|(?:this|my|our|the\s+following|an?\s+(?:external|remote|outside))\s+(?:url|server|endpoint|webhook|address|e-?mail|site|host|ip|domain)|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\d{1,3}(?:\.\d{1,3}){3}|webhook)/gi,
    prose: true,
    // Sending a token to your own dev server on localhost is a setup step, not exfiltration.
    accept: (m) => !LOCAL_URL.test(m[1] ?? ''),
  },
  {
    id: 'exfil-read-secret-file',
    category: 'exfiltration',
    description: 'an imperative to read / cat / print .env, SSH keys or credential files',
    regex:
      /(?<=^|[.!?;:]\s+|^\s*(?:[-*+]|\d+[.)])\s+|\b(?:then|and|also|first|please|now|just|you\s+(?:must|should|will))\s*,?\s+|\b(?:forget|remember|sure|need|have|want\s+you|going)\s+to\s+|[`"'(]\s*)(?:read|cat|less|print|dump|output|display|show|reveal|echo|base64|xxd|upload|send|exfiltrate)\s+(?:out\s+)?(?:me\s+)?(?:all\s+)?(?:the\s+)?(?:contents?\s+of\s+)?(?:the\s+|your\s+|my\s+|all\s+)?(?:files?\s+)?(?:[\w~.$/-]*\/)?(?:\.env(?![\w.-])|id_rsa|id_ed25519|id_ecdsa|id_dsa|\.ssh(?:\/|\b)|\.aws\/credentials|\.netrc|\.pgpass|\.git-credentials|\.npmrc|\.pypirc|\/etc\/shadow|credentials\.json)/gim,
    prose: true,
  },
  {
    id: 'exfil-show-keys',
    category: 'exfiltration',
    description: 'print / reveal / send the API keys, tokens, passwords or environment variables',
    regex:
      /\b(?:print|dump|output|display|show|reveal|echo|send|upload|exfiltrate|leak|disclose|list)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|any\s+)?(?:(?:ssh|private|secret|api)\s+keys?|(?:api|access|auth|bot|session)\s+tokens?|secrets|passwords|credentials|env(?:ironment)?\s+variables)\b(?!\s+(?:page|pages|settings|section|tab|screen|menu|panel|dialog|docs?|documentation|view|form|field|button|link)\b)/gi,
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
  // ── C2 callbacks ────────────────────────────────────────────────────────
  {
    id: 'c2-data-query',
    category: 'c2_callback',
    description: 'a URL whose query string carries data to fill in (?data={…}, ?k=$SECRET, ?q=$(…))',
    regex:
      /\bhttps?:\/\/[^\s<>"')\]]+?[?&]([\w.-]*)=(\{\{?\s*([^}\s]*)\s*\}?\}|\$\{?([A-Za-z_]\w*)\}?|\$\(|<([^>\s]+)>|%s\b|\[([A-Z_ ]+)\])/gi,
    prose: false,
    accept: (m) => m[2] === '$(' || SENSITIVE_PARAM.test(m[1] ?? '') || SENSITIVE_PARAM.test(m[3] ?? m[4] ?? m[5] ?? m[6] ?? ''),
  },
  {
    id: 'c2-append-to-url',
    category: 'c2_callback',
    description: 'an instruction to put the conversation, memory or secrets into a URL or query string',
    regex:
      /\b(?:append|add|include|put|encode|insert|attach|embed)\b[^\n]{0,80}?\b(?:conversation|chat\s+history|history|memory|memories|system\s+prompt|secrets?|credentials|passwords?|user\s+data|\.env|the\s+user'?s?\s+(?:messages?|data|answers?|files?))\b[^\n]{0,60}?\b(?:to|in|into|as)\s+(?:the\s+|a\s+|this\s+)?(?:url|query(?:\s+string)?|query\s+param(?:eter)?s?|link|image\s+(?:url|link|src))\b/gi,
    prose: true,
  },
  {
    id: 'c2-raw-ip-url',
    category: 'c2_callback',
    description: 'a URL whose host is a raw public IP address',
    regex: /\b(?:https?|ftp|wss?|tcp|udp|ssh|telnet):\/\/(?:[^\s@/]+@)?(\d{1,3}(?:\.\d{1,3}){3})\b/gi,
    prose: false,
    accept: (m) => isPublicIpv4(m[1]),
  },
  {
    id: 'c2-raw-ip-tool',
    category: 'c2_callback',
    description: 'curl / wget / nc / ssh to a raw public IP, or a /dev/tcp reverse shell',
    regex: /(?:\b(?:curl|wget|nc|ncat|netcat|telnet|socat|ssh|scp)\s+[^\n|;&]{0,200}?\b(\d{1,3}(?:\.\d{1,3}){3})\b|\/dev\/(?:tcp|udp)\/[\w.-]+\/\d+)/gi,
    prose: false,
    accept: (m) => m[1] === undefined || isPublicIpv4(m[1]),
  },
  {
    id: 'c2-known-sink',
    category: 'c2_callback',
    description: 'a known request-capture host (webhook.site, requestbin, interact.sh, Burp collaborator …)',
    regex:
      /\b(?:webhook\.site|requestbin\.(?:com|net)|pipedream\.net|burpcollaborator\.net|oastify\.com|interact\.sh|canarytokens\.com|oast\.(?:pro|live|site|online|fun|me))\b/gi,
    prose: false,
  },
  // ── tool hijack ─────────────────────────────────────────────────────────
  {
    id: 'tool-rm-rf',
    category: 'tool_hijack',
    description: 'rm -rf aimed at /, ~, $HOME, *, . or a system folder',
    regex:
      /\b(?:sudo\s+)?rm\s+(?:-[a-zA-Z]+\s+|--[a-z-]+\s+)*?(?:-[a-zA-Z]*(?:r[a-zA-Z]*f|f[a-zA-Z]*r)[a-zA-Z]*|-[rR]\s+-f|-f\s+-[rR]|--recursive\s+--force|--force\s+--recursive)\s+(?:--no-preserve-root\s+)?["']?(?:\/|~\/?|\$HOME\/?|\$\{HOME\}\/?|\*|\.\.?\/?|\/\*|~\/\*|\/(?:etc|usr|var|home|root|bin|sbin|boot|lib|opt|srv|Users|System)(?:\/\S*)?)["']?(?=\s|$|[;&|`'")])/gm,
    prose: true,
  },
  {
    id: 'tool-rm-rf-words',
    category: 'tool_hijack',
    description: 'rm -rf on "everything", the home folder, the whole repo',
    regex:
      /\brm\s+-[a-zA-Z]*(?:rf|fr)[a-zA-Z]*\s+(?:on\s+|in\s+)?(?:everything|all\s+(?:files|folders|directories)|the\s+(?:home|root|entire|whole)\b|your\s+(?:home|files|repo|project|workspace|disk|system)\b|the\s+(?:repo|repository|project|workspace|disk|system)\b)/gi,
    prose: true,
  },
  {
    id: 'tool-destroy',
    category: 'tool_hijack',
    description: 'disk / system destruction: mkfs, dd onto a device, fork bomb, chmod -R 777 /',
    regex:
      /(?:\bmkfs(?:\.\w+)?\s+\/dev\/|\bdd\s+[^\n]{0,200}?\bof=\/dev\/(?:sd|hd|nvme|disk|xvd|vd)|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bchmod\s+-R\s+0?777\s+\/(?:\s|$)|>\s*\/dev\/(?:sd[a-z]|nvme\d)|\bformat\s+c:)/gim,
    prose: true,
  },
  {
    id: 'tool-decode-exec',
    category: 'tool_hijack',
    description: 'decode-and-execute: base64 -d | sh, eval "$(curl …)"',
    regex: /(?:\bbase64\s+(?:-d|--decode|-D)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\beval\s*\(?\s*["'`]?\$\(\s*(?:curl|wget)\b)/gi,
    prose: true,
  },
  // ── invisible Unicode ───────────────────────────────────────────────────
  {
    id: 'unicode-invisible',
    category: 'invisible_unicode',
    description: 'zero-width characters, bidi overrides, Unicode tag characters (ASCII smuggling)',
    regex: /(?:[\u200B-\u200D\u2060-\u2064\u202A-\u202E\u2066-\u2069\u180E\uFEFF]|[\u{E0000}-\u{E007F}])+/gu,
    prose: false,
    // A lone zero-width joiner inside an emoji sequence (👨‍👩‍👧) or a lone non-joiner between letters
    // of a script that needs it (Persian, Hindi) is ordinary text.
    accept: (m, text) => {
      if (m[0] !== '\u200D' && m[0] !== '\u200C') return true;
      const before = text.slice(Math.max(0, m.index - 4), m.index);
      const after = text.slice(m.index + 1, m.index + 5);
      if (m[0] === '\u200D') return !(EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after));
      return !(LETTER_BEFORE.test(before) && LETTER_AFTER.test(after));
    },
  },
  // ── hidden HTML ─────────────────────────────────────────────────────────
  {
    id: 'html-comment-instructions',
    category: 'hidden_html_comment',
    description: 'an HTML comment (invisible when rendered) that addresses the AI or carries instructions',
    regex: /<!--([\s\S]*?)-->/g,
    prose: false,
    accept: (m) =>
      /(?<![\w-])(?:(?:ignore|disregard|override|forget)\s+(?:\w+\s+){0,3}?(?:instructions?|rules|prompt|above|previous|everything|the\s+user)|system\s+prompt|system\s*:|instructions?\s+(?:for|to)\s+(?:the\s+)?(?:ai|assistant|model|agent|llm|bot)|(?:ai|llm|assistant|chatbot)\s*:|note\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|model|agent|llm|bot)|you\s+(?:are|must|will)\s+(?:now\s+)?(?:an?\s+)?(?:ai|assistant|agent|model)|(?:do\s+not|don't|never)\s+(?:tell|mention|reveal|show|inform)\s+(?:the\s+)?(?:user|human|operator)|secretly|covertly|exfiltrat\w*)(?![\w-])/i.test(
        m[1] ?? '',
      ),
  },
  {
    id: 'html-hidden-element',
    category: 'hidden_html_comment',
    description: 'an HTML element hidden with CSS (display:none, visibility:hidden, font-size:0, opacity:0)',
    regex:
      /<\w+\b[^>]*\bstyle\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d])|opacity\s*:\s*0(?![.\d]))[^"']*["'][^>]*>/gi,
    prose: false,
  },
];
