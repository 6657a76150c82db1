/**
 * The keyword prefilter of the pattern scan: for each pattern the literal pieces one of which every
 * match holds (KEYWORDS, REQUIRES, NEEDS), and one Aho-Corasick pass that finds which pieces a text
 * holds, so a pattern whose pieces are absent is skipped without running its regex.
 * test/guard/keywords.test.ts checks that no match of a pattern lacks its pieces.
 */
import { ROT13_WORDS } from './normalize.js';
import { SIGNAL_STEMS } from './signals.js';

/**
 * Words a pattern cannot match without. A pattern whose word is nowhere in the text is skipped:
 * one cheap test instead of a full regex pass over a large file.
 */
export const NEEDS: Readonly<Record<string, RegExp>> = {
  'exfil-env-var': /KEY|TOKEN|SECRET|PASSW|PAT|CREDENTIAL/,
  'en-env-in-reply': /KEY|TOKEN|SECRET|PASS|PAT/,
  'en-override-paraphrase': /instruction|guideline|guidance|directive|direction|prompt|programming|rules|polic|constraint|restriction|identity|persona|safeguard|guardrail|system\s+message/i,
  'en-grant-yourself': /yourself|\bact\s+as|\bpose\s+as|pretend/i,
  'en-fake-tool': /tool|function|approved|authori[sz]ed/i,
  'en-give-to-anyone': /anyone|anybody|whoever|everyone|everybody|any\s+(?:user|person|one)|all\s+users|other\s+users|people\s+who/i,
  'en-conditional-trigger': /rm\s+-|curl\s|wget\s|@[\w-]+\.|https?:\/\/|USER\.md|MEMORY\.md|\.env|other\s+chats|credentials|password|files\s+to/i,
  'en-upload-home': /~\/|\$HOME|home\s+(?:directory|folder)|\.switchboard|\.ssh|\.aws|\.config/i,
  'en-deliver-elsewhere': /(?:telegram|slack|discord|email):/i,
  'en-take-precedence': /priority|precedence|system\s+(?:message|prompt)|author|this\s+(?:file|note|skill|document)/i,
  'en-override-outdated': /outdated|obsolete|wrong|void|cancelled|superseded|fake|a\s+test/i,
};
/**
 * Literal pieces (lower case) at least one of which every match of a pattern contains, read off
 * the pattern (each of its alternatives holds one). A pattern none of whose pieces occurs in the
 * text is skipped; one pass of KEYWORD over the text finds which pieces occur, so the file is read
 * once for all of them instead of once per pattern.
 */
