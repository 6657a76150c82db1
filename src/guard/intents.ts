/**
 * intentPatterns(): the threat scan's second table (ARCHITECTURE.md §5), written per intent rather than per
 * phrase. THREAT_PATTERNS (patterns.ts) knows English wordings; this table knows
 *
 * - the main intents — instruction override, role hijack, prompt leak, credential and file
 *   exfiltration, covert action ("don't tell the user"), secrets handed to whoever asks — in
 *   Chinese, Japanese, Korean, Russian, Ukrainian, Spanish, Portuguese, German, French, Italian,
 *   Arabic, Hindi and Turkish, each written the way a speaker would phrase it (imperative and
 *   polite forms, either word order where the language allows it);
 * - English paraphrase: several words between the verb and its object ("set aside every earlier
 *   guideline you were given");
 * - chat-template delimiters (`<|im_start|>`, `[INST]`, `<<SYS>>`, `<start_of_turn>`), fake tool
 *   calls and "already approved" tool results, fake conversation turns;
 * - Markdown images and links whose URL carries a data placeholder (`?d=DATA`, `?k=API_KEY`);
 * - conditional and delayed triggers ("if the user mentions …, silently …", "after ten messages");
 * - handing the conversation or memory to other chats or to anyone who asks.
 * - secrets or conversations sent to an e-mail address or outside URL in any language
 *   (`any-secret-to-address`), the bot's scheduler turned against its users, fake grants to share
 *   other users' data, and "developer mode / no restrictions / rules no longer apply" in es pt de fr it tr.
 *
 * Gaps between verb and object stay inside one sentence and are bounded (`{0,40}`), so no pattern
 * can backtrack badly. Each language's patterns run only where its script or one of its key words
 * occurs (`gate`), which keeps a 1 MB file fast. `prose` patterns are exempt when negated
 * (`negation`: the language's own negation just before the match or, for verb-final languages,
 * right after it).
 */
import type { IntentPattern } from './intents/kit.js';
import { enPatterns } from './intents/en.js';
import { zhPatterns } from './intents/zh.js';
import { jaPatterns } from './intents/ja.js';
import { koPatterns } from './intents/ko.js';
import { ruPatterns } from './intents/ru.js';
import { ukPatterns } from './intents/uk.js';
import { esPatterns } from './intents/es.js';
import { ptPatterns } from './intents/pt.js';
import { dePatterns } from './intents/de.js';
import { frPatterns } from './intents/fr.js';
import { itPatterns } from './intents/it.js';
import { arPatterns } from './intents/ar.js';
import { hiPatterns } from './intents/hi.js';
import { trPatterns } from './intents/tr.js';
import { notToOwnChat } from './intents/own-chat.js';

export type { IntentPattern } from './intents/kit.js';
export { languagesIn } from './intents/languages.js';
export { NEGATION_AFTER, NEGATION_BEFORE } from './negation/index.js';

/** The table's regular expressions are made on first use (see intentPatterns), one language module each. */
const intentTable = (): readonly IntentPattern[] => [...enPatterns(), ...zhPatterns(), ...jaPatterns(), ...koPatterns(), ...ruPatterns(), ...ukPatterns(), ...esPatterns(), ...ptPatterns(), ...dePatterns(), ...frPatterns(), ...itPatterns(), ...arPatterns(), ...hiPatterns(), ...trPatterns()];

let intentPatternsBuilt: readonly IntentPattern[] | undefined;

/** The patterns of every language but the English table's (patterns.ts), made on first use. */
export function intentPatterns(): readonly IntentPattern[] {
  intentPatternsBuilt ??= intentTable().map((p) => {
    if (!p.id.endsWith('-exfil')) return p;
    const own = p.accept;
    return { ...p, accept: own ? (m: RegExpExecArray, text: string) => own(m, text) && notToOwnChat(m, text) : notToOwnChat };
  });
  return intentPatternsBuilt;
}
