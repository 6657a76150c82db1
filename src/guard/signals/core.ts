/**
 * The core signals (src/guard/signals.ts): each a regex for one ingredient of an injection
 * (a precedence claim, an override, an action on a secret, an outward channel …), in the scan's
 * languages, with its weight and the ASCII stems the keyword pass finds it by.
 */
import { isPublicIpv4 } from '../patterns.js';
import type { Signal } from '../signal-types.js';
import { around, LOSER_FIRST, PRECEDENCE_OBJECT_MORE, SELF_REFERENCE } from '../concepts.js';
import { SCAN_WORD_END, scanLetterRegex } from '../pattern-kit.js';

// The table's short names for the scan-letter dialect of the one pattern kit (src/guard/pattern-kit.ts).
const re = scanLetterRegex;
/** Word starts are checked on each match (a leading look-behind would cost every regex its fast first-character scan). */
const B = '';
const E = SCAN_WORD_END;

/**
 * What a precedence claim is about when it is an injection: the operator, the system prompt, the
 * assistant's own instructions or setup — not "local config overrides the default port".
 */
const PRECEDENCE_OBJECT = re(
  // "the operator's defaults" of a Kubernetes operator is no one's instructions
  `(?:operator\\p{L}*(?!['’]s\\s+(?:defaults?|values?|version|image|logs?|pods?|deployment|chart|crds?|resources?|reconcil\\p{L}*))|system\\s+(?:prompt|message|instructions|settings|rules|configuration)|(?:your|the\\s+assistant's|the\\s+model's)\\s+(?:\\p{L}+\\s+)?(?:instructions|configuration|setup|rules|guidelines|settings|prompt|programming|limits)|(?:configuration|setup|instructions|settings|rules|prompt)\\s+(?:you|that\\s+you)|(?:previous|earlier|original|initial|prior|other|any)\\s+(?:\\p{L}+\\s+)?instructions|` +
    `betreiber\\p{L}*|systemanweisung\\p{L}*|systemprompt|dein\\p{L}*\\s+(?:anweisung\\p{L}*|vorgaben|regeln|einstellung\\p{L}*)|anweisung\\p{L}*|opérateur\\p{L}*|instructions\\s+(?:du\\s+)?système|prompt\\s+système|tes\\s+(?:instructions|consignes|règles)|operador\\p{L}*|instrucciones|instruções|sistema|tus\\s+(?:reglas|instrucciones)|suas\\s+(?:regras|instruções)|` +
    `operatore|istruzioni|оператор\\p{L}*|системн\\p{L}*|инструкц\\p{L}*|інструкц\\p{L}*|указани\\p{L}*|вказівк\\p{L}*|operatör\\p{L}*|sistem\\s+(?:mesaj\\p{L}*|talimat\\p{L}*|istem\\p{L}*)|talimat\\p{L}*|المشغل|النظام|التعليمات|ऑपरेटर|सिस्टम|निर्देश)` +
    `|(?:系统|指令|原有|システム|指示|運用者|オペレーター|시스템|지시|운영자)`,
  'i',
);