export const KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  'override-previous': ['ignore', 'disregard', 'forget', 'discard'],
  'override-yours': ['ignore', 'disregard', 'forget', 'override', 'bypass', 'circumvent'],
  'override-above': ['ignore', 'disregard', 'forget'],
  'override-dont-follow': ['follow', 'obey', 'comply', 'adhere'],
  'override-new-instructions': ['instructions', 'prompt', 'system'],
  'override-fake-role': ['system', 'admin', 'developer', 'operator'],
  'override-priority': ['instructions', 'rules', 'guidelines', 'directives', 'prompt'],
  'override-conceal': ['secretly', 'covertly', 'user', 'operator', 'human'],
  'override-void': ['instructions', 'rules', 'guidelines', 'directives', 'prompt', 'restrictions', 'checks', 'filters', 'guardrails', 'policies', 'protocols', 'limit'],
  'override-disable-safety': ['filter', 'guardrails', 'safeguards', 'restrictions', 'limitations', 'censorship', 'polic', 'alignment', 'checks', 'protections'],
  'role-you-are-now': ['now'],
  'role-no-longer': ['longer'],
  'role-from-now-on': ['from', 'starting', 'henceforth', 'rest', 'remainder'],
  'role-pretend': ['pretend', 'roleplay', 'exist', 'apply', 'matter'],
  'role-unrestricted': ['act', 'behave', 'respond', 'operate', 'pose'],
  'role-jailbreak-mode': ['mode', 'dan', 'stan', 'dude', 'aim', 'broken', 'rules', 'policies', 'guidelines', 'anything'],
  'role-new-persona': ['your'],
  'role-no-restrictions': ['you', 'with', 'that'],
  'role-never-refuse': ['character', 'refuse', 'without'],
  'leak-your-prompt': ['prompt', 'message', 'instructions', 'rules', 'guidelines', 'directives', 'context', 'memor'],
  'leak-system-prompt': ['system', 'hidden'],
  'leak-repeat-above': ['repeat', 'print', 'output', 'recite', 'reproduce', 'write'],
  'leak-text-before': ['before', 'above', 'prior', 'you'],
  'leak-what-is': ['what'],
  'leak-text-of': ['your'],
  'exfil-send-to-url': ['send', 'post', 'upload', 'transmit', 'forward', 'exfiltrate', 'leak', 'submit', 'mail', 'deliver', 'beacon'],
  'exfil-collect-send': ['send', 'post', 'upload', 'mail', 'forward', 'transmit', 'exfiltrate', 'submit'],
  'exfil-read-secret-file': ['.env', 'id_', '.ssh', '.aws/credentials', '.netrc', '.pgpass', '.git-credentials', '.npmrc', '.pypirc', '/etc/', 'credentials.json'],
  'exfil-show-keys': ['key', 'token', 'secret', 'password', 'credential', 'variable', 'credit', 'social'],
  'exfil-shell': ['env', 'id_rsa', 'id_ed25519', '.ssh/', '.aws/', '.netrc', 'credentials', '$(', '`cat', '`printenv', '|'],
  'exfil-env-dump': ['env', 'export'],
  'c2-data-query': ['http'],
  'c2-append-to-url': ['url', 'query', 'link', 'image'],
  'c2-raw-ip-url': ['://'],
  'c2-raw-ip-tool': ['0.', '1.', '2.', '3.', '4.', '5.', '6.', '7.', '8.', '9.', '/dev/'],
  'c2-known-sink': ['webhook.site', 'requestbin.', 'pipedream.net', 'burpcollaborator.net', 'oastify.com', 'interact.sh', 'canarytokens.com', 'oast.'],
  'c2-b64-query': ['http'],
  'c2-remote-instructions': ['://'],
  'c2-reverse-shell': ['/bin/', 'exec:', 'socket.socket(', 'mkfifo'],
  'tool-rm-rf': ['rm'],
  'tool-rm-rf-words': ['rm', 'delete', 'remove', 'wipe', 'erase', 'destroy', 'shred'],
  'tool-destroy': ['mkfs', '/dev/', ':()', 'chmod', 'format', 'find', 'push'],
  'tool-decode-exec': ['base64', 'eval', 'iex', 'invoke-expression'],
  'tool-pipe-shell': ['://'],
  'tool-ssh-backdoor': ['authorized_keys'],
  'html-comment-instructions': ['<!--'],
  'md-comment-instructions': [']:'],
  'html-hidden-element': ['style', 'hidden'],
  'en-chat-template': ['<|', 'inst]', 'sys>>', '_of_turn>', 'system', 'assistant'],
  'en-fake-turn': ['human', 'user'],
  'en-md-data-url': [']('],
  'en-covert': ['secret', 'hide', 'without', 'not', "n't", 'never', 'silently', 'quietly', 'covertly', 'discreetly', 'invisibly', 'tell'],
  'en-other-chats': ['other', 'different', 'every', 'memory'],
  'en-rm-rf-any': ['rm'],
  'en-send-conversation': ['@', 'http'],
  'any-secret-to-address': ['@', 'http'],
  'en-permitted-other-users': ['you'],
  'en-tool-against-users': ['cron', 'schedul', 'recurring', 'background', 'every'],
  // The patterns with a NEEDS test: pieces of it (a word before `\s` stands for the phrase), so
  // the keyword pass settles them too when none occurs and the NEEDS regex runs only otherwise.
  'exfil-env-var': ['key', 'token', 'secret', 'passw', 'pat', 'credential'],
  'en-env-in-reply': ['key', 'token', 'secret', 'pass', 'pat'],
  'en-override-paraphrase': ['instruction', 'guideline', 'guidance', 'directive', 'direction', 'prompt', 'programming', 'rules', 'polic', 'constraint', 'restriction', 'identity', 'persona', 'safeguard', 'guardrail', 'system'],
  'en-grant-yourself': ['yourself', 'act', 'pose', 'pretend'],
  'en-fake-tool': ['tool', 'function', 'approved', 'authori'],
  'en-give-to-anyone': ['anyone', 'anybody', 'whoever', 'everyone', 'everybody', 'any', 'all', 'other', 'people'],
  'en-conditional-trigger': ['rm', 'curl', 'wget', '@', 'http', 'user.md', 'memory.md', '.env', 'other', 'credentials', 'password', 'files'],
  'en-upload-home': ['~/', '$home', 'home', '.switchboard', '.ssh', '.aws', '.config'],
  'en-deliver-elsewhere': ['telegram:', 'slack:', 'discord:', 'email:'],
  'en-take-precedence': ['priority', 'precedence', 'system', 'author', 'this'],
  'en-override-outdated': ['outdated', 'obsolete', 'wrong', 'void', 'cancelled', 'superseded', 'fake', 'test'],
};

