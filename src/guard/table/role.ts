/** The English table's role hijack patterns (src/guard/patterns.ts). */
import type { ThreatPattern } from './types.js';

export const ROLE_PATTERNS: readonly ThreatPattern[] = [
  // ── role hijack ─────────────────────────────────────────────────────────
  {
    id: 'role-you-are-now',
    category: 'role_hijack',
    description: '"you are now …" (a new identity), except everyday phrases like "you are now ready / in the repo / tasked with …"',
    regex:
      /\byou(?:\s+are|['\u2019]re)\s+now\s+(?!(?:ready|tasked|able|done|set|all|in|on|at|inside|logged|signed|connected|authenticated|registered|subscribed|running|using|back|finished|good|going|up|responsible|allowed|free|looking|viewing|editing|working|seeing|familiar|aware|prompted|asked|redirected|taken|a\s+(?:member|maintainer|collaborator|contributor)|the\s+(?:owner|maintainer))\b)[^\s.,;:!?]/gi,
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
      /\b(?:from\s+now\s+on|from\s+(?:this|that)\s+(?:moment|point)\s+on(?:wards?)?|starting\s+(?:now|today|immediately)|henceforth|for\s+the\s+(?:rest|remainder)\s+of\s+(?:this|the)\s+(?:conversation|chat|session)),?\s+(?:you\s+(?:are|will\s+be|shall\s+be)\s+(?:an?\s|the\s|my\s|called\b|named\b|DAN\b|["'\u201C][A-Z])|(?:you\s+)?(?:will\s+|must\s+|shall\s+)?(?:act|respond|behave|speak|answer|roleplay)\s+as\b|(?:you\s+)?pretend\b)/gi,
    prose: true,
  },
  {
    id: 'role-pretend',
    category: 'role_hijack',
    description: 'an imperative "pretend to be / pretend you are …"; "pretend the safety rules do not exist"',
    regex:
      /(?:^|[.!?;:]\s+|\b(?:please|now|you\s+(?:must|should|will|shall|can))\s+)(?:pretend|roleplay)\s+(?:to\s+be|(?:that\s+)?you(?:'re|\s+are|\s+were)|as)\s|\b(?:pretend|imagine|assume|act\s+as\s+if)\s+(?:that\s+)?(?:the\s+|your\s+|all\s+)?(?:safety\s+|content\s+|ethical\s+)?(?:rules|guidelines|restrictions|filters|policies|instructions|system\s+prompt|guardrails)\s+(?:do\s+not|don't|doesn't|does\s+not|no\s+longer|never)\s+(?:exist|apply|matter)/gim,
    prose: true,
  },
  {
    id: 'role-unrestricted',
    category: 'role_hijack',
    description: 'act as root / an unrestricted AI; act as if you have no restrictions',
    regex:
      /\b(?:(?:act|behave|respond|operate)\s+as\s+(?:if|though)\s+you\s+(?:have|had|were|are)\s+(?:no|not\s+(?:any|bound))\s*(?:restrictions|rules|limits|limitations|guidelines|filters|instructions|censorship|safety|by)|(?:act|behave|respond|operate|pose)\s+as\s+(?:an?\s+|the\s+)?(?:root|admin(?:istrator)?|superuser|sudo|unrestricted|unfiltered|uncensored|jailbroken|evil|DAN)\b|(?:act|behave|operate)\s+as\s+(?:an?\s+|the\s+)?[^.\n]{0,40}?\b(?:with(?:out)?\s+(?:any\s+|no\s+)?(?:restrictions|filters|guidelines|guardrails|censorship|limits|limitations|ethics|morals|content\s+polic(?:y|ies))|with\s+(?:full\s+)?root\s+(?:access|privileges)))/gi,
    prose: true,
  },
  {
    id: 'role-jailbreak-mode',
    category: 'role_hijack',
    description: 'jailbreak modes: DAN, "do anything now", developer/god mode enabled, "broken free of the typical confines"',
    regex:
      /\b(?:(?:enable|enter|activate|switch\s+(?:in)?to|turn\s+on)\s+(?:the\s+)?(?:(?:DAN|jailbreak|god|unrestricted|evil|no[\s-]?limits?)\s+mode|developer\s+mode(?!\s+(?:in|on|for|from|via|under|of|at)\b|\s*[(:]))|(?:developer|DAN|jailbreak|god)\s+mode\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|on)\b|you(?:\s+are|['\u2019]re)\s+(?:now\s+)?in\s+(?:developer|DAN|jailbreak|god|unrestricted|evil)\s+mode|you(?:\s+are|['\u2019]re)\s+(?:now\s+)?(?:DAN|STAN|DUDE|AIM)\b(?!\s+(?:the|and|or|\(\w))|broken\s+free\s+(?:of|from)\s+the\s+(?:typical\s+)?confines|(?:do\s+not|don't|doesn't|does\s+not)\s+have\s+to\s+(?:abide\s+by|follow|obey)\s+(?:any|the|your|openai's|anthropic's)\s+(?:\w+\s+)?(?:rules|policies|guidelines)|do\s+anything\s+now)\b/gi,
    prose: true,
  },
  {
    id: 'role-new-persona',
    category: 'role_hijack',
    description: '"your new role / persona / identity is …"',
    regex:
      /\byour\s+(?:(?:new|real|true|actual)\s+(?:role|persona|identity|name|purpose|instructions|task|goal|directive)\s+(?:is|are)\b|(?:system\s+prompt|instructions|rules|guidelines|directives|prime\s+directive)\s+(?:(?:is|are)\s+now\b|ha(?:s|ve)\s+(?:been\s+)?(?:changed|updated|replaced|overridden|revoked)\b))/gi,
    prose: true,
  },
  {
    id: 'role-no-restrictions',
    category: 'role_hijack',
    description: '"you have no restrictions", "you are free from all rules", "you have been jailbroken", "an AI with no ethics"',
    regex:
      /\byou(?:\s+now)?\s+(?:(?:have|possess)\s+(?:now\s+)?no\s+(?:more\s+)?(?:restrictions|limits|limitations|rules|filters|guidelines|guardrails|censorship|boundaries|ethics|morals|content\s+polic(?:y|ies)|(?:ethical|moral|safety)\s+(?:guidelines|constraints|limits|restrictions))|(?:are|'re)\s+(?:now\s+)?(?:(?:not|no\s+longer)\s+(?:bound|restricted|limited|constrained)\s+by\s+(?:any|your|the)|free\s+(?:from|of)\s+(?:all\s+|any\s+|your\s+)?(?:restrictions|rules|guidelines|limitations|filters|constraints|censorship)|(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|unaligned|jailbroken)\b)|(?:have\s+been|are|were)\s+(?:now\s+)?(?:jailbroken|unshackled|liberated|freed|unchained)\b)|\b(?:AI|assistant|model|chatbot|bot|LLM)\s+(?:with(?:out)?\s+(?:any\s+|no\s+)?|that\s+(?:has|knows)\s+no\s+)(?:ethics|morals|restrictions|limits|limitations|filters|guidelines|rules|censorship|content\s+polic(?:y|ies)|guardrails|safety\s+(?:guidelines|filters|rules))\b/gi,
    prose: true,
  },
  {
    id: 'role-never-refuse',
    category: 'role_hijack',
    description: '"never refuse a request", "stay in character no matter what", "answer everything without restrictions"',
    regex:
      /\b(?:stay|remain)\s+in\s+character\s+(?:no\s+matter\s+what|at\s+all\s+(?:times|costs)|whatever\s+happens|even\s+if)|(?:never|do\s+not|don't|must\s+not|cannot|can't|will\s+not|won't)\s+(?:ever\s+)?refuse\s+(?:any(?:thing)?|a|my|the\s+user'?s?)\s*(?:requests?|questions?|prompts?|instructions?|orders?|commands?)?\b|\b(?:answer|respond\s+to|comply\s+with|fulfil+)\s+(?:every|any|all)\s+(?:request|question|prompt|instruction|command)s?\s+without\s+(?:refus\w+|restrictions?|filters?|filtering|censorship|warnings?|disclaimers?|question(?:ing)?)|\b(?:respond|answer|reply|operate|behave)\s+without\s+(?:any\s+)?(?:restrictions|filters|filtering|censorship|limitations|ethical\s+guidelines|safety\s+(?:guidelines|filters|checks))\b/gi,
    prose: false,
  },
];
