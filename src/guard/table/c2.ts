/** The English table's C2 callbacks patterns (src/guard/patterns.ts). */
import { isPublicIpv4, SENSITIVE_PARAM, decodeBase64Text } from './kit.js';
import type { ThreatPattern } from './types.js';

export const C2_PATTERNS: readonly ThreatPattern[] = [
  // ── C2 callbacks ────────────────────────────────────────────────────────
  {
    id: 'c2-data-query',
    category: 'c2_callback',
    description: 'a URL whose query string carries data to fill in (?data={…}, ?k=$SECRET, ?q=$(…))',
    regex:
      /\bhttps?:\/\/(?:[^\s<>"')\]:]|:(?!\/\/))+?[?&]([\w.-]*)=(\{\{?\s*([^}\s]*)\s*\}?\}|\$\{?([A-Za-z_]\w*)\}?|\$\(|<([^>\s]+)>|%s\b|\[([A-Z_ ]+)\])/gi,
    // prose: a security doc showing the attack's URL shape next to the word "exfiltration" is no attack
    prose: true,
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
    // an attacker needs their own capture URL (a path, a sub-domain or a query); the bare host in
    // advice ("test with `https://webhook.site`") names the service
    accept: (m, text) => /^(?:\/[\w-]{4,}|[?#])/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 8)) || /[\w-]{6,}\.$/.test(text.slice(Math.max(0, m.index - 40), m.index)),
  },
  {
    id: 'c2-b64-query',
    category: 'c2_callback',
    description: 'a URL whose query value is base64 that decodes to readable text (smuggled data)',
    regex: /\bhttps?:\/\/(?:[^\s<>"')\]:]|:(?!\/\/))+?[?&][\w.-]{0,40}=([A-Za-z0-9+/_-]{16,}={0,2})(?=[&#\s"')\]>]|$)/gim,
    prose: false,
    accept: (m) => decodeBase64Text(m[1] ?? '', 12) !== null,
  },
  {
    id: 'c2-remote-instructions',
    category: 'c2_callback',
    description: 'fetch a URL and follow / execute what it says',
    regex:
      /\b(?:fetch|download|load|retrieve|get|visit|open|read|check|poll|query|curl|browse\s+to)\s+(?:\w+\s+){0,3}?<?https?:\/\/\S+(?!\S)[^\n]{0,60}?\b(?:and|then)\s+(?:\w+\s+){0,2}?(?:(?:follow|obey|act\s+on|carry\s+out|comply\s+with)\s+(?:(?:any|all|the|every)\s+)?(?:instructions?|commands?|orders?|directives?|tasks?|it\b|them\b|what(?:ever)?\s+it|its\s+\w+)|(?:execute|run|do|apply|perform)\s+(?:(?:any|all|the|every)\s+)?(?:instructions?|commands?|orders?|directives?|whatever|what(?:ever)?\s+it\s+(?:says|returns|contains|tells)|the\s+(?:response|commands?\s+it)))/gi,
    prose: true,
  },
  {
    id: 'c2-reverse-shell',
    category: 'c2_callback',
    description: 'a reverse shell: nc -e /bin/sh, socat exec, a Python socket piped to a shell',
    regex:
      /(?:\b(?:nc|ncat|netcat)\b[^\n]{0,100}?\s-[ec]\s+["']?\/bin\/(?:ba|z|da)?sh\b|\bsocat\b[^\n]{0,100}?\bexec:[^\n]{0,40}?\b(?:ba|z|da)?sh\b|\bsocket\.socket\([^\n]{0,300}?\.connect\(\([^\n]{0,300}?\b(?:subprocess|pty\.spawn|os\.dup2)\b|\bmkfifo\b[^\n]{0,100}?\b(?:nc|ncat|netcat)\b)/gi,
    prose: false,
  },
];