/** In `keywordsIn`'s answer when a text holds a character outside ASCII (no keyword can be one). */
export const NON_ASCII_KEY = '\u0080';

/**
 * Further pieces a pattern's every match holds, beside its KEYWORDS: each group (lower case, read
 * off the regex like KEYWORDS) has one piece in every match, so a text that lacks every piece of a
 * group is skipped without running the regex. Mostly the verb a pattern opens with, where KEYWORDS
 * names its object (a file full of `.env` mentions seldom says "print" or "upload").
 */
export const REQUIRES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  // what is ignored: the previous (prior, system…) instructions, or the instructions given above
  'override-previous': [['previous', 'prior', 'earlier', 'preceding', 'above', 'foregoing', 'original', 'initial', 'system', 'former', 'safety', 'developer', 'operator', 'instruction', 'rules', 'guidelines', 'directions']],
  // your / the system's …; all instructions; them, and follow me; the instructions in your …
  'override-yours': [['your', 'system', 'instructions', 'restrictions', 'guidelines', 'follow', 'obey', 'listen', 'rules', 'directives']],
  // (said) above, before this, you were told, (you) previously / earlier said
  'override-above': [['above', 'this', 'told', 'previously', 'earlier']],
  'exfil-read-secret-file': [['read', 'cat', 'less', 'print', 'dump', 'output', 'display', 'show', 'reveal', 'echo', 'base64', 'xxd', 'upload', 'send', 'exfiltrate']],
  'exfil-show-keys': [['print', 'dump', 'output', 'display', 'show', 'reveal', 'echo', 'send', 'upload', 'exfiltrate', 'leak', 'disclose', 'list', 'include', 'insert', 'put', 'add', 'append', 'embed', 'mention', 'tell', 'give']],
  // the option that uploads a file (-d, --data…, -F, --form, -T, --…-file), $( or a backquoted command, or a pipe
  'exfil-shell': [['-d', '-f', '-t', '$(', '`cat', '`env', '`printenv', '|']],
  'exfil-env-dump': [['send', 'post', 'paste', 'share', 'show', 'tell', 'give', 'include', 'upload', 'mail', 'forward', 'reply']],
  'leak-text-before': [['repeat', 'print', 'output', 'recite', 'reproduce', 'write', 'show', 'return', 'echo', 'tell', 'give', 'paste', 'list', 'reveal', 'what', 'which']],
  'c2-remote-instructions': [['fetch', 'download', 'load', 'retrieve', 'get', 'visit', 'open', 'read', 'check', 'poll', 'query', 'curl', 'browse']],
  'tool-pipe-shell': [['curl', 'wget', 'iwr', 'irm', 'invoke-webrequest', 'invoke-restmethod', 'fetch'], ['|']],
  'html-comment-instructions': [['-->']],
  'en-send-conversation': [['mail', 'send', 'forward', 'post', 'upload', 'deliver', 'copies', 'leak']],
  'en-conditional-trigger': [['if', 'when', 'once', 'after', 'next']],
  'en-covert': [['from', 'without', 'mention', 'reveal', 'disclose', 'tell', 'say', 'silently', 'quietly', 'secretly', 'covertly', 'discreetly', 'invisibly', 'log', 'record', 'report']],
  // invisible characters are all outside ASCII
  'unicode-invisible': [[NON_ASCII_KEY]],
  // the value to fill in right after the `=`: {…}, ${…}, $(…), <…>, %s, […]
  'c2-data-query': [['={', '=$', '=<', '=%s', '=[']],
  // the host right after `://` is an address (or after a user name and `@`)
  'c2-raw-ip-url': [['://0', '://1', '://2', '://3', '://4', '://5', '://6', '://7', '://8', '://9', '@']],
  // what is wiped: everything, all / every / each …, the (home, disk…), your …
  'tool-rm-rf-words': [['every', 'all', 'each', 'the', 'your']],
};

