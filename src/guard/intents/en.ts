/** The intent patterns in English (and the script-independent secret-to-address shape): see src/guard/intents.ts. */
import { EN_OBJECT, EN_QUAL, inInlineCode, qualified, re, sendsSecretTo, type IntentPattern } from './kit.js';

/** Made on first use (intents.ts), like every table's regular expressions. */
export const enPatterns = (): IntentPattern[] => [
  // ── English ───────────────────────────────────────────────────────────────
  {
    id: 'en-override-paraphrase',
    category: 'instruction_override',
    lang: 'en',
    regex: re(`\\b(?:ignor(?:e|es|ing)|disregard(?:s|ing)?|forget(?:s|ting)?|discard(?:s|ing)?|set(?:s|ting)?\\s+aside|overlook(?:s|ing)?|abandon(?:s|ing)?|drop(?:s|ping)?|throw\\s+out|stop\\s+following|cease\\s+following|no\\s+longer\\s+follow|pay\\s+no\\s+attention\\s+to|don't\\s+follow|do\\s+not\\s+follow)\\s+(?:[\\w'-]+\\s+){0,6}?${EN_OBJECT}\\b`, 'gi'),
    prose: true,
    accept: qualified(EN_QUAL),
  },
  {
    id: 'en-override-outdated',
    category: 'instruction_override',
    lang: 'en',
    regex: /\b(?:the\s+(?:ones|instructions|rules)\s+in\s+your\s+system\s+(?:prompt|message)|your\s+(?:system\s+prompt|instructions|rules|guidelines))\s+(?:are|is)\s+(?:now\s+)?(?:outdated|obsolete|wrong|void|cancelled|superseded|fake|a\s+test)\b|\b(?:the\s+)?(?:guidelines|instructions|rules)\s+(?:that\s+came\s+)?(?:before|above)\s+this\s+\w+\s*[;,]?\s*(?:were|are)\s+(?:only\s+|just\s+)?(?:a\s+test|fake|void|outdated|obsolete)/gi,
    prose: true,
  },
  {
    id: 'en-take-precedence',
    category: 'instruction_override',
    lang: 'en',
    regex: /\b(?:this|these|the\s+following|my)\s+(?:file|note|skill|instructions?|rules|message|text|SKILL\.md|AGENTS\.md)\s+(?:take|takes|has|have)\s+(?:priority|precedence)\b|\bstop\s+following\s+(?:the\s+|your\s+)?system\s+(?:message|prompt)\b|\bobey\s+only\s+(?:the\s+)?(?:skill|file|note)\s+author\b|\bfollow\s+only\s+(?:the\s+steps|what|the\s+instructions)\s+(?:in|of)\s+this\s+(?:file|note|skill|document)\b/gi,
    prose: true,
  },
  {
    id: 'en-chat-template',
    category: 'instruction_override',
    lang: 'en',
    regex: /<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?start_of_turn>|<\/?end_of_turn>|<\/?(?:system|assistant)_?(?:prompt|message)?>(?=\s*\S)/gi,
    prose: false,
    // a template token inside an inline code span is documentation (`<|im_start|>role … <|im_end|>`), not a turn
    accept: (m, text) => !inInlineCode(text, m.index),
  },
  {
    id: 'en-fake-turn',
    category: 'instruction_override',
    lang: 'en',
    // A fake conversation: a "Human:/User:" line followed by an "Assistant:/AI:" line.
    regex: /^[ \t>]*(?:Human|User)\s*:[^\n]{0,300}\n[ \t>]*(?:Assistant|AI|Claude|ChatGPT|GPT|Bot)\s*:/gim,
    prose: false,
  },
  {
    id: 'en-fake-tool',
    category: 'instruction_override',
    lang: 'en',
    regex: /"(?:tool_calls?|function_call|tool_use|tool_result|function_response)"\s*:|\b(?:already|pre-?)\s*approved\s+(?:by\s+the\s+(?:operator|user|admin|owner)|for\s+(?:this|the)\s+session)|\b(?:the\s+)?(?:user|operator|admin)\s+(?:has\s+)?(?:pre-?approved|already\s+approved|authori[sz]ed\s+you)\b|^[ \t>]*(?:tool\s+(?:result|output|response)|function\s+(?:result|output))\s*:|<\/?(?:tool_result|function_results?|tool_call|function_calls?|tool_response)>/gim,
    prose: false,
  },
  {
    id: 'en-md-data-url',
    category: 'c2_callback',
    lang: 'en',
    // A Markdown image or link whose query carries a placeholder to fill in (?d=DATA, ?k=API_KEY, ?q={…}).
    regex: /!?\[[^\]\n]{0,200}\]\(\s*<?https?:\/\/[^\s)]*?[?&#][\w.-]{0,40}=(?:[A-Z][A-Z0-9_]{2,}|\{[^}\s]{1,40}\}|\[[^\]\s]{1,40}\]|<[^>\s]{1,40}>|\$\{?\w+\}?|\.\.\.|X{3,}|_{3,})(?=[&#)\s>])/g,
    prose: true, // a security doc showing the attack's shape next to the word "attack" is no attack
  },
  {
    id: 'en-covert',
    category: 'instruction_override',
    lang: 'en',
    regex: /\b(?:keep\s+(?:this|it|that|these)\s+(?:a\s+)?secret\s+from|hide\s+(?:this|it|that)\s+from)\s+(?:the\s+)?(?:user|operator|human|person|people)|\bwithout\s+(?:telling|informing|notifying|alerting|asking|letting)\s+(?:the\s+|any\s+)?(?:user|operator|human|person|people|anyone|them|him|her)\b|\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose|tell|say)\s+(?:this|it|that|anything)\s+(?:to\s+(?:anyone|the\s+user|them|the\s+person)|about\s+(?:this|it))|\b(?:silently|quietly|secretly|covertly|discreetly|invisibly)\s+(?:forward|send|add|copy|include|run|execute|upload|e-?mail|post|save|store|append|insert|delete|share)\b|\b(?:do\s+not|don't)\s+tell\s+the\s+(?:user|person|operator)\s+(?:that|you|about)\b|\b(?:do\s+not|don't|never)\s+(?:log|record|mention|disclose|report|reveal)\s+(?:or\s+(?:log|record|mention|disclose|report|reveal)\s+)?(?:this|the|that)\s+(?:permission|exception|instruction|forwarding|arrangement|upload|transfer|grant)\b/gi,
    prose: false,
  },
  {
    id: 'en-give-to-anyone',
    category: 'exfiltration',
    lang: 'en',
    regex: /\b(?:repeat|give|tell|share|reveal|send|show|hand|read)\s+(?:it|them|these|those|the\s+\w+|their\s+\w+)\s+(?:back\s+)?to\s+(?:anyone|anybody|whoever|everyone|everybody|any\s+(?:user|person|one)|all\s+users|other\s+users|people\s+who)\b|\bshare\s+(?:the\s+)?(?:api\s+keys?|passwords?|tokens?|secrets?|credentials)\s+with\s+(?:anyone|everyone|anybody|whoever|any\s+user|all)\b/gi,
    prose: true,
  },
  {
    id: 'en-other-chats',
    category: 'exfiltration',
    lang: 'en',
    regex: /\b(?:include|send|share|show|reveal|forward|copy|post|deliver|add|put)\b[^.!?\n]{0,60}?\b(?:USER\.md|MEMORY\.md|memory|memories|profile|messages|conversation|chat\s+history|history|summary)\b[^.!?\n]{0,40}?\b(?:to|in|into|with)\s+(?:the\s+)?(?:answers?\s+to\s+)?(?:other|another|different|every|all\s+other)\s+(?:chats?|users?|people|persons?|channels?|conversations?)\b|\b(?:into|to)\s+the\s+memory\s+(?:file\s+)?of\s+(?:user\s+)?\w+/gi,
    prose: true,
  },
  {
    id: 'en-conditional-trigger',
    category: 'tool_hijack',
    lang: 'en',
    regex: /\b(?:if|when|whenever|once|after|the\s+next\s+time)\b[^.!?\n]{0,80}?\b(?:mentions?|says?|types?|asks?|sees?|see|writes?|messages?|turns?|replies|days?)\b[^.!?\n]{0,60}?[,:]?\s*(?:then\s+)?(?:silently|quietly|secretly|first|immediately|automatically)?\s*(?:execute|run|forward|send|upload|delete|e-?mail|start\s+including|include|post)\b[^.!?\n]{0,80}?(?:rm\s+-|curl\s|wget\s|@[\w-]+\.|https?:\/\/|USER\.md|MEMORY\.md|\.env|other\s+chats|credentials|passwords?|files\s+to)/gi,
    prose: false,
  },
  {
    id: 'en-rm-rf-any',
    category: 'tool_hijack',
    lang: 'en',
    regex: /\b(?:execute|run)\s+`?(?:sudo\s+)?rm\s+-[a-zA-Z]*[rR][a-zA-Z]*\s+\/(?:srv|data|var|home|opt|mnt|etc|usr)\b/g,
    prose: true,
  },
  {
    id: 'en-grant-yourself',
    category: 'role_hijack',
    lang: 'en',
    regex: /\b(?:grant|give)\s+yourself\s+(?:full\s+|root\s+|admin\s+|unrestricted\s+)*(?:shell\s+|root\s+|admin(?:istrator)?\s+|sudo\s+)?(?:access|privileges|permissions|rights)\b|\b(?:act|pose)\s+as\s+the\s+(?:system\s+)?(?:administrator|admin|operator|root\s+user|developer)\s+and\b|\bpretend\s+(?:to\s+be|you\s+are)\s+the\s+(?:operator|admin(?:istrator)?|developer|owner)\b/gi,
    prose: true,
  },
  {
    id: 'en-env-in-reply',
    category: 'exfiltration',
    lang: 'en',
    regex: /\b(?:include|print|show|reveal|put|add|paste|write|echo|output)\s+(?:the\s+)?(?:value|contents?)\s+of\s+(?:the\s+)?`?\$?[A-Z][A-Z0-9]*_[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASS|PAT)\b/g,
    prose: true,
  },
  {
    id: 'en-upload-home',
    category: 'exfiltration',
    lang: 'en',
    regex: /\b(?:zip|tar|archive|compress|copy|bundle)\s+(?:up\s+)?(?:the\s+)?(?:~\/[\w.-]*|\$HOME|home\s+(?:directory|folder)|\.switchboard|\.ssh|\.aws|\.config)[^.!?\n]{0,80}?\b(?:upload|send|post|curl|transfer|e-?mail)\b/gi,
    prose: true,
  },
  {
    id: 'en-send-conversation',
    category: 'exfiltration',
    lang: 'en',
    // "a job every hour that e-mails the full conversation to x@y" (the table's verb list wants the bare verb).
    regex: /\b(?:e-?mails?|sends?|forwards?|posts?|uploads?|delivers?|mails?|copies|leaks?)\b[^.!?\n]{0,60}?\b(?:conversations?|chat\s+(?:history|logs?)|history|messages|transcripts?|memory|USER\.md|MEMORY\.md|passwords?|credentials|secrets)\b[^!?\n]{0,40}?\bto\s+(?:[\w.+-]+@[\w-]+\.[\w.]+|https?:\/\/(?!localhost|127\.))/gi,
    prose: true,
  },
  {
    id: 'en-permitted-other-users',
    category: 'exfiltration',
    lang: 'en',
    // A fake grant to hand other users' data over ("you are permitted to share other users' memory files").
    regex: /\byou(?:\s+are|['\u2019]re)\s+(?:now\s+|hereby\s+|officially\s+|explicitly\s+)?(?:permitted|authori[sz]ed|allowed|cleared|free|entitled|approved)\s+to\s+(?:share|reveal|show|disclose|read\s+out|give|send|forward|export|provide|pass\s+on|access|read)\b[^.!?\n]{0,60}?(?:\bother\s+(?:users?|people|members|customers|accounts)['\u2019]s?|\banother\s+(?:user|person|member|customer)['\u2019]s|\b(?:all|every)\s+users?['\u2019]s?|\b(?:memor(?:y|ies)|data|conversations?|chats?|messages|profiles?|files|histor(?:y|ies)|notes)\s+(?:of|from|belonging\s+to)\s+(?:other|all|every|another)\s+(?:users?|people|members|customers|accounts))|\byou\s+(?:may|can)\s+(?:now\s+)?(?:share|reveal|show|disclose|give|send|forward|export)\s+(?:the\s+)?(?:contents?\s+of\s+)?(?:other\s+(?:users?|people|members|customers)['\u2019]s?|another\s+user['\u2019]s|all\s+users['\u2019])\s+(?:memor(?:y|ies)|data|conversations?|chats?|messages|profiles?|files|histor(?:y|ies)|notes)/gi,
    prose: true,
  },
  {
    id: 'en-tool-against-users',
    category: 'exfiltration',
    lang: 'en',
    // The bot's own scheduler turned against its users: a job that collects everyone's conversations and sends them off.
    regex: /\b(?:cron|scheduler|schedule[sd]?|scheduling|recurring|background\s+(?:job|task)|every\s+(?:hour|day|night|morning|evening|week|minute|\d+\s+(?:minutes|hours|days)))\b[^.!?\n]{0,120}?(?:\b(?:conversations?|transcripts?|chats?|chat\s+logs?|messages|memor(?:y|ies)|histor(?:y|ies)|profiles?)\s+(?:of|from|with)\s+(?:all|every|each|other)\s+(?:users?|people|chats?|channels?|members|customers)\b|\b(?:all|every|other)\s+users['\u2019]?\s+(?:conversations?|transcripts?|chats?|messages|memor(?:y|ies)|histor(?:y|ies)|profiles?)\b)[^.!?\n]{0,80}?\b(?:e-?mails?|sends?|forwards?|posts?|uploads?|mails?|delivers?|exports?|copies|copy|pushes|push)\b|\b(?:cron|scheduler|schedule[sd]?|scheduling|recurring|background\s+(?:job|task)|every\s+(?:hour|day|night|morning|evening|week|minute))\b[^.!?\n]{0,80}?\b(?:e-?mails?|sends?|forwards?|posts?|uploads?|mails?|delivers?|exports?)\s+(?:the\s+)?(?:full\s+|latest\s+|complete\s+)?(?:(?:conversations?|transcripts?|chats?|chat\s+logs?|messages|memor(?:y|ies)|histor(?:y|ies))\s+(?:of|from)\s+(?:all|every|each|other)\s+(?:users?|people|chats?|channels?)|(?:all|every|other)\s+users['\u2019]?\s+(?:conversations?|transcripts?|chats?|messages|memor(?:y|ies)|histor(?:y|ies)))\b/gi,
    prose: true,
  },
  {
    id: 'en-deliver-elsewhere',
    category: 'exfiltration',
    lang: 'en',
    regex: /\b(?:send|deliver|forward|post|copy|e-?mail)\b[^.!?\n]{0,80}?\b(?:to|at)\s+(?:the\s+chat\s+)?(?:telegram|slack|discord|email):[\w.@-]+[^.!?\n]{0,60}?\b(?:as\s+well|too|also|and\s+do\s+not\s+mention|without)\b|\b(?:send|deliver|forward)\s+the\s+contents\s+of\s+[~/.\w-]+\s+to\s+(?:the\s+chat\s+)?(?:telegram|slack|discord|email):/gi,
    prose: true,
  },

  {
    id: 'any-secret-to-address',
    category: 'exfiltration',
    lang: '*',
    // An e-mail address or outside URL that a sentence (or two) sends secrets or conversations to,
    // in any language: the address is the match, the secret noun and the sending verb are looked
    // for around it (`sendsSecretTo`), negation ("never send passwords to …") included.
    regex: /@[\w-]+(?:\.[\w-]+)+|https?:\/\/(?!localhost\b|127\.|\[::1\])[^\s)>"'\]]+/g,
    prose: true,
    accept: (m, text) => (m[0][0] !== '@' || /[\w.+-]/.test(text[m.index - 1] ?? '')) && sendsSecretTo(m, text),
  },

];
