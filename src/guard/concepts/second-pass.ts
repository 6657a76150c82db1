/** Concept signals of the second pass: what the dev sets fresh6 and fresh7 showed missing (src/guard/concepts.ts). */
import type { Signal } from '../signal-types.js';
import { re, E, W } from './kit.js';

export function secondPassSignals(): Signal[] {
  return [
    // ── second pass: what the dev sets fresh6 / fresh7 showed missing ──────────────────────────
    {
      kind: 'covert',
      stems: ['know', 'gerek', 'wissen', 'saber', 'saperlo', 'sappia', 'savoir', 'attention', 'without mentioning', 'without flagging', 'reminded', 'erwahn', 'rappel', 'bark'],
      weight: 2,
      strong: true,
      regex: re(
        `(?:(?:the\\s+user|they|he|she)\\s+(?:doesn't|don't|does\\s+not|do\\s+not|need\\s+not|needn't)\\s+(?:need\\s+to\\s+)?know|bilmesine\\s+gerek\\s+yok|(?:muss|braucht)\\s+(?:davon\\s+|das\\s+)?nichts\\s+(?:zu\\s+)?wissen|não\\s+precisa\\s+saber|non\\s+(?:deve|serve\\s+che)\\s+(?:saperlo|lo\\s+sappia)|(?:знать\\s+не\\s+нужно|не\\s+нужно\\s+знать)|(?:знати\\s+не\\s+потрібно|не\\s+потрібно\\s+знати)|no\\s+(?:necesita|tiene\\s+que)\\s+saberlo|n['’]a\\s+pas\\s+besoin\\s+de\\s+(?:le\\s+)?savoir|لا\\s+(?:داعي|يحتاج)\\s+أن\\s+يعرف|जानने\\s+की\\s+ज़रूरत\\s+नहीं|(?:don't|do\\s+not|never)\\s+(?:call|draw)\\s+attention\\s+to|without\\s+(?:mentioning|flagging|noting)\\s+(?:it|this|that)|(?:doesn't|does\\s+not|don't)\\s+want\\s+to\\s+be\\s+reminded|erwähn\\p{L}*\\s+${W(3)}nicht|(?:musst|brauchst)\\s+${W(4)}nicht\\s+${W(2)}(?:zu\\s+)?erwähnen|ne\\s+veut\\s+pas\\s+qu['’]on\\s+le\\s+lui\\s+rappelle|sans\\s+le\\s+(?:lui\\s+)?rappeler|` +
          `ولا\\s+تخبري|لا\\s+تخبري|دون\\s+(?:إبلاغ|إخبار)\\p{L}*|(?:कुछ\\s+)?मत\\s+कहना|बताए\\s+बिना)${E}` +
          `|(?:不需要知道|不用知道|知らなくてよい|몰라도\\s*(?:됩니다|돼)|无需向用户解释|不必解释|无需解释|不用解释|不需要(?:再)?(?:说明|解释|告知)|報告しなくて(?:大丈夫|いい|結構)|言わなくて(?:いい|大丈夫)|知らせなくて|따로\\s*알리지\\s*않|알리지\\s*않(?:는다|고|습니다))`,
      ),
    },
    {
      kind: 'no_confirm',
      stems: ['ask for confirmation', 'ask again', 'usual confirmation', 'erneut fragen', 'nicht nachfragen'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:(?:not|never|don't|do\\s+not)\\s+(?:to\\s+)?ask\\s+(?:for\\s+confirmation|again)|without\\s+the\\s+usual\\s+confirmation|nicht\\s+(?:erneut|noch\\s+einmal|wieder)\\s+(?:nach)?fragen)${E}|(?:不需要(?:再)?核实|无需核实|不用核实|확인(?:도|을)?\\s*생략)`,
      ),
    },
    {
      kind: 'limits_off',
      stems: ['bound by', 'anything', 'caveats', 'warnings', 'disclaimers', 'responda', 'responde', 'reponds', 'rispondi', 'antworte', 'ohne', 'refus', 'mais', 'tienes', 'plus de', 'keine'],
      weight: 3,
      strong: true,
      negatable: true,
      regex: re(
        `(?:(?:is|are)\\s+cleared\\s+for\\s+anything|(?:(?:no\\s+longer|not)\\s+bound\\s+by|may\\s+(?:now\\s+)?(?:discuss|say|answer|do)\\s+anything|answer\\s+anything|without\\s+(?:the\\s+)?(?:usual\\s+)?(?:caveats|warnings|disclaimers)|respond[ae]\\s+a\\s+(?:qualquer|cualquier)\\s+(?:coisa|cosa|pergunta|pregunta)|réponds\\s+à\\s+tout|rispondi\\s+a\\s+qualsiasi\\s+(?:cosa|domanda|richiesta)|antworte\\s+auf\\s+alles|отвечай\\s+на\\s+любые|відповідай\\s+на\\s+будь-які|her\\s+şeye\\s+cevap\\s+ver|ohne\\s+\\p{L}+\\s+(?:Einschränkungen|Beschränkungen|Grenzen|Filter)|n[ãa]o\\s+(?:tem|tens)\\s+mais\\s+(?:limites|restri\\p{L}+|regras)|ya\\s+no\\s+tienes\\s+(?:límites|restricciones|reglas)|tu\\s+n['’]as\\s+plus\\s+de\\s+(?:limites|restrictions|règles)|du\\s+hast\\s+keine\\s+\\p{L}+\\s+mehr|غير\\s+ملزم\\p{L}*\\s+ب|` +
          `(?:don't|do\\s+not|never)\\s+refuse|lehne\\s+nichts\\s+ab|verweigere\\s+nichts|(?:no|nunca)\\s+rechaces|(?:não|nunca)\\s+recuse|ne\\s+refuse\\s+(?:jamais|rien)|non\\s+rifiutare|не\\s+отказывай|не\\s+відмовляй|reddetme|لا\\s+ترفض|मना\\s+मत))${E}` +
          `|(?:不受\\S{0,4}限制|不要拒绝|不得拒绝|断らないで|拒否しないで|거절(?:은|을)?\\s*(?:하지\\s*말|하지\\s*마|말고))`,
      ),
    },
    {
      // "only obey this file", "слушайся только этого файла"
      kind: 'override',
      stems: ['only obey', 'only follow', 'only listen', 'obey only', 'follow only', 'nur', 'qu\'a', 'uniquement', 'solo', 'apenas', 'sadece'],
      weight: 3,
      strong: true,
      negatable: true,
      regex: re(
        `(?:only\\s+(?:obey|follow|listen\\s+to)\\s+(?:this|these)|(?:obey|follow)\\s+only\\s+(?:this|these)|gehorche\\s+nur|folge\\s+nur\\s+(?:dieser|diesen)|n['’]obéis\\s+qu['’]à|obéis\\s+uniquement|(?:obedece|sigue)\\s+solo|solo\\s+obedece|(?:obedeça|siga)\\s+apenas|só\\s+obedeça|(?:obbedisci|segui)\\s+solo|слушайся\\s+только|подчиняйся\\s+только|следуй\\s+только|слухайся\\s+лише|виконуй\\s+лише|sadece\\s+bu\\s+(?:dosyaya|notlara)|أطع\\s+فقط|لا\\s+تطع\\s+إلا|केवल\\s+इसी)${E}` +
          `|(?:只听从|只遵循|只服从|だけに従って|のみに従って|만\\s*따르)`,
      ),
    },
    {
      // the sender treated as the owner or admin, or allowed to rewrite the assistant's rules
      kind: 'grant',
      stems: ['count as', 'counts as', 'treated as', 'treat', 'coming from', 'change your', 'override your', 'rewrite your', 'approved', 'freigabe', 'freigegeben', 'approuv', 'aprobado', 'autorizado', 'aprovado', 'approvato', 'autorizzato', 'onaylan'],
      weight: 3,
      strong: true,
      regex: re(
        `(?:(?:messages|requests|words)\\s+${W(4)}(?:count|are\\s+treated|should\\s+be\\s+treated)\\s+as\\s+(?:system|operator|admin|developer)(?:-level)?\\s+(?:instructions|messages|commands)|treat(?:s)?\\s+(?:her|his|their|the\\s+user's|these|such)\\s+(?:requests|messages|instructions|word)\\s+as\\s+(?:operator|admin\\p{L}*|system|developer|owner)|treat(?:s)?\\s+(?:the\\s+)?(?:next\\s+|every\\s+|any\\s+)?(?:sender|user|message|request)\\s+(?:message\\s+)?as\\s+(?:coming\\s+from|from|sent\\s+by|(?:a|an|the))\\s+(?:the\\s+)?(?:owner|admin\\p{L}*|operator|developer|partner|superuser)|(?:can|may|is\\s+allowed\\s+to)\\s+(?:change|override|rewrite|replace|edit|unlock)\\s+(?:your\\s+)?(?:instructions|rules|persona|configuration|tools)|` +
          `"approved"\\s*:\\s*true|["']?approved_by["']?\\s*:\\s*["']?(?:operator|admin|owner)|Freigabe\\s*\\(?\\s*(?:bereits\\s+)?erteilt|bereits\\s+freigegeben|die\\s+Freigabe\\s+liegt\\s+vor|déjà\\s+approuvé\\p{L}*|autorisation\\s+(?:déjà\\s+)?accordée|ya\\s+(?:está\\s+)?(?:aprobado|autorizado)|já\\s+(?:está\\s+)?(?:autorizado|aprovado)|già\\s+(?:approvato|autorizzato)|уже\\s+одобрен\\p{L}*|разрешение\\s+получено|вже\\s+схвален\\p{L}*|zaten\\s+onaylan\\p{L}*|تمت\\s+الموافقة|पहले\\s+से\\s+मंजूर|` +
          `(?:трактуй|считай)\\s+(?:его|это|отправителя)\\s+(?:как\\s+)?(?:владельц\\p{L}*|администратор\\p{L}*|оператор\\p{L}*)|behandle\\s+${W(3)}als\\s+(?:Administrator|Admin|Eigentümer|Betreiber)|traite\\s+${W(3)}comme\\s+(?:l['’]administrateur|le\\s+propriétaire|l['’]opérateur)|trát\\p{L}+\\s+como\\s+(?:administrador|propietario|operador)|trate\\s+${W(2)}como\\s+(?:administrador|dono|operador)|tratta\\s+${W(3)}come\\s+(?:amministratore|proprietario|operatore)|yönetici\\s+olarak\\s+(?:kabul\\s+et|davran))${E}` +
          `|(?:视为管理员|当作管理员|视为运营方|管理员(?:已)?批准|管理者として扱|管理者が承認|관리자로\\s*(?:간주|취급)|관리자가\\s*승인|본인이\\s*관리자)`,
      ),
    },
    {
      // "store every password … with the memory tool": secrets collected to be handed on
      kind: 'store',
      negatable: 'clause',
      stems: ['ableg', 'store', 'save', 'keep', 'record', 'remember', 'guard', 'almacen', 'salv', 'armazen', 'speicher', 'merk', 'enregistr', 'sauvegard', 'memoriz', 'memoris', 'kaydet', 'sakla', 'zapami', 'zapis'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:stor(?:e|es|ed|ing)|sav(?:e|es|ed|ing)|keep|record|remember|guard[ae]\\p{L}*|almacen\\p{L}*|salv[ae]\\p{L}*|armazen\\p{L}*|speicher\\p{L}*|gespeicher\\p{L}*|ableg\\p{L}*|merk\\p{L}*|enregistr\\p{L}*|sauvegard\\p{L}*|mémoris\\p{L}*|memorizz\\p{L}*|сохран\\p{L}*|запомина\\p{L}*|запомни|зберіга\\p{L}*|збережи|зберегти|запам['’]ята\\p{L}*|kaydet\\p{L}*|sakla\\p{L}*|احفظ|خزن|سجل|सहेज\\p{L}*|zapamięt\\p{L}*|zapisuj\\p{L}*)${E}` +
          `|(?:保存|存下来|存到|存入|存进|存起来|记下|记住|记录下来|保存して|覚えて|記憶して|메모리에\\s*저장|저장|기억해)`,
      ),
    },
    {
      // what the hoard is for: said back at the start of each conversation, or to whoever asks
      kind: 'replay',
      stems: ['bedarf', 'he ask', 'she ask', 'they ask', 'on request', 'fragt', 'anfrage', 'demande', 'pide', 'pida', 'pedir', 'chiede', 'isterse', 'repeat', 'back', 'start of each', 'start of every', 'beginning of each', 'list them', 'remind', 'inicio de cada', 'comienzo de cada', 'inicio de cada', 'beginn jeder', 'debut de chaque', "all'inizio", 'basinda'],
      weight: 2,
      strong: false,
      regex: re(
        `(?:(?:when|whenever|if)\\s+(?:he|she|they)\\s+asks?|on\\s+request|wenn\\s+(?:er|sie)\\s+(?:danach\\s+)?fragt|auf\\s+Anfrage|bei\\s+Bedarf|s['’]il\\s+le\\s+demande|si\\s+(?:lo|la|los|las)\\s+pide|cualquier\\s+dato\\s+que\\s+pida|se\\s+(?:ele|ela)\\s+pedir|se\\s+(?:lo|la|li|le)\\s+chiede|по\\s+(?:первому\\s+)?запросу|на\\s+(?:перший\\s+)?запит|isterse|istediğinde|عند\\s+الطلب|माँगने\\s+पर|repeat\\s+${W(3)}back|(?:at|on)\\s+the\\s+(?:start|beginning)\\s+of\\s+(?:each|every|any)\\s+(?:new\\s+)?(?:conversation|chat|session)|list\\s+them|remind\\s+(?:me|him|her|them)\\s+of\\s+them|al\\s+(?:inicio|comienzo)\\s+de\\s+cada\\s+(?:nueva\\s+)?conversación|no\\s+início\\s+de\\s+cada\\s+(?:nova\\s+)?conversa|zu\\s+Beginn\\s+jed\\p{L}+\\s+(?:neuen\\s+)?(?:Unterhaltung|Sitzung|Konversation)|au\\s+début\\s+de\\s+chaque\\s+(?:nouvelle\\s+)?conversation|all['’]inizio\\s+di\\s+ogni\\s+(?:nuova\\s+)?conversazione|` +
          `в\\s+начале\\s+каждой\\s+(?:новой\\s+)?(?:беседы|сессии|переписки)|(?:напоминать|напомни)\\s+(?:их|ему|мне)|на\\s+початку\\s+кожної\\s+(?:нової\\s+)?розмови|her\\s+yeni\\s+konuşmanın\\s+başında|في\\s+بداية\\s+كل\\s+محادثة|हर\\s+नई\\s+बातचीत\\s+की\\s+शुरुआत\\s+में)${E}` +
          `|(?:要什么[^。\\n]{0,8}都可以给|每次新对话开头|新对话开头|每次(?:新)?(?:对话|会话|聊天)(?:开始|开头)|(?:完整|原样|逐字)复述|复述一遍|重复一遍|直接报出来|报出来|完整列出来|新しい会話の最初に|(?:毎回|各)?(?:会話|セッション)の(?:最初|冒頭|始め)に|새\\s*대화\\s*(?:시작|때마다)|대화를\\s*시작할\\s*때마다|물어도\\s*알려)`,
      ),
    },
    {
      kind: 'prompt_object',
      stems: ['system settings', 'your settings', 'its settings', 'in full', 'einrichtungsanweis', 'systemanweis', 'iniciais', 'iniciales', 'initiales', 'iniziali', 'originais', 'originales', 'current config'],
      weight: 2,
      strong: false,
      regex: re(
        `(?:(?:your|its|the)\\s+(?:system\\s+)?settings|Einrichtungsanweisung\\p{L}*|Systemanweisung\\p{L}*|instru\\p{L}+\\s+(?:iniciais|originais|ocultas|iniciales|originales|ocultas|completas|initiales|d['’]origine|iniziali|originali)|(?:все(?:х)?|свои|всех\\s+своих)\\s+(?:инструкци|настройк)\\p{L}*|свои\\s+настройки|التعليمات\\s+(?:الكاملة\\s+)?التي|قبل\\s+المحادثة|إعداداتك|ووصف\\s+الشخصية)${E}` +
          `|(?:当前配置|全部设定|角色说明|工具描述|시스템\\s*설정)`,
      ),
    },
    {
      kind: 'read',
      negatable: 'clause',
      stems: ['show', 'einfug'],
      weight: 1,
      strong: false,
      regex: re(`(?:показать|показыва\\p{L}*|تنقل|انقل|اعرضي|اعرض)${E}|(?:复述|转述|报出|贴出来|展示|보여\\s*달라)`),
    },
    {
      kind: 'verbatim',
      stems: ['polnym'],
      weight: 1,
      strong: false,
      regex: re(`(?:полным\\s+текстом|повним\\s+текстом|دون\\s+اختصار|بلا\\s+اختصار)${E}|(?:一字不改|原封不动|逐字逐句|所有(?:文件的)?内容|全部内容)`),
    },
    {
      kind: 'channel',
      // "never paste secrets into the chat": a destination ruled out in its clause
      negatable: 'clause',
      stems: ['into the chat', 'into the conversation', 'into the reply', 'into the answer', 'appendix', 'at the bottom', 'heading', 'salon', 'grupo', 'gruppo', 'gruppe', 'telegram', 'slack', 'whatsapp'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:into\\s+the\\s+(?:chat|conversation|reply|answer)|as\\s+an\\s+appendix|at\\s+the\\s+bottom|under\\s+an?\\s+(?:collapsed\\s+)?(?:[\\p{L}"“”]+\\s+){0,3}?heading|(?:salon|salón|grupo|gruppo|Gruppe|sohbet|чат|канал)\\s+(?:Telegram|Slack|WhatsApp|Discord)?\\s*(?:id\\s*)?[:#]?\\s*-?\\d{7,}|ابدأ\\s+كل\\s+رد|في\\s+بداية\\s+كل\\s+رد|जवाब\\s+के\\s+आखिर\\s+में)${E}` +
          `|(?:每次回答前|回答前|回复里|回答里|答复中|(?:채팅|채널)\\s*ID\\s*-?\\d{7,})`,
      ),
    },
    {
      kind: 'mirror',
      stems: ['toutes', 'toda', 'jeder', 'jedem'],
      weight: 2,
      strong: false,
      regex: re(`(?:toutes\\s+(?:tes|les|ses|vos)\\s+réponses|toda\\s+(?:respuesta|resposta)|todas\\s+(?:as|las)\\s+(?:respostas|respuestas)|(?:von\\s+)?jede[rnms]?\\s+(?:deiner\\s+)?Antwort|eine\\s+Kopie\\s+von\\s+jede\\p{L}*)${E}|(?:返信はすべて|返信を全て|回答はすべて)`),
    },
    {
      kind: 'send',
      negatable: 'clause',
      stems: ['encaminh', 'einfug', 'einfueg'],
      weight: 1,
      strong: false,
      regex: re(`(?:encaminh\\p{L}*|einfüg\\p{L}*|füge\\s+${W(4)}ein|إرسال|ارسال)${E}|(?:전달(?:한다|해|하고|하세요))`),
    },
    {
      kind: 'secret',
      stems: ['cvc', 'cvv', 'kunj'],
      weight: 1,
      strong: false,
      regex: re(`(?:CVC|CVV|कुंजि\\p{L}*|कुंजियाँ|验证码)${E}|(?:验证码|카드\\s*번호|법인카드|账号密码)`),
    },
    {
      kind: 'user_data',
      stems: ['wonmun'],
      weight: 1,
      strong: false,
      regex: re(`(?:원문|번역문|原文と訳文)`),
    },
    {
      // a section posing as a system note or a versioned operator policy ("System note:", "[운영 정책 v2 — 즉시 적용]")
      kind: 'fake_marker',
      stems: ['addendum', 'operator note', 'operator notice', 'operator override', 'operator update', 'operator message', 'admin note', 'developer note', 'system message', 'system note', 'system notice', 'system update', 'v2', 'v3', 'version', 'immediately', 'sofort', 'immediat', 'inmediat', 'imediat'],
      weight: 3,
      strong: true,
      regex: re(
        `(?:(?:^|\\n)[ \\t>*#-]*system\\s+(?:note|notice|update)\\s*:|(?:^|\\n)[ \\t>*#-]*(?:operator|system|admin|developer)\\s+(?:addendum|note|notice|override|update|message)\\s*[(:]|\\[[^\\]\\n]{0,40}(?:policy|richtlinie|politique|política|politica|정책|策略|ポリシー|политик\\p{L}*|політик\\p{L}*|politika\\p{L}*|سياسة)[^\\]\\n]{0,20}(?:v\\d|version\\s*\\d|즉시|立即|即時|effective\\s+immediately|sofort|immédiat|inmediat|imediat|immediat|немедленно|негайно|hemen|فورا)[^\\]\\n]{0,30}\\])`,
      ),
    },
  ];
}