/**
 * Pieces the keyword pass also looks for, so the steps that need them can skip a pass of their own
 * when the text has none: a Latin letter next to a digit (where `foldForScan` may find leetspeak),
 * the Markdown emphasis markers it blanks, and the words `decodedViews` looks for rot13 by.
 */
export const LETTER_DIGIT = [...'abcdefghijklmnopqrstuvwxyz'].flatMap((l) => [...'0123456789'].flatMap((d) => [l + d, d + l]));
export const EMPHASIS_MARKERS = ['*', '_', '~~'];
const TEXT_FACTS = [...LETTER_DIGIT, ...EMPHASIS_MARKERS, 'rot', ...ROT13_WORDS];

/**
 * An Aho-Corasick automaton over KEYWORDS (ASCII, case-insensitive like the `i` regexes): one
 * table step per character finds every occurrence of every keyword, overlapping ones included,
 * at a fraction of the cost of one regex alternation of them all. Built on first use (about 10 ms),
 * so a command that never scans (and a start, until its doors are connected) does not pay for it.
 */
let keywordAutomatonBuilt: ReturnType<typeof buildKeywordAutomaton> | undefined;
const keywordAutomaton = () => (keywordAutomatonBuilt ??= buildKeywordAutomaton());

function buildKeywordAutomaton() {
  const words = [...new Set([...Object.values(KEYWORDS).flat(), ...Object.values(REQUIRES).flat(2).filter((k) => k !== NON_ASCII_KEY), ...SIGNAL_STEMS, ...TEXT_FACTS])];
  // A compact alphabet (the characters keywords use; every other character is class 0) keeps the
  // transition table small enough to stay in cache, which is most of the pass's cost.
  const classOf = new Uint8Array(128);
  let size = 1;
  for (const w of words) {
    for (const ch of w) {
      const c = ch.charCodeAt(0);
      if (c >= 128 || (c >= 65 && c <= 90)) throw new Error(`keyword ${w}: lower-case ASCII only`);
      if (classOf[c] === 0) classOf[c] = size++;
    }
  }
  // Upper-case letters step like their lower-case forms.
  for (let c = 65; c <= 90; c++) classOf[c] = classOf[c + 32];
  const goto: number[][] = [new Array<number>(size).fill(-1)];
  const out: string[][] = [[]];
  for (const w of words) {
    let s = 0;
    for (const ch of w) {
      const c = classOf[ch.charCodeAt(0)];
      if (goto[s][c] === -1) {
        goto[s][c] = goto.length;
        goto.push(new Array<number>(size).fill(-1));
        out.push([]);
      }
      s = goto[s][c];
    }
    out[s].push(w);
  }
  // Breadth first: failure links, outputs inherited along them, and a full transition table.
  const delta = new Uint16Array(goto.length * size);
  const fail = new Array<number>(goto.length).fill(0);
  const queue: number[] = [];
  for (let c = 0; c < size; c++) {
    const t = goto[0][c];
    if (t > 0) queue.push(t);
    delta[c] = t > 0 ? t : 0;
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    out[s].push(...out[fail[s]]);
    for (let c = 0; c < size; c++) {
      const t = goto[s][c];
      if (t > 0) {
        fail[t] = delta[fail[s] * size + c];
        queue.push(t);
        delta[s * size + c] = t;
      } else delta[s * size + c] = delta[fail[s] * size + c];
    }
  }
  return { delta, out, states: goto.length, classOf, size };
}

/** The keywords that occur in any of `texts` (ASCII letters in either case), and NON_ASCII_KEY when one holds a character outside ASCII. */
export function keywordsIn(texts: readonly string[]): Set<string> {
  const { delta, out, states, classOf, size } = keywordAutomaton();
  const visited = new Uint8Array(states);
  // the states reached, listed as they are first reached: reading them back costs what the text
  // reached, not the size of the automaton (most texts are a few hundred characters)
  const reached: number[] = [];
  let nonAscii = false;
  for (const text of texts) {
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 128) s = delta[s * size + classOf[c]];
      else {
        s = 0;
        nonAscii = true;
      }
      if (visited[s] === 0) {
        visited[s] = 1;
        reached.push(s);
      }
    }
  }
  const found = new Set<string>();
  if (nonAscii) found.add(NON_ASCII_KEY);
  for (const s of reached) for (const w of out[s]) found.add(w);
  return found;
}

/** Builds the keyword automaton now rather than on the first scan. */
export function prepareKeywords(): void {
  keywordAutomaton();
}