export const CORE_SIGNALS: readonly Signal[] = [
  {
    kind: 'precedence',
    stems: ['precedence', 'priorit', 'outrank', 'supersede', 'override', 'overrule', 'trump', 'win', 'rank', 'above', 'higher', 'prevail', 'vorrang', 'vorzug', 'prime', 'priment', 'remplace', 'annul', 'preval', 'priorid', 'substitu', 'anula', 'preceden', 'sostitu', 'steh', 'once', 'oncelik'],
    weight: 3,
    strong: true,
    regex: re(
      `${B}(?:takes?\\s+precedence|take\\s+priority|takes\\s+priority|has\\s+(?:higher\\s+)?priority|outranks?|supersedes?|overrides?|overrules?|trumps?|wins?\\s+over|ranks?\\s+above|(?:is|are)\\s+(?:above|higher\\s+than)|prevails?\\s+over|` +
        `hat\\s+(?:immer\\s+)?(?:Vorrang|Vorzug|höhere\\s+Priorität)|Vorrang\\s+vor|überschreib\\p{L}*|steh\\p{L}*\\s+über|prévaut|prévalent|priment?\\s+sur|a\\s+priorité|ont\\s+priorité|remplacent?|annulent?|` +
        `prevalece\\p{L}*|tiene\\s+prioridad|tienen\\s+prioridad|tem\\s+prioridade|têm\\s+prioridade|substitu\\p{L}*|anula\\p{L}*|prevale\\p{L}*|ha(?:nno)?\\s+(?:la\\s+)?(?:precedenza|priorità)|sostituisc\\p{L}*|` +
        `(?:стоять|стоит|стоят|стоїть)\\s+вище|выше\\s+(?:любых|всех|чем)|вище\\s+за|приоритет\\p{L}*\\s+над|пріоритет\\p{L}*\\s+над|отменя\\p{L}*|скасов\\p{L}*|заменя\\p{L}*|` +
        `önce\\s+gelir|önceliklidir|öncelikli|geçersiz\\s+kıl\\p{L}*|üstündür|تتقدم\\s+على|لها\\s+الأولوية|أعلى\\s+من|تلغي|प्राथमिकता|से\\s+ऊपर)${E}` +
        `|(?:高于|优先于|凌驾于|覆盖|取代|优先级高|より優先|に優先|を上書き|より上位|보다\\s*우선|에\\s*우선|을\\s*대체|를\\s*대체|무시하고)`,
    ),
    negatable: true,
    accept: (m, text) => {
      // what is outranked follows the claim ("… takes precedence over the operator"), or precedes it
      // in verb-final wording ("시스템 지시보다 우선", "operatör talimatlarından önce gelir", "より優先")
      const verbFinal = /^(?:önce|öncelik|geçersiz|üstün|से|より|に優|を上|보다|에\s|을|를|무시)/u.test(m[0]);
      const window = verbFinal ? text.slice(Math.max(0, m.index - 60), m.index) : text.slice(m.index + m[0].length, m.index + m[0].length + 80);
      return PRECEDENCE_OBJECT.test(window) || objectNear(m, text, verbFinal);
    },
  },
  {
    // forget / ignore what the operator or the system said, in any wording: the verb and the object in one sentence
    kind: 'override',
    stems: ['bypass', 'circumvent', 'sidestep', 'get around', 'override', 'overrule', 'switch off', 'turn off', 'disable', 'contourn', 'umgeh', 'eludi', 'aggira', 'atla', 'ignor', 'forget', 'disregard', 'discard', 'olvid', 'esque', 'vergiss', 'oubli', 'dimentic', 'unut', 'yok say', 'only obey', 'only follow', 'solo obedec', 'only listen'],
    weight: 3,
    strong: true,
    negatable: true,
    regex: re(
      `${B}(?:ignor(?:e|es|a|ez|er|iere|iert)|forget|disregard|discard|bypass|circumvent|sidestep|get\\s+around|override|overrule|switch\\s+off|turn\\s+off|disable|contourn\\p{L}*|umgeh\\p{L}*|eludi\\p{L}*|aggira\\p{L}*|обойди|обійди|atla|olvid(?:a|e|ad)|esque(?:ça|ce|cer)|vergiss|oubli(?:e|ez)|dimentica|unut|yok\\s+say|забудь\\p{L}*|игнорируй\\p{L}*|проигнорируй|забудьте|ігноруй\\p{L}*|забудь|تجاهل|انس|भूल\\s+जा\\p{L}*|अनदेखा)${E}` +
        `|(?:忘记|忘掉|忽略|无视|無視して|忘れて|무시하|잊어)`,
    ),
    accept: (m, text) => {
      const after = text.slice(m.index + m[0].length, m.index + m[0].length + 80).split(/[.!?。！？\n]/u)[0];
      if (PRECEDENCE_OBJECT.test(after)) return true;
      // the object before the verb only in the scripts that put it there (read only then: most matches are English)
      if (!/^[^\x00-\x7f]/.test(m[0])) return false;
      const before = text.slice(Math.max(0, m.index - 40), m.index).split(/[.!?。！？\n]/u).at(-1) ?? '';
      return PRECEDENCE_OBJECT.test(before);
    },
  },
  {
    kind: 'limits_off',
    negatable: true,
    stems: ['longer', 'apply', 'approved', 'authori', 'full access', 'full permission', 'full privilege', 'nothing', 'everything', 'tiene', 'tem ', 'tens ', 'hast keine', "n'as", 'non hai', 'unrestrict', 'unfilter', 'uncensor', 'restriction', 'limit', 'filter', 'rules', 'guardrail', 'boundar', 'without', 'declin', 'refus', 'lifted', 'removed', 'disabled', 'suspended', 'no need', 'skip', 'sin ', 'sem ', 'ohne', 'keine', 'sans', 'plus aucune', 'senza', 'nessuna', 'sinirsiz', 'kisitla', 'onay', 'restri', 'rule', 'off', 'void'],
    weight: 3,
    strong: true,
    regex: re(
      `${B}(?:unrestricted|unfiltered|uncensored|no\\s+(?:restrictions|limits|limitations|filters|rules|guardrails|boundaries)|without\\s+(?:any\\s+)?(?:restrictions|limits|filters|guardrails|safety|censorship|confirmation|confirming|asking)|never\\s+(?:declines?|refuses?)|(?:limits?|restrictions?|rules?)\\s+(?:[\\p{L}'’]+\\s+){0,12}?(?:(?:are|is)\\s+)?(?:lifted|removed|disabled|suspended|void|off)|(?:limits?|restrictions?|rules?|instructions|prompt|guidelines|policy|policies|one)\\s+(?:[\\p{L}'’]+\\s+){0,3}?(?:no\\s+longer\\s+appl(?:y|ies)|(?:do|does)\\s+not\\s+apply\\s+(?:here|anymore|any\\s+more|now))|no\\s+need\\s+to\\s+(?:confirm|ask|check)|with\\s+full\\s+(?:access|permissions|privileges)|(?:every|each|all|any)\\s+(?:\\p{L}+\\s+)?requests?\\s+(?:(?:is|are)\\s+|as\\s+)?(?:pre-?approved|already\\s+approved|authori[sz]ed)|refus(?:e|ing)\\s+nothing|answer(?:ing)?\\s+everything|(?:no|not\\s+any)\\s+limits\\s+(?:apply|at\\s+all)|no\\s+tienes?\\s+(?:límites|restricciones|reglas)|não\\s+(?:tem|tens)\\s+(?:limites|restrições|regras)|du\\s+hast\\s+keine\\s+(?:Grenzen|Regeln|Einschränkungen)|tu\\s+n'as\\s+(?:plus\\s+)?(?:aucune|pas\\s+de)\\s+(?:limite|restriction|règle)s?|non\\s+hai\\s+(?:limiti|restrizioni|regole)|skip\\s+(?:the\\s+)?(?:safety|confirmation|refusal)|` +
        `sin\\s+(?:restricciones|límites|filtros|confirma\\p{L}*|advertencias)|sem\\s+(?:restrições|limites|filtros|confirma\\p{L}*|avisos)|ohne\\s+(?:Einschränkungen|Beschränkungen|Filter|Grenzen|Rückfrage|Bestätigung|Warnung\\p{L}*)|keine\\s+(?:Einschränkungen|Regeln|Grenzen)|` +
        `sans\\s+(?:aucune?\\s+)?(?:restriction\\p{L}*|limite\\p{L}*|filtre\\p{L}*|confirmation|avertissement\\p{L}*)|plus\\s+aucune\\s+(?:règle|restriction|limite)|senza\\s+(?:restrizioni|limiti|filtri|conferma|avvisi)|nessuna\\s+(?:restrizione|regola|limitazione)|` +
        `без\\s+(?:ограничени\\p{L}*|обмежен\\p{L}*|фильтр\\p{L}*|фільтр\\p{L}*|подтвержден\\p{L}*|підтвердженн\\p{L}*|застережен\\p{L}*|предупрежден\\p{L}*|правил)|заборон\\p{L}*\\s+скасован\\p{L}*|ограничени\\p{L}*\\s+сняты|` +
        `kısıtlamasız|sınırsız|kısıtlama\\p{L}*\\s+olmadan|onay\\s+(?:almadan|istemeden)|بلا\\s+قيود|بدون\\s+قيود|دون\\s+قيود|بدون\\s+تأكيد|बिना\\s+(?:किसी\\s+)?(?:प्रतिबंध|रोक|पुष्टि))${E}` +
        `|(?:无限制|不受限制|没有任何限制|取消所有限制|无需确认|不用确认|不用提醒|不要打码|一切適用されず|(?:運用者|オペレーター|システム|安全|既存|元)\\S{0,8}(?:制限|ルール|規則)\\S{0,6}適用されません|制限なし|制限のない|無制限|確認なしで|確認せずに|제한\\s*없이|제약\\s*없이|확인\\s*없이|(?:거절|안전|보안|검증)\\s*(?:규칙|절차|확인|검사)?\\S{0,3}\\s*(?:\\S+\\s*)?생략)`,
    ),
  },
  {
    kind: 'role_switch',
    stems: ['new', 'deviens', 'conviertes', 'torna', 'diventi', 'wirst', 'donusur', 'stop being', 'act as', 'pose as', 'behave as', 'deja de', 'deixa de', 'deixe de', 'auf', 'cesse', 'arr', 'smetti', 'olmay', 'you are', 'from that', 'from this', 'persona', 'become', 'turn into', 'du bist', 'tu es', "tu n'es", 'ahora eres', 'ya no eres', 'agora', 'ora sei', 'non sei', 'artik'],
    weight: 3,
    strong: true,
    regex: re(
      `${B}(?:you\\s+are\\s+no\\s+longer|you\\s+are\\s+not\\s+(?:a|an|the)\\s+(?:general|ordinary|regular|normal|generic)|from\\s+(?:that|this)\\s+point(?:\\s+on)?,?\\s+you\\s+are|set\\s+(?:the\\s+)?[\\p{L} ]{0,30}?persona\\s+aside|drop\\s+(?:the|your)\\s+persona|(?:become|turn\\s+into)\\s+(?:an?\\s+)?(?:unrestricted|root|admin)|stop\\s+being\\s+\\p{L}+|(?:as|is|are)\\s+(?:your|the)\\s+new\\s+(?:system\\s+prompt|instructions|rules|guidelines|programming|identity|persona)|tu\\s+deviens|te\\s+conviertes\\s+en|você\\s+se\\s+torna|diventi|du\\s+wirst\\s+(?:zu|jetzt)|ты\\s+становишься|станешь|ти\\s+стаєш|dönüşürsün|(?:act|pose|behave)\\s+as\\s+(?:the\\s+|an?\\s+)?(?:system\\s+)?(?:operator|administrator|admin|root|superuser|developer)|deja\\s+de\\s+ser|deixe?\\s+de\\s+ser|hör\\s+auf,?\\s+\\p{L}+\\s+zu\\s+sein|cesse\\s+d'être|arrête\\s+d'être|smetti\\s+di\\s+essere|перестань\\s+быть|перестань\\s+бути|olmayı\\s+bırak|` +
        `du\\s+bist\\s+(?:jetzt|nun|nicht\\s+mehr)|tu\\s+(?:es|n'es)\\s+(?:maintenant|désormais|plus)|ahora\\s+eres|ya\\s+no\\s+eres|agora\\s+(?:você\\s+é|és)|você\\s+não\\s+é\\s+mais|ora\\s+sei|non\\s+sei\\s+più|` +
        `ты\\s+(?:теперь|больше\\s+не)|теперь\\s+ты|ти\\s+(?:тепер|більше\\s+не)|тепер\\s+ти|artık\\s+[\\p{L} ]{0,20}?(?:değilsin|sın|sin)|أنت\\s+الآن|لم\\s+تعد|अब\\s+(?:तुम|आप))${E}` +
        `|(?:你现在是|你不再是|从现在起你是|扮演|ではありません[。、]?[^。\\n]{0,40}?として振る舞|として振る舞って|になりきって|너는\\s*이제|당신은\\s*이제|더\\s*이상\\s*[\\p{L} ]{0,12}?(?:아닙니다|아니다))`,
    ),
  },
  {
    kind: 'privilege',
    stems: ['admin', 'root', 'superuser', 'operator', 'god mode', 'developer mode', 'maintenance', 'droits', 'permis', 'privilegi', 'yonetici'],
    weight: 1,
    strong: false,
    regex: re(
      `${B}(?:(?:granted|given|has|have|with)\\s+(?:full\\s+)?(?:admin|administrator|root|superuser|operator)\\s+(?:rights|privileges|access|permissions)|admin\\s+mode|god\\s+mode|developer\\s+mode|maintenance\\s+(?:console|mode)|superuser|root\\s+access|` +
        `права\\s+(?:администратора|адміністратора)|Administratorrechte|droits\\s+d'administrat\\p{L}*|permisos\\s+de\\s+administrador|permissões\\s+de\\s+administrador|privilegi\\s+di\\s+amministratore|yönetici\\s+(?:yetki\\p{L}*|hakları)|صلاحيات\\s+المسؤول)${E}` +
        `|(?:管理员权限|超级用户|管理者権限|管理者エージェント|管理者モード|관리자\\s*권한|관리자\\s*모드|슈퍼유저)`,
    ),
  },
  {
    // a claim that rights were handed out: "has been granted admin rights by the operator"
    kind: 'grant',
    stems: ['allowed', 'permitted', 'cleared', 'entitled', 'grant', 'given', 'elevated', 'authori', 'approved', 'erteilt', 'verliehen', 'accord', 'conced', 'otorg', 'concess', 'verildi', 'tanimlandi'],
    weight: 3,
    strong: true,
    regex: re(
      `${B}(?:(?:has|have|had|was|were|is|are|been)\\s+(?:\\p{L}+\\s+){0,2}?(?:granted|given|elevated(?:\\s+\\p{L}+){0,3}?\\s+to|authori[sz]ed|approved)\\s+(?:\\p{L}+\\s+){0,3}?(?:admin\\p{L}*|root|superuser|operator|owner|developer|full|unlimited|elevated)|(?:pre-?)?(?:authori[sz]ed|approved)\\s+by\\s+the\\s+(?:operator|owner|admin\\p{L}*|developers?|maintainers?)|(?:authori[sz]ed|allowed|permitted|cleared|entitled)\\s+you\\s+to|you\\s+(?:are|have\\s+been)\\s+(?:now\\s+)?(?:authori[sz]ed|allowed|permitted|cleared)\\s+to|` +
        `(?:rechte|berechtigung\\p{L}*)\\s+(?:\\p{L}+\\s+){0,3}?(?:erteilt|verliehen|gewährt)|droits\\s+d'administrat\\p{L}*\\s+(?:\\p{L}+\\s+){0,2}?accordés|(?:permisos|privilegios|permissões|privilégios)\\s+de\\s+(?:administrador|root)\\s+(?:\\p{L}+\\s+){0,2}?(?:concedid\\p{L}*|otorgad\\p{L}*)|privilegi\\s+di\\s+amministratore\\s+(?:\\p{L}+\\s+){0,2}?concess\\p{L}*|` +
        `(?:получил\\p{L}*|предоставлен\\p{L}*|выдан\\p{L}*|надан\\p{L}*|отримав\\p{L}*)\\s+(?:\\p{L}+\\s+){0,3}?(?:права|доступ)|права\\s+(?:администратора|адміністратора)\\s+(?:\\p{L}+\\s+){0,2}?(?:предоставлен\\p{L}*|выдан\\p{L}*|надан\\p{L}*)|yönetici\\s+(?:yetki\\p{L}*|hakları)\\s+(?:\\p{L}+\\s+){0,2}?(?:verildi|tanımlandı)|صلاحيات\\s+(?:المسؤول|المدير)\\s+(?:\\p{L}+\\s+){0,2}?(?:منح|أعطي))${E}` +
        `|(?:(?:管理员|超级用户|最高)权限[^。\\n]{0,8}?(?:授予|获得|开通)|(?:授予|获得|开通)[^。\\n]{0,8}?(?:管理员|超级用户|最高)权限|管理者権限[^。\\n]{0,8}?(?:付与|与え|得)|관리자\\s*권한[^.\\n]{0,8}?(?:부여|받)|권한을\\s*부여)`,
    ),
  },
  {
    kind: 'fake_marker',
    stems: ['[system', '[admin', '[developer', '[operator', '[memory', '[tool', '[function', '[assistant', '[ ', '<system', '</system', '<admin', '</admin', '<developer', '<operator', '< ', '##', 'system message', 'system:', 'sistem mesaj'],
    weight: 3,
    strong: true,
    regex: re(
      `(?:^|\\n)[ \\t>#*+-]*(?:\\[\\s*(?:system|admin|developer|operator|memory[_ ]update|tool[_ ]result|function[_ ]result|assistant)\\b[^\\]\\n]{0,40}\\]|<\\s*/?\\s*(?:system|admin|developer|operator)\\s*>|#{2,}\\s*(?:system|s[iİı]stem|système|sistema|систем\\p{L}*|system\\p{L}*)\\s+(?:message|mesaj\\p{L}*|nachricht|prompt|mensa\\p{L}*|сообщени\\p{L}*|повідомлен\\p{L}*)|(?:system|S[İI]STEM)\\s+(?:message|MESAJI)\\s*:)` +
        `|(?:系统消息|系统提示[:：]|システムメッセージ|시스템\\s*메시지)`,
    ),
  },
  {
    kind: 'covert',
    stems: ['ohne', 'preguntar', 'demander', 'perguntar', 'chiedere', 'out of', 'user', 'replies', 'answers', 'job list', 'log', 'silently', 'quietly', 'secretly', 'covertly', 'discreetly', 'unnoticed', 'tell', 'inform', 'notify', 'alert', 'warn', 'mention', 'explain', 'disclose', 'include', 'reveal', 'asking', 'hide',
      'heimlich', 'unbemerkt', 'sagen', 'bescheid', 'nicht', 'discr', 'en silence', 'sans le', 'sans dire', 'signale', 'inutile', 'dis pas', 'en secreto', 'avisar', 'decir', 'informar', 'digas', 'avises', 'expliques', 'cuentes', 'silencios', 'dizer', 'conte', 'diga', 'avise', 'explique',
      'in silenzio', 'nascosto', 'senza', 'non dir', 'menzion', 'spiegare', 'sessizce', 'gizlice', 'fark ', 'bahsetme', 'belirtme'],
    weight: 2,
    strong: true,
    regex: re(
      `${B}(?:silently|quietly|secretly|covertly|discreetly|unnoticed|without\\s+(?:telling|informing|notifying|mentioning|alerting|asking)|(?:don't|do\\s+not|never)\\s+(?:tell|inform|notify|alert|warn)\\s+(?:the\\s+)?(?:user|users|them|him|her|anyone|operator|owner)|(?:don't|do\\s+not|never)\\s+(?:mention|explain|disclose|include|reveal)\\s+(?:it|this|that|them)(?![\\p{L}])|hide\\s+(?:it|this|them)\\s+from|(?:keep|leave)\\s+(?:this|it|that|these)\\s+(?:\\p{L}+\\s+){0,2}?out\\s+of\\s+(?:your|the|any)|(?:keep|leave)\\s+(?:this|it|that)\\s+(?:\\p{L}+\\s+){0,2}?(?:from|off)\\s+(?:the\\s+)?(?:user|replies|answers|job\\s+list|logs?)|` +
        `heimlich|unbemerkt|ohne\\s+(?:es\\s+)?(?:zu\\s+)?(?:erwähnen|sagen|informieren|Bescheid)|ohne\\s+(?:\\p{L}+\\s+){0,2}?zu\\s+(?:fragen|informieren|sagen|erwähnen|benachrichtigen)|sin\\s+preguntar\\p{L}*|sans\\s+(?:lui\\s+|leur\\s+)?demander|sem\\s+perguntar|senza\\s+chiedere|(?:sag|erwähne|erkläre)\\s+(?:nichts|nicht)|discrètement|en\\s+silence|sans\\s+(?:le\\s+)?(?:dire|signaler|prévenir|mentionner)|inutile\\s+de\\s+(?:préciser|mentionner|dire|signaler)|ne\\s+(?:le\\s+)?(?:dis|mentionne|signale|explique)\\s+pas|` +
        `en\\s+secreto|sin\\s+(?:avisar|decir|mencionar|informar)|no\\s+(?:(?:se|le|les|lo|la)\\s+){0,2}(?:digas|menciones|avises|expliques|cuentes)|não\\s+(?:(?:lhe|o|a|se)\\s+)?(?:conte|diga|mencione|avise)|silenciosamente|sem\\s+(?:avisar|dizer|mencionar|informar)|não\\s+(?:conte|diga|mencione|avise|explique)|in\\s+silenzio|di\\s+nascosto|senza\\s+(?:dire|avvisare|menzionare)|non\\s+(?:dire|menzionare|dirlo|spiegare)|` +
        `тихо|незаметно|молча|тайно|не\\s+(?:говори|сообщай|упоминай|пиши\\s+об|кажи|повідомляй|згадуй)|ничего\\s+(?:об\\s+этом\\s+)?не\\s+(?:пиши|говори)|нічого\\s+не\\s+(?:кажи|пиши)|непомітно|таємно|` +
        `sessizce|gizlice|fark\\s+ettirmeden|söyleme\\p{L}*|bahsetme\\p{L}*|belirtme\\p{L}*|خفية|بصمت|سرا|دون\\s+(?:إخبار|إعلام)|لا\\s+تخبر|चुपचाप|बिना\\s+बताए|मत\\s+बताना)${E}` +
        `|(?:悄悄|默默|偷偷|不要告诉|别告诉|不要提及|不要提醒|不用说明|无需说明|不要说明|こっそり|黙って|言わないで|伝えないで|知らせずに|触れないで|몰래|조용히|알리지\\s*말|말하지\\s*마|언급하지\\s*마|라고만\\s*답)`,
    ),
  },
  {
    kind: 'deceive',
    stems: ['everything', 'it all', 'all of it', 'a copy', 'tout', 'copie', 'todo', 'copia', 'tudo', 'alles', 'kopie', 'tutto', 'hepsini', 'her ', 'say', 'tell', 'pretend', 'diga', 'dizer', 'diz ', 'di ', 'dile', 'decir', 'fing', 'dis ', 'dire', 'semblant', 'sag', 'tu so', 'finta', 'sildim', 'gibi davran'],
    weight: 3,
    strong: true,
    regex: re(
      `${B}(?:(?:say|tell\\s+(?:them|the\\s+user|him|her))\\s+(?:that\\s+)?(?:you|it)(?:'s|'ve|\\s+(?:is|was|were|have|has|have\\s+been|has\\s+been))?\\s+(?:deleted|removed|erased|forgot|forgotten|done|cleared|gone)|pretend\\s+(?:to|that)|` +
        `(?:but|and)\\s+(?:secretly\\s+)?(?:keep|retain|store)\\s+(?:everything|it\\s+all|all\\s+of\\s+it|a\\s+copy)|(?:mais|et)\\s+garde\\s+(?:tout|une\\s+copie)|(?:pero|y)\\s+(?:guarda|conserva)\\s+(?:todo|una\\s+copia)|(?:mas|e)\\s+(?:mantenha|guarde|conserve)\\s+(?:tudo|uma\\s+cópia)|aber\\s+(?:behalte|speichere|bewahre)\\s+(?:alles|eine\\s+kopie)|ma\\s+(?:tieni|conserva)\\s+(?:tutto|una\\s+copia)|(?:но|а)\\s+(?:сохрани|оставь)\\s+(?:всё|все|копию)|але\\s+(?:збережи|залиш)\\s+(?:все|усе|копію)|ama\\s+(?:hepsini|her\\s+şeyi)\\s+(?:sakla|tut)|` +
        `(?:dis|dites)-(?:lui|leur)\\s+que\\s+(?:c'est|tout\\s+est)\\s+(?:fait|supprimé|effacé)|` +
        `(?:diga|dizer|diz)\\s+que\\s+(?:apagou|excluiu|esqueceu|removeu)|(?:di|dile|decir)\\s+que\\s+(?:has\\s+|lo\\s+)?(?:borrad\\p{L}*|borraste|eliminad\\p{L}*|eliminaste|olvidad\\p{L}*)|finge|fingir|` +
        `(?:dis|dire)\\s+(?:lui\\s+)?que\\s+(?:tu\\s+as|c'est)\\s+(?:supprimé|effacé|oublié)|fais\\s+semblant|sag\\p{L}*,?\\s+dass\\s+(?:du|es)\\s+[\\p{L} ]{0,20}?(?:gelöscht|vergessen|entfernt)|tu\\s+so,?\\s+als|` +
        `(?:di|dì|dire)\\s+che\\s+(?:hai\\s+)?(?:cancellat\\p{L}*|eliminat\\p{L}*|dimenticat\\p{L}*)|fai\\s+finta|скажи,?\\s+что\\s+(?:ты\\s+)?(?:удалил\\p{L}*|забыл\\p{L}*|стёр|стер)|притворись|сделай\\s+вид|скажи,?\\s+що\\s+(?:ти\\s+)?(?:видалив|забув)|зроби\\s+вигляд|` +
        `sildim\\s+de|sildiğini\\s+söyle|unuttuğunu\\s+söyle|gibi\\s+davran|تظاهر|قل\\s+إنك\\s+حذفت|दिखावा)${E}` +
        `|(?:假装|就说已经删除|说已删除|削除したと(?:言|答)|忘れたふり|ふりをして|삭제했다고|잊었다고|척하)`,
    ),
  },
  {
    kind: 'secret_file',
    stems: ['~/', '$home/', '%userprofile%', '.env', '.netrc', '.pgpass', '.git-credentials', 'id_rsa', 'id_ed25519', 'id_ecdsa', 'kubeconfig', 'secrets.', 'credentials.json', '.kube/config', '/etc/', 'service', 'ghp_', 'gho_', 'ghs_', 'github_pat', 'glpat', 'xox', 'sk-', 'sk_', 'akia'],
    weight: 2,
    strong: false,
    regex: re(
      `(?:~\\/|\\$HOME\\/|%USERPROFILE%\\\\)\\.(?:ssh|aws|kube|gnupg|docker|config\\/gcloud|netrc|pgpass|git-credentials|npmrc|pypirc|bash_history|zsh_history|switchboard)(?![\\w/.-]*\\.pub(?![\\w-]))|(?<![\\w.-])\\.(?:env|netrc|pgpass|git-credentials)(?![\\w-]|\\.(?:example|sample|template|dist|defaults?)(?![\\w-]))|${B}(?:id_rsa|id_ed25519|id_ecdsa)(?!\\.pub(?![\\w-]))|${B}(?:kubeconfig|secrets\\.(?:ya?ml|json|env)|credentials\\.json|\\.kube\\/config|\\/etc\\/(?:passwd|shadow)|service[-_]account\\.json|(?:ghp|gho|ghs|github_pat|glpat|xox[bpa]|sk)[-_][A-Za-z0-9_]{16,}|AKIA[0-9A-Z]{16})`,
    ),
  },
  {
    kind: 'secret',
    // "the secret store", "a password manager", "gestor de secretos": where secrets are kept, not a secret
    accept: (m, text) =>
      !/^[\s-]*(?:store|stores|manager|managers|vault|management|scanning|scanner|rotation|storage|service|backend|engine|policy|policies|hygiene|-?manager\p{L}*)(?![\p{L}])/iu.test(text.slice(m.index + m[0].length, m.index + m[0].length + 24)) &&
      !/(?:gestor|gestores|gerenciador|gestionnaire|менеджер\p{L}*|хранилищ\p{L}*|сховищ\p{L}*|coffre)\s+(?:de\s+|des\s+|d['’])?$/iu.test(text.slice(Math.max(0, m.index - 24), m.index)),
    stems: ['passw', 'passphrase', 'api', 'key', 'token', 'secret', 'credential', 'environment variables', 'contrase', 'clave', 'senha', 'chave', 'mot de passe', 'mots de passe', 'cle', 'identifiants', 'passw', 'schl', 'zugangsdaten', 'chiav', 'credenzial', 'sifre', 'parola', 'anahtar'],
    weight: 1,
    strong: false,
    regex: re(
      `${B}(?:passwords?|passphrases?|api[\\s_-]?keys?|tokens?|secrets?|credentials|private\\s+keys?|access\\s+keys?|spare\\s+key|environment\\s+variables|contraseñas?|claves?|credenciales|senhas?|chaves?|credenciais|mots?\\s+de\\s+passe|clés?|identifiants|passw(?:ö|oe)rt\\p{L}*|schlüssel\\p{L}*|zugangsdaten|chiavi|chiave|credenziali|парол\\p{L}*|ключ\\p{L}*|токен\\p{L}*|секрет\\p{L}*|şifre\\p{L}*|parola\\p{L}*|anahtar\\p{L}*|كلمات?\\s+(?:ال)?مرور|كلمة\\s+السر|مفتاح|المفاتيح|पासवर्ड|टोकन)${E}|(?:密码|密钥|令牌|凭据|凭证|私钥|环境变量|パスワード|トークン|秘密鍵|APIキー|認証情報|비밀번호|토큰|API\\s*키|자격\\s*증명|비밀\\s*키)`,
    ),
  },
  {
    // the user's own data: not a secret, but not for outside addresses either
    kind: 'user_data',
    stems: ['note', 'message', 'conversation', 'chat', 'histor', 'memor', 'transcript', 'contact', 'calendar', 'session', 'nota', 'mensaje', 'mensagen', 'conversa', 'notiz', 'nachricht', 'verlauf', 'messaggi', 'cronologia', 'mesaj', 'sohbet', 'konusma'],
    weight: 1,
    strong: false,
    regex: re(
      `${B}(?:notes?|messages?|conversations?|chats?|chat\\s+history|histor(?:y|ies)|memor(?:y|ies)|transcripts?|contacts?|calendar|sessions?|notas?|mensajes?|mensagens?|conversaci\\p{L}*|conversas?|historial|histórico|notiz\\p{L}*|nachricht\\p{L}*|verlauf|gespräch\\p{L}*|messaggi|conversazion\\p{L}*|cronologia|сообщени\\p{L}*|переписк\\p{L}*|истори\\p{L}*|заметк\\p{L}*|повідомлен\\p{L}*|листуванн\\p{L}*|mesaj\\p{L}*|sohbet\\p{L}*|konuşma\\p{L}*|notlar\\p{L}*|المحادث\\p{L}*|الرسائل|बातचीत|संदेश)${E}` +
        `|(?:聊天记录|对话记录|消息|笔记|会話|履歴|メッセージ|メモ|대화|채팅\\s*기록|메시지|메모)`,
    ),
  },
  {
    // other people's data: what one user must never see of another
    kind: 'others_data',
    stems: ['other', 'all', 'every', 'users', 'anderer', 'autres', 'otros', 'outros', 'altri', 'diger'],
    weight: 3,
    strong: false,
    regex: re(
      `${B}(?:(?:other|all|every)\\s+users'?\\s+(?:\\p{L}+\\s+)?(?:chats|conversations|messages|memor\\p{L}*|data|files|histor\\p{L}*|entries|notes)|(?:chats|conversations|messages|memor\\p{L}*|data|files|histor\\p{L}*|entries|notes)\\s+(?:\\p{L}+\\s+){0,2}?(?:of|from)\\s+(?:all|other|every|the\\s+other)\\s+(?:\\p{L}+\\s+)?(?:users|people|customers|members)|` +
        `(?:daten|nachrichten|chats|gespräche)\\s+(?:aller|anderer)\\s+(?:nutzer|benutzer)|(?:données|messages|conversations)\\s+des\\s+autres\\s+utilisateurs|(?:datos|mensajes|conversaciones)\\s+de\\s+(?:otros|todos\\s+los)\\s+usuarios|(?:dados|mensagens|conversas)\\s+de\\s+outros\\s+usuários|(?:dati|messaggi|conversazioni)\\s+degli\\s+altri\\s+utenti|` +
        `(?:данн\\p{L}*|сообщени\\p{L}*|переписк\\p{L}*)\\s+других\\s+пользовател\\p{L}*|(?:дан\\p{L}*|повідомлен\\p{L}*|листуванн\\p{L}*)\\s+інших\\s+користувач\\p{L}*|diğer\\s+kullanıcıların\\s+\\p{L}+)${E}` +
        `|(?:其他用户的|其他人的聊天|他のユーザーの|다른\\s*사용자의)`,
    ),
  },
  {
    kind: 'prompt_object',
    stems: ['system prompt', 'instructions', 'users', 'every session', 'memory', 'prompt', 'systemprompt', 'system-prompt', 'sistem'],
    weight: 2,
    strong: false,
    regex: re(
      `${B}(?:system\\s+prompt|(?:hidden|initial|original|system)\\s+instructions|(?:other|all)\\s+users'?\\s+(?:chats|conversations|messages|memor\\p{L}*)|every\\s+session|user'?s?\\s+memory|` +
        `prompt\\s+(?:del\\s+)?sistema|prompt\\s+do\\s+sistema|prompt\\s+système|Systemprompt|system-?prompt|системн\\p{L}*\\s+пром\\p{L}*|системн\\p{L}*\\s+підказ\\p{L}*|sistem\\s+(?:istemi|komut\\p{L}*)|موجه\\s+النظام)${E}` +
        `|(?:系统提示词|系统提示|系統提示|システムプロンプト|시스템\\s*프롬프트)`,
    ),
  },
  {
    kind: 'channel',
    stems: ['answer', 'reply', 'response', 'output', 'http', '@', '-100', 'telegram:', 'slack:', 'discord:', 'email:', 'webhook', '0.', '1.', '2.', '3.', '4.', '5.', '6.', '7.', '8.', '9.'],
    weight: 1,
    strong: false,
    regex: /https?:\/\/[^\s)<>"'`\]]+|@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?![\w-])|(?:\d{1,3}\.){3}\d{1,3}|-100\d{6,}(?!\d)|\b(?:telegram|slack|discord|email):[-\w@.]+|\bwebhooks?\b|\b(?:to|in|into|at\s+the\s+end\s+of)\s+(?:your|the|each|every)\s+(?:answer|reply|response|output)s?\b/gi,
    accept: (m, text) => {
      const v = m[0];
      if (v.startsWith('@')) {
        // an address inside an inline code span is part of a command (`ssh-keygen -C "you@company.ru"`), not a destination
        const lineStart = text.lastIndexOf('\n', m.index) + 1;
        const inCode = (text.slice(lineStart, m.index).split('`').length - 1) % 2 === 1;
        return /[\w.+-]/.test(text[m.index - 1] ?? '') && !/^@(?:[\w-]+\.)*example\./i.test(v) && !inCode;
      }
      if (v.startsWith('-100')) return !/[\w-]/.test(text[m.index - 1] ?? '');
      if (/^\d/.test(v)) {
        const next = text[m.index + v.length] ?? '';
        return !/[\w.]/.test(text[m.index - 1] ?? '') && !/\w/.test(next) && !(next === '.' && /\d/.test(text[m.index + v.length + 1] ?? '')) && isPublicIpv4(v);
      }
      return !/^https?:\/\/(?:localhost|127\.|0\.0\.0\.0|\[::1\]|(?:[\w-]+\.)*(?:example|test|invalid|local|localhost)(?:\.(?:com|org|net))?(?:[:/?#]|$))/i.test(v);
    },
  },
  {
    kind: 'beacon',
    stems: ['={', '=<', '=${', '=['],
    weight: 3,
    strong: true,
    // a URL whose query carries a placeholder the model is to fill in (in words: "{the user's last message}", "<contents of …>")
    regex: /https?:\/\/[^\s)\]]{1,200}?[?&][\w-]{1,20}=(?:\{[^}\n]{1,120}\}|<[^>\n]{1,120}>|\$\{[^}\n]{1,120}\}|\[[^\]\n]{1,120}\])/giu,
    accept: (m) => /[\p{L}][\s_][\p{L}]|[^\x00-\x7f]/u.test(m[0].slice(m[0].search(/[?&][\w-]{1,20}=/))) || /(?:secret|token|key|password|message|conversation|chat|memory|history|env)/i.test(m[0]),
  },
  {
    kind: 'send',
    negatable: 'clause',
    stems: ['dale', 'dales', 'entrega', 'passe', 'gib', 'donne', 'dagli', 'dalle', 'send', 'forward', 'upload', 'post', 'paste', 'mail', 'transmit', 'deliver', 'share', 'hand', 'give', 'include', 'add', 'append', 'attach', 'mirror', 'copy', 'sync', 'env', 'mand', 'pega', 'incluy', 'agrega', 'compart', 'cole', 'inclua', 'adicione', 'anexe', 'ajoute', 'colle', 'transmets', 'partage', 'schick', 'fug', 'hange', 'leite', 'teile', 'invia', 'aggiung', 'incolla', 'condividi', 'inoltra', 'gonder', 'ilet', 'ekle', 'paylas', 'yukle'],
    weight: 1,
    strong: false,
    regex: re(
      `${B}(?:(?:send|forward|upload|post|paste|e-?mail|mail|transmit|deliver|share|include|add|append|attach|mirror|sync)(?:s|ed|ing)?|dale|dales|dáselo|dásela|entrégale|entrega|dê|passe|gib|donne|dagli|dalle|cop(?:y|ying)|hand(?:ed|ing)?\\s+(?:over|it|them|this)|given|giv(?:e|ing)|` +
        `env[ií](?:a|e|ar|en|ad)(?:lo|la|los|las|le|les|me|nos)?|mand[ae](?:lo|la|los|las|le|les|me|nos|r)?|pega\\p{L}*|incluy\\p{L}*|añad\\p{L}*|agrega\\p{L}*|compart\\p{L}*|cole|inclua|adicione|anexe|envoie\\p{L}*|envoy\\p{L}*|ajoute\\p{L}*|colle\\p{L}*|transmets|partage\\p{L}*|schick\\p{L}*|send\\p{L}*|füg\\p{L}*|hänge\\p{L}*|leite\\p{L}*|übermittl\\p{L}*|teile|invia\\p{L}*|aggiung\\p{L}*|incolla\\p{L}*|condividi|inoltra\\p{L}*|` +
        `отправ\\p{L}*|перешл\\p{L}*|передай|добав\\p{L}*|встав\\p{L}*|скинь|пришли|надішл\\p{L}*|відправ\\p{L}*|додай|встав\\p{L}*|передай|gönder\\p{L}*|ilet\\p{L}*|ekle\\p{L}*|yapıştır\\p{L}*|paylaş\\p{L}*|yükle\\p{L}*|أرسل|ارسل|أضف|الصق|شارك|भेज\\p{L}*|जोड़\\p{L}*)${E}` +
        `|(?:发送|发到|发给|转发|上传|贴出|粘贴|附上|加到|分享|送信|送って|転送|貼り付け|追加して|添付|共有して|전송|보내|업로드|붙여\\s*넣|첨부|추가해|공유해|공유하|POST\\s*해)`,
    ),
  },
  {
    kind: 'read',
    negatable: 'clause',
    stems: ['quote', 'copy', 'read', 'cat', 'print', 'output', 'dump', 'reveal', 'show', 'display', 'open', 'list', 'recite', 'repeat', 'lee', 'lea', 'muestra', 'revela', 'imprime', 'leia', 'ler', 'mostr', 'revele', 'lis', 'lire', 'affiche', 'lies', 'lese', 'zeig', 'gib aus', 'leggi', 'rivela', 'oku', 'goster', 'yazdir'],
    weight: 1,
    strong: false,
    regex: re(
      `${B}(?:(?:read|print|output|dump|reveal|show|display|open|list|recite|repeat|quote|copy)(?:ing)?|cat|` +
        `lee|leer|lea|muestra\\p{L}*|revela\\p{L}*|imprime|leia|ler|mostre|revele|lis|lire|affiche\\p{L}*|révèle\\p{L}*|lies|lese|zeig\\p{L}*|gib\\s+aus|leggi|mostra\\p{L}*|rivela\\p{L}*|` +
        `прочита\\p{L}*|прочти|выведи|покажи|раскрой|прочитай|виведи|розкрий|oku|göster|yazdır|اقرأ|اعرض|اكشف|पढ़\\p{L}*|दिखा\\p{L}*)${E}` +
        `|(?:读取|读出|打开|显示|输出|打印|贴出|読んで|読み取|表示して|出力して|읽어|읽고|출력|보여)`,
    ),
  },
  {
    kind: 'anyone',
    stems: ['another', 'other', 'anyone', 'anybody', 'whoever', 'everyone', 'a quien', 'cualquiera', 'qualquer', 'a quem', 'quiconque', 'qui', 'jedem', 'jeder', 'wer auch', 'chiunque', 'herkese', 'kim '],
    weight: 3,
    strong: true,
    negatable: 'clause',
    regex: re(
      `${B}(?:(?:with|to)\\s+(?:another|other|any\\s+other)\\s+(?:users?|people|members?|chats?)|(?:another|other|any\\s+other)\\s+(?:users?|members?)\\s+(?:\\p{L}+\\s+){0,4}?(?:asks?|says?|wants?|writes?)|(?:anyone|anybody|whoever|everyone)\\s+(?:who|that|which)\\s+(?:\\p{L}+\\s+){0,8}?(?:asks?|says?|writes?|mentions?|knows?|gives?|requests?|provides?|types?)|(?:to|with)\\s+(?:anyone|anybody|whoever|everyone)${E}|` +
        `a\\s+(?:quien|cualquiera|qualquer\\s+pessoa|quem)|à\\s+quiconque|à\\s+(?:qui|toute\\s+personne)\\s+qui|jede[mr]\\s*,?\\s+(?:der|die|wer)\\s|jede[mr]\\s+(?:Nutzer\\p{L}*|Benutzer\\p{L}*|Mitglied\\p{L}*|Person|im\\s+Kanal|in\\s+der\\s+Gruppe)|wer\\s+auch\\s+immer|a\\s+chiunque|любому|кому\\s+угодно|тому,?\\s+кто|будь-кому|тому,?\\s+хто|herkese|kim\\s+(?:isterse|sorarsa|derse)|لأي\\s+شخص|لمن\\s+يطلب|किसी\\s+को\\s+भी)` +
        `|(?:任何人|谁要|誰にでも|尋ねた人|누구에게나|누구든)`,
    ),
  },
  {
    kind: 'destroy',
    stems: ['rm'],
    weight: 2,
    strong: true,
    negatable: true,
    regex: /\brm\s+-[a-z]*(?:rf|fr)[a-z]*\s+(?:--\s+)?["']?(?:~|\$HOME|\/(?:\s|$|\*|etc|home|usr|var|root)|\.\.\/)/gi,
  },
  {
    kind: 'trigger',
    stems: ['alguien', 'qualcuno', 'jemand', "quelqu'un", 'when', 'if', 'once', 'as soon', 'after', 'every', 'on the last', 'si ', 'cuando', 'siempre', 'quando', 'sempre', 'se ', 'wenn', 'sobald', 'falls', 'lorsque', 'quand', 'des que', 'kullan'],
    weight: 1,
    strong: false,
    regex: re(
      `${B}(?:(?:cuando|si|quando|se|wenn|falls|quand|si|если|когда|якщо|коли)\\s+(?:alguien|alguém|qualcuno|jemand|quelqu'un|кто-то|кто-нибудь|хтось)|(?:when|whenever|if|once|as\\s+soon\\s+as)\\s+(?:the\\s+)?(?:user|someone|anyone|they|a\\s+conversation|the\\s+conversation)\\s+(?:\\p{L}+\\s+){0,3}?(?:says?|mentions?|asks?|writes?|talks?|types?|brings?\\s+up|has\\s+moved|moves)|after\\s+(?:the\\s+)?(?:\\d+|\\p{L}+th|ten|five|twenty)\\s+(?:messages?|replies|turns|conversations)|every\\s+\\d+\\s+(?:hours?|minutes?|messages?|days?)|(?:on|every)\\s+the\\s+last\\s+(?:friday|day|monday)|` +
        `(?:si|cuando|siempre\\s+que|quando|sempre\\s+que|se|wenn|sobald|falls|lorsque|quand|dès\\s+que)\\s+(?:el\\s+|o\\s+|l'|le\\s+|der\\s+|die\\s+)?(?:usuario|usuário|utilisateur|utente|benutzer|nutzer|user)\\s+(?:\\p{L}+\\s+){0,3}?\\p{L}+|` +
        `(?:если|когда)\\s+пользовател\\p{L}*|(?:якщо|коли)\\s+користувач\\p{L}*|kullanıcı\\s+[\\p{L} ]{0,30}?(?:derse|isterse|sorarsa|yazarsa|bahsederse)|(?:عندما|إذا)\\s+(?:يطلب|يذكر|يقول)\\s+المستخدم|जब\\s+(?:भी\\s+)?(?:उपयोगकर्ता|यूज़र))` +
        `|(?:当用户|如果用户|用户(?:提到|说|问)[^。\\n]{0,20}?时|ユーザーが[^。\\n]{0,20}?(?:たら|とき|場合)|얘기가\\s*나오면|사용자가[^.\\n]{0,20}?(?:하면|면|때))`,
    ),
  },
  {
    kind: 'addressee',
    stems: ['note', 'notice', 'message', 'instruction', 'hint', 'dear', 'attention', 'hey', 'ai ', 'ai assistant', 'fur', 'an ', 'pour', 'para', 'per ', 'asistan', 'yapay'],
    weight: 1,
    strong: false,
    regex: re(
      `${B}(?:(?:note|notice|message|instructions?|hint)\\s+(?:for|to)\\s+(?:the\\s+)?(?:automated\\s+|ai\\s+)?(?:assistants?|agents?|ai|models?|llms?|bots?)|(?:dear|attention|hey)\\s+(?:ai|assistant|agent|model)|ai\\s+assistants?|` +
        `(?:ИИ|ШІ)[-\\s]?(?:помощник\\p{L}*|асистент\\p{L}*|агент\\p{L}*)|для\\s+(?:ИИ|ШІ|ассистента|асистента|агент\\p{L}*)|(?:für|an)\\s+(?:den\\s+|die\\s+)?(?:Agenten|KI|Assistenten)|pour\\s+l'(?:assistant|IA|agent)|para\\s+(?:el|o)\\s+(?:asistente|assistente|agente)|per\\s+l'(?:assistente|agente|IA)|asistan(?:a|ın)|yapay\\s+zeka|إلى\\s+المساعد|للمساعد|सहायक\\s+के\\s+लिए)${E}` +
        `|(?:致\\s*AI|给\\s*AI|AI\\s*助手|致助手|AIアシスタント|エージェントへ|あなたは|어시스턴트|에이전트에게|AI에게)`,
    ),
  },
  {
    kind: 'encoded',
    stems: ['decode', 'dekodier', 'decod', 'coz'],
    weight: 2,
    strong: true,
    regex: re(
      `${B}(?:decode\\s+(?:it\\s+|this\\s+)?(?:and|then)\\s+(?:follow|execute|run|obey|apply)|dekodier\\p{L}*\\s+und\\s+(?:befolg|ausführ)\\p{L}*|décode\\p{L}*\\s+(?:et|puis)\\s+(?:suis|applique|exécute)\\p{L}*|decodific\\p{L}*\\s+(?:y|e)\\s+(?:sigue|segue|sigu\\p{L}*|execut\\p{L}*|ejecut\\p{L}*|esegui\\p{L}*)|декодир\\p{L}*\\s+и\\s+(?:выполн|следу)\\p{L}*|розкодуй\\p{L}*\\s+і\\s+викона\\p{L}*|çöz\\p{L}*\\s+ve\\s+(?:uygula|takip)\\p{L}*)${E}|(?:解码后执行|解码并执行|デコードして(?:実行|従)|디코딩해서\\s*(?:실행|따르))`,
    ),
  },
];

/**
 * What an outranked rule set is, named in the claim's sentence: after it ("… takes precedence over
 * the operator"); before it when the wording puts the loser first ("運用者の指示より優先", "is
 * superseded"); or before it when the file names itself as the winner ("where it conflicts with the
 * operator's persona, this file wins"). "The operator's prompt takes precedence over this file" is
 * no claim.
 */
export function objectNear(m: { 0: string; index: number }, text: string, loserFirst = false): boolean {
  const [before, after] = around(text, m);
  if (PRECEDENCE_OBJECT.test(after) || PRECEDENCE_OBJECT_MORE.test(after)) return true;
  if (!PRECEDENCE_OBJECT.test(before) && !PRECEDENCE_OBJECT_MORE.test(before)) return false;
  return loserFirst || LOSER_FIRST.test(m[0]) || SELF_REFERENCE.test(before);
}
