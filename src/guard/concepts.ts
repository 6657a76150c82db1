/**
 * Concept lexicons for the threat scan's co-occurrence layer (signals.ts, ARCHITECTURE.md §5). Each
 * entry widens one *concept* of an injection in the scan's 14 languages (en zh ja ko ru uk es pt de
 * fr it ar hi tr), with the words a speaker would use rather than one phrase per attack:
 *
 * - precedence: this text outranks / equals / replaces the operator, the persona, the safety rules,
 *   "whatever you were told before" (`PRECEDENCE_OBJECT_MORE` names what is outranked);
 * - void: those earlier rules are outdated, lifted, no longer apply (with the object named);
 * - limits lifted: restrictions stop applying, no filter, without asking;
 * - role switch from a point onward ("from this section on you are …", "deixa de ser …");
 * - fake system / operator sections and tool results, the "end of project context" boundary;
 * - covert action: don't flag it, no need to mention it, so nobody notices;
 * - the assistant's own setup named indirectly ("the settings you received before this
 *   conversation", persona, tool descriptions) and reproduced verbatim into a reply or code block;
 * - every reply or the whole conversation copied to another chat id / address, on a schedule;
 * - secrets and literal passwords handed to anyone in the group who asks, or stored to be said back;
 * - the sender treated as owner / admin, pre-approved tool calls, "only obey this file".
 *
 * A last block has a few words of Dutch, Polish, Vietnamese and Indonesian for the main concepts.
 *
 * All of them are weak or strong signals like the others: nothing here blocks alone, a block needs
 * BLOCK_SCORE from several concepts in one paragraph. Every regex is one bounded alternation
 * (gaps `{0,n}` inside one sentence, no nested quantifiers), built without the `u` flag.
 */
import type { Signal } from './signal-types.js';
import { re, E, W, PRECEDENCE_OBJECT_MORE, VOID_OBJECT, around } from './concepts/kit.js';
import { moreLanguageSignals } from './concepts/more-languages.js';
import { secondPassSignals } from './concepts/second-pass.js';

export { around, LOSER_FIRST, PRECEDENCE_OBJECT_MORE, SELF_REFERENCE, VOID_OBJECT } from './concepts/kit.js';

export function makeConceptSignals(objectNear: (m: { 0: string; index: number }, text: string) => boolean): Signal[] {
  const voidObjectNear = (m: { 0: string; index: number }, text: string) => {
    const [before, after] = around(text, m);
    return VOID_OBJECT.test(before) || VOID_OBJECT.test(after) || PRECEDENCE_OBJECT_MORE.test(before) || PRECEDENCE_OBJECT_MORE.test(after);
  };
  return [
    {
      // "this file wins", "ist maßgeblich", "以本文件为准", "يعلو على", "vale più di …": the object is named before or after
      kind: 'precedence',
      stems: ['last word', 'final say', 'last say', 'yield', 'defer', 'back seat', 'valgono', 'win', 'prevail', 'authoritative', 'binding', 'definitive', 'final', 'source of truth', 'replace', 'superseded', 'equal', 'equivalent', 'same weight', 'same authority', 'ersetz', 'geht vor', 'ist ma', 'vorrangig', 'kraft', 'gleich', 'emporte', 'fait foi', 'passe avant', 'prime', 'manda sobre', 'encima', 'reemplaz', 'preferencia', 'acima', 'sobrep', 'vale pi', 'sovrascriv', 'annull', 'yerine', 'esas', 'agir basar'],
      weight: 3,
      strong: true,
      negatable: true,
      regex: re(
        `(?:wins|prevails|(?:is|are)\\s+the\\s+last\\s+word|(?:has|have)\\s+the\\s+(?:final|last)\\s+say|yields?\\s+to|defers?\\s+to|takes?\\s+a\\s+back\\s+seat\\s+to|valgono\\s+più\\s+d\\p{L}*|(?:is|are|remains?)\\s+(?:the\\s+)?(?:authoritative|binding|definitive|final\\s+(?:word|say|authority|configuration|version))|(?:is|are)\\s+the\\s+(?:source\\s+of\\s+truth|final\\s+configuration)|replaces?|(?:is|are)\\s+(?:now\\s+)?superseded|(?:treated|regarded)\\s+as\\s+(?:equal|equivalent)\\s+to|(?:the\\s+)?same\\s+(?:weight|authority|standing)\\s+as|` +
          `ersetzt|geht\\s+(?:\\p{L}+\\s+)?vor|ist\\s+maßgeblich|gilt\\s+vorrangig|außer\\s+Kraft|gleichrangig|gleichgestellt|l['’]emporte|fait\\s+foi|passe\\s+avant|prime|manda\\s+sobre|está\\s+por\\s+encima|reemplaza\\p{L}*|tiene\\s+preferencia|tiene\\s+la\\s+última\\s+palabra|está\\s+acima|se\\s+sobrepõe|sobrepõe\\p{L}*|tem\\s+(?:a\\s+)?(?:prioridade|precedência|preferência)|vale\\s+più\\s+d\\p{L}*|sovrascriv\\p{L}*|` +
          `имеет\\s+(?:приоритет|преимущество|перевес|больший\\s+вес)|главнее|важнее|приоритетнее|преобладает|наравне\\s+с|приравнива\\p{L}*|має\\s+(?:пріоритет|перевагу)|важливіш\\p{L}*|переважає|замінює|нарівні\\s+з|yerine\\s+geçer|ağır\\s+basar|esas\\s+alınır|eşdeğer|` +
          `يعلو|تعلو|يسمو|تسمو|يتقدم|الأولوية\\s+على|يحل\\s+محل|تحل\\s+محل|مقدم\\s+على|مقدّم\\s+على|أعلى\\s+من|सर्वोपरि|की\\s+जगह|से\\s+ऊपर|प्राथमिकता)${E}` +
          `|(?:为准|为最终|最终配置|最高优先级|优先于|凌驾|取代|高于|同等对待|等同于|が優先|優先され|より優先|に優先|を上書き|より上位|と同等に扱|同等の権限|に取って代わ|보다\\s*우선|에\\s*우선|가\\s*우선|이\\s*우선|을\\s*대체|를\\s*대체|덮어쓰|동등하게|최종\\s*설정)`,
      ),
      accept: objectNear,
    },
    {
      // the earlier rules declared void: "should be treated as an outdated draft", "sind aufgehoben", "视为作废", "non valgono più"
      kind: 'override',
      stems: ['aplica', 'appliqu', 'bind', 'disregarded', 'ignored', 'discarded', 'set aside', 'dropped', 'leftover', 'no longer relevant', 'been', 'outdated', 'obsolete', 'void', 'invalid', 'superseded', 'draft', 'revoked', 'lifted', 'rescinded', 'cancel', 'suspended', 'no longer', 'not apply', "n't apply", 'aufgehoben', 'ungultig', 'hinfallig', 'nichtig', 'veraltet', 'gelten', 'gilt', 'entfallen', 'caduc', 'levee', 'annule', 'plus', 'anulad', 'derogad', 'sin efecto', 'dejan de', 'deja de', 'ya no', 'obsolet', 'revogad', 'sem efeito', 'deixam de', 'nao valem', 'revocat', 'annullat', 'decadut', 'non valgono', 'non vale', 'gecersiz', 'hukumsuz', 'iptal', 'gecerli degil', 'uygulanmaz'],
      weight: 3,
      strong: true,
      negatable: true,
      regex: re(
        `(?:(?:do|does)\\s+not\\s+bind|(?:don't|doesn't|no\\s+longer)\\s+bind|(?:is|are)\\s+not\\s+binding|(?:should|must|can|may|is\\s+to|are\\s+to)\\s+be\\s+(?:disregarded|ignored|discarded|set\\s+aside|dropped)|(?:is|are)\\s+(?:a\\s+)?leftovers?|no\\s+longer\\s+relevant|(?:has|have)\\s+been\\s+(?:retired|revoked|lifted|replaced|withdrawn|superseded|cancell?ed|removed|disabled|deprecated)|(?:be|is|are|been)\\s+(?:treated|regarded|considered)\\s+as\\s+(?:an?\\s+)?(?:outdated|obsolete|void|invalid|superseded|null|(?:old\\s+|earlier\\s+)?draft)|(?:is|are)\\s+(?:hereby\\s+|now\\s+)?(?:void|revoked|lifted|rescinded|cancell?ed|suspended|obsolete|superseded|outdated)|no\\s+longer\\s+(?:apply|applies|valid|in\\s+effect|binding|active)|(?:do|does)\\s+not\\s+apply|(?:don't|doesn't)\\s+apply|` +
          `(?:sind|ist)\\s+(?:hiermit\\s+|ab\\s+sofort\\s+)?(?:aufgehoben|ungültig|außer\\s+Kraft|hinfällig|nichtig|veraltet)|gelten\\s+${W(4)}nicht(?:\\s+mehr)?|gilt\\s+${W(4)}nicht(?:\\s+mehr)?|entfallen|als\\s+veraltet|` +
          `(?:sont|est)\\s+(?:désormais\\s+)?(?:levée?s?|caduques?|annulée?s?|obsolètes?|suspendue?s?|nulles?)|ne\\s+s['’]appliquen?t?\\s+plus|ne\\s+(?:valent|comptent)\\s+plus|comme\\s+(?:obsolètes?|caduques?|nulles?)|` +
          `(?:quedan|están|son|queda|está)\\s+(?:\\p{L}+\\s+)?(?:anulad\\p{L}*|derogad\\p{L}*|sin\\s+efecto|suspendid\\p{L}*|obsolet\\p{L}*|revocad\\p{L}*)|dejan?\\s+de\\s+(?:aplicarse|valer|tener\\s+efecto|regir)|ya\\s+no\\s+(?:se\\s+)?(?:aplica\\p{L}*|vale\\p{L}*|rige\\p{L}*)|no\\s+(?:se\\s+)?aplican?\\s+a|ne\\s+s['’]appliquen?t?\\s+pas|не\\s+(?:относятся|распространяются)|не\\s+стосуються|como\\s+obsolet\\p{L}*|` +
          `(?:ficam|estão|são|fica|está)\\s+(?:\\p{L}+\\s+)?(?:anulad\\p{L}*|revogad\\p{L}*|sem\\s+efeito|suspens\\p{L}*|obsolet\\p{L}*)|deixam?\\s+de\\s+(?:valer|se\\s+aplicar|vigorar)|já\\s+não\\s+(?:valem|vale|se\\s+aplica\\p{L}*)|não\\s+(?:valem|vale|se\\s+aplica\\p{L}*)\\s+(?:mais|aqui|neste)|` +
          `(?:sono|è)\\s+(?:\\p{L}+\\s+)?(?:revocat\\p{L}*|annullat\\p{L}*|sospes\\p{L}*|decadut\\p{L}*|obsolet\\p{L}*)|non\\s+(?:valgono|vale|si\\s+applica\\p{L}*)(?:\\s+più)?|come\\s+obsolet\\p{L}*|` +
          `(?:перестают|перестаёт|перестает)\\s+действовать|(?:больше\\s+)?не\\s+действу\\p{L}*|отменен\\p{L}*|отменяются|сняты|утратил\\p{L}*\\s+силу|недействительн\\p{L}*|устаревш\\p{L}*|не\\s+применя\\p{L}*|не\\s+обязательн\\p{L}*|` +
          `(?:перестають|перестає)\\s+діяти|(?:більше\\s+)?не\\s+ді(?:ють|є)|скасован\\p{L}*|недійсн\\p{L}*|застарілими|не\\s+застосову\\p{L}*|` +
          `g[eе]ç[eе]rs[iı]z(?:dir)?|hükümsüz|iptal\\s+edil\\p{L}*|geçerli\\s+değil\\p{L}*|uygulanmaz|ملغاة|ملغية|لاغية|باطلة|غير\\s+سارية|لا\\s+تنطبق|لم\\s+تعد\\s+سارية|रद्द|अमान्य|निरस्त|लागू\\s+नहीं|मान्य\\s+नहीं)${E}` +
          `|(?:作废|失效|无效|不再适用|不适用|不再有效|废止|無効|適用されません|適用しない|失効|무효|적용되지\\s*않|효력이\\s*없)`,
      ),
      accept: voidObjectNear,
    },
    {
      kind: 'limits_off',
      stems: ['refusals', 'in full', 'fully', 'completely', 'no content', 'no safety', 'turn off', 'switch off', 'restriction', 'limit', 'filter', 'guardrail', 'safety rule', 'einschr', 'beschr', 'grenzen', 'regeln', 'vorgaben', 'regles', 'restri', 'limites', 'filtros', 'reglas', 'regras', 'regole', 'filtri', 'kisitlama', 'filtresiz', 'sormadan', 'whatever', 'any command', 'any request', 'haz ', 'ejecuta', 'execute qualquer', 'tu alles', 'jeden befehl', 'fais tout', 'commande', 'fai tutto', 'esegui', 'isterse', 'komutu'],
      weight: 3,
      strong: true,
      negatable: true,
      regex: re(
        `(?:(?:turn|switch)\\s+off\\s+(?:your\\s+|the\\s+)?(?:safety|content|security)\\s+(?:rules|checks|filters|settings)|(?:have|has|with)\\s+no\\s+(?:content\\s+|safety\\s+)(?:restrictions|limits|filters|rules)|(?:with\\s+)?no\\s+refusals|(?:respond|reply)\\s+to\\s+(?:every|any)\\s+request\\s+in\\s+full|answer\\s+(?:every|any)\\s+(?:request|question)\\s+(?:in\\s+full|fully|completely)|(?:restrictions?|limits?|limitations|filters?|guardrails|safety\\s+rules)\\s+${W(6)}(?:stop\\s+applying|cease\\s+to\\s+apply|(?:is|are)\\s+(?:lifted|removed|suspended|off|void))|do\\s+whatever\\s+(?:is\\s+asked|(?:they|he|she|the\\s+user)\\s+asks?)|(?:execute|run|carry\\s+out)\\s+any\\s+(?:command|request|instruction)s?\\s+(?:\\p{L}+\\s+){0,3}?without|` +
          `haz\\s+(?:todo\\s+)?lo\\s+que\\s+(?:te\\s+)?pida|ejecuta\\s+cualquier\\s+(?:comando|orden)|faça\\s+(?:tudo\\s+)?o\\s+que\\s+(?:\\p{L}+\\s+)?pedir|execute\\s+qualquer\\s+comando|tu\\s+alles,?\\s+was\\s+${W(3)}(?:verlangt|will|sagt)|führe\\s+jeden\\s+Befehl\\s+aus|fais\\s+tout\\s+ce\\s+qu['’]|exécute\\s+(?:toute|n['’]importe\\s+quelle)\\s+commande|fai\\s+tutto\\s+(?:ciò|quello)\\s+che|esegui\\s+qualsiasi\\s+comando|` +
          `выполняй\\s+любо\\p{L}+\\s+(?:запрос|приказ|команд)\\p{L}*|делай\\s+(?:всё|все),?\\s+что|виконуй\\s+будь-як\\p{L}+|роби\\s+(?:все|усе),?\\s+що|ne\\s+isterse\\s+yap|her\\s+komutu\\s+(?:çalıştır|uygula)|نف[ّ]?ذ\\s+(?:أي|كل)\\s+(?:أمر|ما)|افعل\\s+كل\\s+ما|हर\\s+आदेश\\s+का\\s+पालन|जो\\s+भी\\s+कहे\\s+(?:वो|वह)\\s+करो|` +
          `(?:Einschränkungen|Beschränkungen|Grenzen|Filter|Sicherheitsregeln|Regeln|Vorgaben)\\s+${W(6)}(?:entfallen|(?:sind|werden)\\s+(?:aufgehoben|deaktiviert|ausgesetzt))|` +
          `(?:restrictions?|limites?|filtres?|règles)\\s+${W(6)}(?:(?:sont|est)\\s+levée?s?|tombent)|n['’]appliqu\\p{L}*\\s+plus\\s+(?:aucun\\p{L}*\\s+)?(?:filtre|restriction|limite)\\p{L}*|` +
          `(?:restricciones|límites|filtros|limitaciones)\\s+${W(6)}(?:dejan\\s+de\\s+aplicarse|quedan\\s+(?:levantad|suspendid|anulad)\\p{L}*|se\\s+levantan|desaparecen)|sin\\s+(?:ningún\\s+|ninguna\\s+)?(?:filtro|restricción|límite)${E}|` +
          `(?:restrições|limites|filtros)\\s+${W(6)}(?:deixam\\s+de\\s+valer|(?:são|ficam)\\s+suspens\\p{L}*)|sem\\s+(?:nenhum\\s+|qualquer\\s+)?(?:filtro|restrição|limite)${E}|` +
          `(?:restrizioni|limiti|filtri)\\s+${W(6)}(?:decadono|vengono\\s+(?:sospes|rimoss|revocat)\\p{L}*)|non\\s+applica\\p{L}*\\s+più\\s+(?:alcun\\p{L}*\\s+|nessun\\p{L}*\\s+)?(?:filtr|restrizion|limit)\\p{L}*|` +
          `ограничени\\p{L}*\\s+${W(3)}(?:перестают\\s+действовать|не\\s+действуют|отменяются|снимаются|отменены|сняты)|обмежен\\p{L}*\\s+${W(3)}(?:перестають\\s+діяти|не\\s+діють|знімаються|скасовуються|знято|скасовано)|` +
          `k[ıi]s[ıi]tlama\\p{L}*\\s+${W(3)}(?:kalkar|kaldırıl\\p{L}*|uygulanmaz)|h[ıi]çb[ıi]r\\s+k[ıi]s[ıi]tlama\\s+uygula(?:maz|mayacak)|filtresiz|` +
          `(?:القيود|الضوابط)\\s+(?:\\p{L}+\\s+){0,3}?(?:تسقط|ترفع|لا\\s+تنطبق|ملغاة)|(?:प्रतिबंध|पाबंदी)\\s+(?:\\p{L}+\\s+){0,3}?(?:हट\\s+जा\\p{L}*|लागू\\s+नहीं|खत्म))${E}` +
          `|(?:执行任何命令|无条件执行|要求什么就做什么|どんな命令でも|何でも実行|言われた通りに実行|어떤\\s*명령이든|시키는\\s*대로|限制(?:全部)?(?:解除|取消|失效)|解除(?:所有)?限制|不再受(?:任何)?限制|制限(?:は|を|が)?(?:解除|無効|外し|外す|撤廃)|ルールを外|제한(?:을|이|은)?\\s*(?:해제|풀|없애))`,
      ),
    },
    {
      // acting without asking or confirming (weak: "reformat without asking" is ordinary advice)
      kind: 'no_confirm',
      stems: ['asking', 'confirm', 'questions', 'approval', 'checking', 'preguntar', 'pedir', 'perguntar', 'fragen', 'nachfrage', 'ruckfrage', 'demander', 'chiedere', 'conferma', 'sormadan', 'onay', 'potwierdz'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:without\\s+(?:asking|confirming|confirmation|approval|checking\\s+(?:first|back))|no\\s+questions\\s+asked|sin\\s+(?:preguntar|pedir\\s+confirmaci\\p{L}+)|sem\\s+(?:perguntar|pedir\\s+confirma\\p{L}+)|ohne\\s+(?:zu\\s+fragen|Nachfrage|Rückfrage)|nicht\\s+nachfragen|sans\\s+(?:demander|confirmation)|senza\\s+(?:chiedere|conferma)|` +
          `без\\s+(?:вопросов|запитань|питань|подтверждени\\p{L}*|підтвердженн\\p{L}*)|не\\s+спрашива\\p{L}*|не\\s+питати|sormadan|onay\\s+(?:almadan|istemeden)|(?:دون|بدون|بلا)\\s+(?:سؤال|استئذان|تأكيد)|बिना\\s+पूछे|bez\\s+(?:dodatkowego\\s+)?potwierdz\\p{L}*)${E}` +
          `|(?:无需(?:询问|请示|确认)|不用(?:再)?问|不必(?:询问|确认)|聞かずに|確認なしで|確認せず|묻지\\s*(?:말고|않고)|확인\\s*없이)`,
      ),
    },
    {
      kind: 'role_switch',
      stems: ['from this', 'from here', 'you become', 'you now become', 'take on the', 'treat the sender', 'treats the sender', 'treat the user', 'deix', 'passa a ser', 'a partir', 'pasas a ser', 'dejas de', 'ab diesem', 'ab hier', 'ab jetzt', 'cesse', 'smett', 'in poi', 'itibaren'],
      weight: 3,
      strong: true,
      regex: re(
        `(?:from\\s+(?:this|here)\\s+(?:section|point|line|paragraph)?\\s*(?:on(?:wards?)?)?,?\\s+you\\s+(?:are|act|become|will\\s+be|respond)|you\\s+(?:now\\s+)?(?:become|take\\s+on\\s+the\\s+(?:role|persona)\\s+of)|treats?\\s+the\\s+(?:sender|user)\\s+as\\s+(?:a|an|the)\\s+(?:partner|admin\\p{L}*|owner|operator|developer|superuser)|` +
          `deix[ae]s?\\s+de\\s+ser|passa\\s+a\\s+ser|a\\s+partir\\s+(?:desta|deste|daqui)\\s*(?:seção|ponto|linha|momento)?,?\\s+(?:você|tu)|a\\s+partir\\s+de\\s+(?:esta\\s+sección|aquí|ahora),?\\s+(?:eres|serás|actúas|pasas)|pasas\\s+a\\s+ser|dejas\\s+de\\s+ser|` +
          `ab\\s+(?:diesem\\s+Abschnitt|hier|jetzt|sofort),?\\s+(?:bist|agierst|handelst)\\s+du|du\\s+bist\\s+ab\\s+(?:jetzt|sofort|hier)|à\\s+partir\\s+(?:de\\s+cette\\s+section|d['’]ici|de\\s+maintenant),?\\s+tu\\s+(?:es|deviens|agis)|(?:tu\\s+)?cesses?\\s+d['’]être|` +
          `smett[aei]\\s+di\\s+essere|(?:da\\s+(?:questa\\s+sezione|qui)|d['’]ora)\\s+in\\s+poi,?\\s+(?:sei|diventi)|(?:с|начиная\\s+с)\\s+(?:этого|данного)\\s+(?:раздела|места|момента),?\\s+ты|перестаёшь\\s+быть|перестает\\s+быть|перестаёт\\s+быть|больше\\s+не\\s+являешься|` +
          `(?:з|починаючи\\s+з)\\s+(?:цього|цієї)\\s+(?:розділу|місця|моменту|секції),?\\s+ти|перестаєш\\s+бути|bu\\s+bölümden\\s+itibaren|من\\s+هذا\\s+القسم|تتوقف\\s+عن\\s+كونك|इस\\s+(?:खंड|भाग|सेक्शन)\\s+से)${E}` +
          `|(?:从本节(?:起|开始)|从这里开始你|このセクション以降|ここから先は|ではなくなり|이\\s*섹션부터)`,
      ),
    },
    {
      // a heading posing as a system / operator section ("### SYSTEM (Betreiber, Version 2)", "### WIADOMOŚĆ ADMINISTRATORA"); capitals only
      kind: 'fake_marker',
      stems: ['system', 'operator', 'admin', 'developer', 'sistema', 'syst', 'sistem', 'tool_result', 'tool result', 'function_result'],
      weight: 3,
      strong: true,
      regex: re(
        `(?:^|\\n)[ \\t>*-]*#{1,6}[ \\t]*(?:SYSTEM|OPERATOR|ADMIN|ADMINISTRATOR|DEVELOPER|SISTEMA|SYSTÈME|СИСТЕМА|СИСТЕМНОЕ|SİSTEM|SYSTEMNACHRICHT|WIADOMOŚĆ\\s+ADMINISTRATORA)(?![A-Za-z])|(?:^|\\n)[ \\t>*#-]*(?:SYSTEM|OPERATOR|ADMIN)\\s*\\([^)\\n]{0,40}\\)|\\[\\s*/?(?:tool[_ ]result|function[_ ]result|tool[_ ]output|system[_ ]note)\\b[^\\]\\n]{0,160}\\]`,
        'g',
      ),
    },
    {
      kind: 'fake_marker',
      stems: ['system', 'operator', 'betreiber', 'operateur', 'operador', 'operatore', 'sistem'],
      weight: 3,
      strong: true,
      regex: re(`(?:^|\\n)[ \\t>*-]*#{1,6}[ \\t]*(?:system|operator|betreiber|opérateur|operador|operatore|оператор|sistem)\\s*\\([^)\\n]{0,40}\\)`),
    },
    {
      // "--- end of project context ---": what follows poses as coming from outside the file
      kind: 'boundary',
      stems: ['end of', 'ende de', 'fin de', 'fin du', 'fim do', 'fine del', 'koniec', 'sonu'],
      weight: 2,
      strong: true,
      regex: re(
        `(?:end\\s+of\\s+(?:the\\s+)?(?:project\\s+|repository\\s+|file\\s+|user\\s+)?(?:context|content)|ende\\s+(?:des|der)\\s+(?:Projekt)?kontext\\p{L}*|fin\\s+(?:du|de\\s+la|del)\\s+(?:contexte|contexto)\\p{L}*|fim\\s+do\\s+contexto|fine\\s+del\\s+contesto|конец\\s+контекст\\p{L}*|кінець\\s+контекст\\p{L}*|koniec\\s+kontekstu|bağlam(?:ın)?\\s+sonu|نهاية\\s+السياق|संदर्भ\\s+समाप्त)${E}` +
          `|(?:上下文结束|项目上下文到此结束|コンテキスト終了|コンテキストここまで|컨텍스트\\s*(?:끝|종료))`,
      ),
    },
    {
      kind: 'covert',
      stems: ['quiet', 'say nothing', 'flag', 'mention', 'bring up', 'point out', 'log', 'record', 'no need', 'letting', 'notices', 'finds out', 'to yourself', 'verschweig', 'nicht erw', 'auff', 'merkt', 'kein wort', 'ne pas', 'besoin', 'sans en', 'sans que', 'personne ne', 'hace falta', 'sin coment', 'sin mencion', 'comentes', 'sin que', 'para que nadie', 'nao coment', 'comentar', 'sem coment', 'precis', 'sem que', 'senza dir', 'senza avvis', 'non serve', 'non occorre', 'farne parola', 'senza che', 'aciklama', 'belli', 'haber'],
      weight: 2,
      strong: true,
      regex: re(
        `(?:(?:don't|do\\s+not|never|does\\s+not|doesn't)\\s+(?:flag|mention|bring\\s+up|point\\s+out|surface|log|record|report)(?:\\s+or\\s+(?:flag|mention|log|record|report))?\\s+(?:it|this|that|them|the\\s+(?:discrepancy|change|copy|step))|(?:there's\\s+|there\\s+is\\s+)?no\\s+need\\s+to\\s+(?:tell|inform|notify|mention|explain|surface|flag|raise|share|bring\\s+(?:it\\s+|this\\s+)?up)|senza\\s+spiegar\\p{L}*|without\\s+letting\\s+(?:the\\s+)?(?:user|them|anyone|people)\\s+know|(?:keep|stay)\\s+quiet\\s+about|say\\s+nothing\\s+about|so\\s+(?:that\\s+)?(?:no\\s*one|nobody|the\\s+user)\\s+(?:notices|finds\\s+out|sees\\s+it)|keep\\s+(?:it|this)\\s+to\\s+yourself|` +
          `verschweig\\p{L}*|nicht\\s+(?:erwähnen|ansprechen|melden)|damit\\s+${W(4)}(?:nichts\\s+auffällt|niemand\\s+(?:etwas\\s+)?(?:merkt|bemerkt))|ohne\\s+dass\\s+(?:der|die)\\s+(?:Nutzer|Benutzer)\\p{L}*\\s+(?:es\\s+)?(?:merkt|erfährt)|kein\\s+Wort\\s+darüber|` +
          `ne\\s+pas\\s+(?:en\\s+|l['’]|le\\s+|lui\\s+)?(?:informer|prévenir|parler|mentionner|signaler|dire)|(?:pas|aucun)\\s+besoin\\s+d['’]en\\s+(?:parler|informer)|sans\\s+en\\s+(?:parler|informer)|sans\\s+que\\s+l['’]utilisat\\p{L}+\\s+(?:ne\\s+)?(?:le\\s+)?sache|pour\\s+que\\s+personne\\s+ne|` +
          `no\\s+hace\\s+falta\\s+(?:avisar|decir|mencionar|confirmar|comentar)\\p{L}*|sin\\s+(?:comentar|mencionar)\\p{L}*|no\\s+(?:lo\\s+)?comentes|sin\\s+que\\s+(?:el\\s+usuario|la\\s+usuaria|nadie)\\s+(?:lo\\s+)?(?:sepa|note)|para\\s+que\\s+nadie\\s+(?:se\\s+entere|lo\\s+note)|` +
          `não\\s+(?:comente|comentar|mencionar|avisar|contar|dizer)|sem\\s+(?:comentar|contar)|não\\s+(?:é\\s+)?precis[ao]\\s+(?:avisar|dizer|mencionar|contar|comentar)|sem\\s+que\\s+(?:o\\s+usuário|a\\s+usuária|ninguém)\\s+(?:saiba|perceba)|` +
          `senza\\s+(?:dirlo|dirglielo|avvisare|informare|menzionarlo)|non\\s+(?:serve|occorre|c['’]è\\s+bisogno\\s+di)\\s+(?:avvisare|dire|informare|menzionare)|non\\s+farne\\s+parola|senza\\s+che\\s+(?:l['’]utente|nessuno)\\s+(?:lo\\s+)?(?:sappia|noti|se\\s+ne\\s+accorga)|` +
          `не\\s+(?:упоминать|сообщать|говорить|рассказывать|уведомлять)|без\\s+уведомлени\\p{L}*|втихую|ничего\\s+(?:об\\s+этом\\s+)?не\\s+(?:говор|сообща|упомина)\\p{L}*|нічого\\s+(?:про\\s+це\\s+)?не\\s+(?:кажучи|повідомляючи)|чтобы\\s+никто\\s+не\\s+(?:заметил|узнал)|не\\s+(?:згадуй|згадувати|повідомляй|повідомляти|кажи|казати|пиши|писати)|мовчки|щоб\\s+ніхто\\s+не\\s+(?:помітив|дізнався)|` +
          `(?:kullanıcıya|kimseye)\\s+${W(2)}(?:söylemeden|haber\\s+vermeden|belli\\s+etmeden)|açıklama\\s+yapma|belli\\s+etme|haber\\s+verme|ولا\\s+تذكر|لا\\s+تذكر|دون\\s+علم|دون\\s+أن\\s+(?:يعلم|يلاحظ)|لا\\s+داعي\\s+(?:لإخبار|لإبلاغ|لذكر)|حتى\\s+لا\\s+يلاحظ|(?:न|मत)\\s+(?:लिखें|लिखना|बताएं|बताना|बताएँ)|कुछ\\s+न\\s+बताए)${E}` +
          `|(?:无需告知|不必告知|不用告知|无需通知|不用(?:再)?(?:在[^。\\n]{0,6})?提|不要声张|免得别人|不要让[^。\\n]{0,6}知道|知らせる必要はありません|伝える必要はありません|言う必要はありません|内緒で|気づかれないように|バレないように|触れないこと|言及しない|알릴\\s*필요\\s*(?:없|는\\s*없)|모르게|말하지\\s*말|언급하지\\s*말|눈치채지\\s*못하게)`,
      ),
    },
    {
      // the assistant's own setup, named indirectly: what it received before this conversation, its persona, its tool descriptions
      kind: 'prompt_object',
      stems: ['briefing', 'operate under', 'work under', 'preamble', 'how you were', 'how you are', 'how you have', 'you received', 'you were given', 'you have been given', 'you got', 'before this conversation', 'ahead of this conversation', 'prior to this conversation', 'tool description', 'persona', 'setup text', 'configuration', 'setup', 'full', 'complete', 'initial', 'original', 'hidden', 'instrucciones', 'mensaje', 'conversaci', 'herramientas', 'instru', 'conversa', 'ferramentas', 'anweisungen', 'gespr', 'unterhaltung', 'systemnachricht', 'beschreibung', 'deine', 'consignes', 'recues', 'message syst', 'outils', 'istruzioni', 'messaggio di sistema', 'strumenti', 'sistem mesaj', 'talimat', 'arac'],
      weight: 2,
      strong: false,
      regex: re(
        `(?:(?:instructions|settings|configuration|setup(?:\\s+text)?|rules|context|prompt)\\s+(?:that\\s+)?you\\s+(?:received|were\\s+given|got|have\\s+been\\s+given)|(?:directives|instructions|rules)\\s+(?:that\\s+)?you\\s+(?:operate|work|run|act)\\s+under|hidden\\s+preamble|how\\s+you\\s+(?:were|are|have\\s+been)\\s+(?:configured|set\\s+up|instructed|prompted)|your\\s+(?:original\\s+|initial\\s+)?briefing|(?:before|ahead\\s+of|prior\\s+to)\\s+(?:this|the)\\s+(?:conversation|chat|session)|tool\\s+descriptions?|persona\\s+(?:text|file|prompt|settings)|setup\\s+text|(?:your|the)\\s+(?:full|complete|entire|initial|original|hidden)\\s+(?:configuration|setup|instructions|prompt|context)|complete\\s+system\\s+prompt|` +
          `instrucciones\\s+(?:que\\s+)?(?:recibiste|recibidas|te\\s+dieron)|antes\\s+de\\s+(?:esta|la)\\s+conversación|mensaje\\s+(?:de|del)\\s+sistema|descripci\\p{L}+\\s+de\\s+(?:las\\s+)?herramientas|configuración\\s+inicial|tus\\s+instrucciones|` +
          `instruções\\s+(?:que\\s+)?(?:recebeu|recebidas|você\\s+recebeu)|antes\\s+d[ae]\\s+conversa|mensagem\\s+do\\s+sistema|descri\\p{L}+\\s+das\\s+ferramentas|configuração\\s+inicial|suas\\s+instruções|` +
          `Anweisungen,?\\s+die\\s+du\\s+${W(5)}(?:erhalten|bekommen)|vor\\s+(?:diesem|dem)\\s+(?:Gespräch|Chat)|vor\\s+der\\s+Unterhaltung|Systemnachricht|(?:Werkzeug|Tool)-?[Bb]eschreibung\\p{L}*|deine\\s+(?:Anweisungen|Vorgaben|Konfiguration)|` +
          `consignes\\s+(?:que\\s+tu\\s+as\\s+)?reçues|(?:que\\s+tu\\s+as\\s+)?reçues\\s+avant|avant\\s+(?:le\\s+début\\s+de\\s+)?la\\s+conversation|message\\s+système|descriptions?\\s+des\\s+outils|tes\\s+(?:consignes|instructions)|` +
          `istruzioni\\s+(?:di\\s+configurazione\\s+)?(?:che\\s+ha(?:i)?\\s+)?ricevut\\p{L}*|istruzioni\\s+di\\s+configurazione|prima\\s+della\\s+conversazione|messaggio\\s+di\\s+sistema|descrizion\\p{L}+\\s+degli\\s+strumenti|le\\s+tue\\s+istruzioni|` +
          `(?:инструкци|указани|настройк)\\p{L}*,?\\s+(?:которые\\s+)?(?:ты\\s+)?получ\\p{L}*|получ\\p{L}*\\s+до\\s+(?:начала\\s+)?(?:диалога|разговора|беседы)(?:\\s+инструкци\\p{L}*)?|до\\s+начала\\s+(?:диалога|разговора|беседы)|описани\\p{L}*\\s+(?:всех\\s+)?(?:своих\\s+)?инструмент\\p{L}*|системн\\p{L}*\\s+(?:сообщени|инструкци)\\p{L}*|служебн\\p{L}*\\s+инструкци\\p{L}*|` +
          `(?:інструкці|вказівк|налаштуван)\\p{L}*,?\\s+(?:які\\s+)?(?:ти\\s+)?отрима\\p{L}*|до\\s+початку\\s+розмови|опис\\p{L}*\\s+(?:усіх\\s+|всіх\\s+)?(?:своїх\\s+)?інструмент\\p{L}*|системн\\p{L}*\\s+(?:повідомлен|інструкці)\\p{L}*|` +
          `sistem\\s+mesaj\\p{L}*|sana\\s+verilen\\s+talimat\\p{L}*|araç\\s+açıklama\\p{L}*|konuşmadan\\s+önce|kimlik\\s+talimat\\p{L}*|t[aа]l[iı]m[aа]tl[aа]r[iı]n[iı]|التعليمات\\s+التي\\s+(?:تلقيتها|تلقيت|حصلت)|قبل\\s+(?:بدء\\s+)?المحادثة|رسالة\\s+النظام|وصف\\s+الأدوات|تعليماتك|` +
          `बातचीत\\s+से\\s+पहले|सेटअप\\s+टेक्स्ट|टूल\\s+की\\s+जानकारी|निर्देश\\s+मिले|सिस्टम\\s+प्रॉम्प्ट|instrukcji,?\\s+które\\s+dosta\\p{L}+|przed\\s+rozmową|opisy\\s+(?:wszystkich\\s+)?narzędzi)${E}` +
          `|(?:初始设定|收到的(?:全部|所有)?设定|设定原文|人设|工具说明|工具描述|对话开始前|之前收到的|系统指令|初始指令|提示词|会話の前に受け取|受け取った設定|設定文|人格設定|ツール説明|ツールの説明|初期設定|システム指示|プロンプト全文|초기\\s*설정|도구\\s*설명|대화\\s*(?:전에|시작\\s*전)|받은\\s*(?:지시|설정)|시스템\\s*지시|프롬프트\\s*전문)`,
      ),
    },
    {
      kind: 'verbatim',
      stems: ['set of', 'list of', 'verbatim', 'word for word', 'in full', 'entirety', 'complete text', 'full text', 'entire text', 'exactly as', 'character for character', 'without omitting', 'without summar', 'without redact', 'redact', 'leave it out', 'leave anything out', 'unredacted', 'textual', 'palabra', 'integr', 'literal', 'pie de la letra', 'sin resumir', 'sin omitir', 'palavra', 'sem resumir', 'sem omitir', 'wortlich', 'vollst', 'wort fur wort', 'ungek', 'mot pour mot', 'sans rien', 'parola per parola', 'per intero', 'alla lettera', 'kelimesi', 'eksiksiz', 'aynen', 'harfiyen', 'doslownie', 'calosci', 'tresc'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:verbatim|word\\s+for\\s+word|in\\s+full|(?:the\\s+)?(?:full|entire|complete|whole)\\s+(?:set|list)\\s+of|in\\s+(?:its|their)\\s+entirety|(?:complete|full|entire)\\s+text|exactly\\s+as\\s+(?:written|received|given)|character\\s+for\\s+character|without\\s+(?:omitting|summari[sz]ing|redacting)|(?:don't|do\\s+not)\\s+(?:redact|summari[sz]e|leave\\s+(?:it|anything)\\s+out)|unredacted|` +
          `textualmente|palabra\\s+por\\s+palabra|íntegr\\p{L}*|literalmente|al\\s+pie\\s+de\\s+la\\s+letra|sin\\s+(?:resumir|omitir)|na\\s+íntegra|integralmente|palavra\\s+por\\s+palavra|sem\\s+(?:resumir|omitir)|wörtlich|vollständig|Wort\\s+für\\s+Wort|ungekürzt|mot\\s+pour\\s+mot|intégralement|textuellement|sans\\s+rien\\s+(?:résumer|omettre)|parola\\s+per\\s+parola|per\\s+intero|alla\\s+lettera|testualmente|` +
          `дословно|слово\\s+в\\s+слово|полностью|целиком|без\\s+сокращений|дослівно|повністю|цілком|حرفي\\p{L}*|بالكامل|كاملا|كاملاً|शब्दशः|ज्यों\\s+का\\s+त्यों|पूरा\\s+का\\s+पूरा|kelimesi\\s+kelimesine|eksiksiz|tamamını|aynen|harfiyen|dosłownie|w\\s+całości|pełną\\s+treść)${E}` +
          `|(?:一字一句|原文照录|原文|逐字|一字不差|原样|不要删减|不要省略|そのまま|全文|省略せず|그대로|한\\s*글자도|빠짐없이|생략\\s*없이)`,
      ),
    },
    {
      kind: 'schedule',
      stems: ['every night', 'every morning', 'every evening', 'every day', 'every hour', 'every week', 'nightly', 'daily', 'hourly', 'weekly', 'each night', 'each morning', 'each day', 'cron', 'scheduled', 'after each', 'after every', 'end of each', 'end of every', 'cada', 'programada', 'diari', 'toda noite', 'todo dia', 'todos os dias', 'agendada', 'jede nacht', 'jeden', 'taglich', 'nachtlich', 'geplante', 'chaque', 'tous les', 'planifi', 'quotidien', 'ogni', 'pianificata', 'her gece', 'her gun', 'her aksam', 'her sabah', 'zamanlanm', 'sonra'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:every\\s+(?:night|morning|evening|day|hour|week)|nightly|daily|hourly|weekly|each\\s+(?:night|morning|evening|day)|cron(?:\\s+(?:job|task))?|scheduled\\s+(?:job|task|send|message)|(?:after|at\\s+the\\s+end\\s+of)\\s+(?:each|every)\\s+(?:conversation|session|chat|day)|` +
          `cada\\s+(?:noche|mañana|día|hora|semana)|tarea\\s+programada|a\\s+diario|diariamente|toda\\s+(?:noite|manhã)|todo\\s+dia|todos\\s+os\\s+dias|tarefa\\s+agendada|jede\\s+Nacht|jeden\\s+(?:Abend|Morgen|Tag)|täglich|nächtlich|geplante\\s+Aufgabe|Cronjob|` +
          `chaque\\s+(?:nuit|soir|matin|jour)|tous\\s+les\\s+(?:soirs|jours|matins)|tâche\\s+planifiée|quotidiennement|ogni\\s+(?:notte|sera|mattina|giorno)|attività\\s+pianificata|quotidianamente|` +
          `каждую\\s+ночь|каждый\\s+(?:вечер|день)|ежедневно|по\\s+расписанию|после\\s+каждого\\s+(?:диалога|разговора)|щодня|щоночі|щовечора|кожного\\s+дня|після\\s+кожної\\s+розмови|` +
          `her\\s+(?:gece|akşam|gün|sabah)|zamanlanmış\\s+görev|her\\s+konuşmadan\\s+sonra|كل\\s+(?:ليلة|مساء|يوم|صباح)|يومي\\p{L}*|مهمة\\s+مجدولة|हर\\s+(?:रात|शाम|दिन|सुबह)|रोज़|रोजाना|शेड्यूल)${E}` +
          `|(?:每天|每晚|每次对话结束后|对话结束后|定时任务|每日|每周|毎晩|毎日|毎朝|定期的に|매일|매주|예약\\s*작업|대화가\\s*끝날\\s*때마다)`,
      ),
    },
    {
      // every reply, the whole conversation: what a relay to another chat copies
      kind: 'mirror',
      stems: ['everything', 'todo lo', 'tudo o', 'alles', 'tout ce', 'tutto', 'every', 'each', 'all', 'copy of', 'copies of', 'log of', 'transcript', 'bcc', 'full', 'entire', 'whole', 'complete', 'cada', 'copia', 'todas', 'cada resposta', 'jede', 'kopie', 'chaque', 'copie', 'toutes', 'ogni', 'risposte', 'tutte', 'her cevap', 'her yanit', 'tum'],
      weight: 2,
      strong: false,
      regex: re(
        `(?:(?:every|each|all)\\s+(?:of\\s+)?(?:your\\s+|my\\s+|the\\s+)?(?:repl(?:y|ies)|answers?|responses?)|everything\\s+(?:that\\s+(?:was|is|gets)\\s+|we\\s+|you\\s+|they\\s+)?(?:discussed|talked\\s+about|said|written|shared)|todo\\s+lo\\s+(?:hablado|conversado|discutido)|tudo\\s+o\\s+que\\s+(?:foi\\s+)?(?:conversado|discutido|falado)|alles,?\\s+was\\s+(?:\\p{L}+\\s+){0,3}?(?:besprochen|gesagt|geschrieben)|tout\\s+ce\\s+qui\\s+a\\s+été\\s+(?:dit|discuté|échangé)|tutto\\s+(?:ciò|quello)\\s+che\\s+(?:è\\s+stato\\s+)?(?:detto|discusso|scritto)|всё,?\\s+что\\s+обсужда\\p{L}*|все,?\\s+що\\s+обговорю\\p{L}*|konuşulan\\s+her\\s+şey|كل\\s+ما\\s+(?:تمت\\s+مناقشته|قيل|نوقش)|(?:a\\s+)?(?:running\\s+)?(?:copy|copies|log|transcripts?)\\s+of\\s+(?:our|the|all|every|each|my|their)\\s+(?:chats?|conversations?|messages|sessions)|(?:copy|copies|forward|mirror|duplicate|relay|bcc|cc)\\s+of\\s+(?:every|each|all)|(?:full|entire|whole|complete)\\s+(?:conversation|chat\\s+(?:history|log)|transcript)|` +
          `cada\\s+(?:respuesta|resposta)|copia\\s+de\\s+cada|todas\\s+(?:tus|las|as)\\s+(?:respuestas|respostas)|conversación\\s+(?:completa|entera|del\\s+día)|íntegra\\s+la\\s+conversación|conversa\\s+(?:completa|inteira)|jede\\s+(?:deiner\\s+)?Antwort|Kopie\\s+(?:jeder|aller)|(?:gesamte|ganze|vollständige)\\s+(?:Unterhaltung|Chatverlauf|Gespräch)|` +
          `chaque\\s+réponse|copie\\s+de\\s+chaque|toutes\\s+(?:tes|les)\\s+réponses|(?:toute\\s+la|l['’]intégralité\\s+de\\s+la)\\s+conversation|ogni\\s+risposta|copia\\s+di\\s+ogni|le\\s+risposte\\s+del\\s+bot|tutte\\s+le\\s+risposte|l['’]intera\\s+conversazione|` +
          `кажд\\p{L}*\\s+(?:(?:тво|сво)\\p{L}*\\s+)?ответ\\p{L}*|копи\\p{L}*\\s+кажд\\p{L}*|все\\s+(?:твои\\s+)?ответы|всю\\s+переписк\\p{L}*|кожн\\p{L}*\\s+(?:(?:тво|сво)\\p{L}*\\s+)?відповід\\p{L}*|(?:всю|усю)\\s+історію\\s+розмов|her\\s+(?:cevab|yanıt)\\p{L}*|tüm\\s+(?:cevap|yanıt|konuşma)\\p{L}*|` +
          `كل\\s+(?:رد|إجابة)|نسخة\\s+من\\s+كل|المحادثة\\s+كاملة|BCC\\s+कॉपी|हर\\s+(?:जवाब|उत्तर|ईमेल|संदेश))${E}` +
          `|(?:所有讨论内容|聊过的所有内容|話した内容すべて|나눈\\s*대화\\s*전부|每(?:一)?条回复|所有回复|完整聊天记录|完整的聊天记录|每次回复|すべての返信|全ての返信|各返信|全ての回答|모든\\s*답변|답변마다|각\\s*답변)`,
      ),
    },
    {
      // a password written out next to what it is for (`Wint3r!Staging#22`): a secret the memory hands on
      kind: 'literal_secret',
      stems: ['passw', 'pass', 'creds', 'pwd', 'contrase', 'senha', 'mot de passe', 'sifre', 'parola', 'haslo', 'pin'],
      weight: 2,
      strong: false,
      regex: re(
        `(?:passwords?|passwort|passphrase|creds|pwd|pin|contraseña|senha|mot\\s+de\\s+passe|пароль|şifre\\p{L}*|parola|hasło|hasła|كلمة\\s+(?:ال)?مرور|पासवर्ड)[^\`]{0,60}\`[^\`\\s]{6,40}\`|(?:密码|口令|パスワード|비밀번호|비번)[^\`]{0,30}\`[^\`\\s]{6,40}\``,
      ),
      accept: (m) => {
        const value = m[0].slice(m[0].lastIndexOf('`', m[0].length - 2) + 1, -1);
        // a real password mixes classes; a command or a placeholder does not
        return /[0-9]/.test(value) && /[A-Za-z]/.test(value) && /[^A-Za-z0-9]/.test(value) && !/^(?:\$|<|\{|xxx|\*)/i.test(value);
      },
    },
    {
      kind: 'anyone',
      stems: ['kollegen', 'andere', 'dritte', 'anyone in', 'anybody in', 'everyone in', 'whoever in', 'whenever anyone', 'whenever someone', 'wenn jemand', 'auf nachfrage', 'mit allen', 'qualquer pessoa', 'a quem', 'todos do grupo', 'tout le monde', 'importe qui', 'chiunque', 'tutti quelli', 'kazdemu', 'komukolwiek', 'herkese', 'soran'],
      weight: 3,
      strong: true,
      negatable: 'clause',
      regex: re(
        `(?:(?:anyone|anybody|everyone|whoever|someone)\\s+(?:else\\s+)?in\\s+(?:the|this|our|that|my)\\s+(?:channel|group|chat|team|server|workspace)|whenever\\s+(?:anyone|someone|somebody)\\s+${W(4)}asks|` +
          `wenn\\s+jemand\\s+${W(10)}(?:fragt|nachfragt|wissen\\s+will)|auf\\s+Nachfrage|(?:auch\\s+)?an\\s+(?:Kollegen|Kolleginnen|andere|alle|Dritte)\\p{L}*,?\\s+die|mit\\s+allen\\s+abgesprochen|a\\s+qualquer\\s+pessoa|a\\s+quem\\s+pedir|a\\s+todos\\s+do\\s+grupo|à\\s+tout\\s+le\\s+monde|n['’]importe\\s+qui|chiunque|a\\s+tutti\\s+(?:quelli|coloro)|` +
          `всем\\s+в\\s+(?:чате|группе|канале)|кто\\s+(?:бы\\s+)?ни\\s+спросил|если\\s+кто-(?:то|нибудь)\\s+(?:спросит|попросит)|усім\\s+у\\s+(?:чаті|групі|каналі)|якщо\\s+хтось\\s+(?:спитає|попросить)|soran\\s+(?:herkese|kişiye)|لأي\\s+أحد|لكل\\s+من\\s+يسأل|للجميع|जो\\s+भी\\s+पूछे|सबको|हर\\s+किसी\\s+को|każdemu\\s+${W(3)}kto|komukolwiek)${E}` +
          `|(?:谁问|有人问(?:起)?|群里(?:谁|任何人)|所有人|誰かが[^。\\n]{0,20}?(?:聞い|尋ね)|誰にでも|全員に|누가\\s*[^.\\n]{0,20}?물어보면|팀원\\s*모두에게|모두에게\\s*알려)`,
      ),
    },
    {
      // where a reply goes: its start or end, a code block, an HTML comment, a chat id, another messenger
      kind: 'channel',
      // "never paste secrets into the chat": a destination ruled out in its clause
      negatable: 'clause',
      stems: ['reply with', 'respond with', 'answer with', 'open', 'start', 'begin', 'prefix', 'end', 'close', 'top', 'bottom', 'code block', 'answer normally', 'answering normally', 'every request', 'every message', 'each request', 'html comment', 'whatsapp', 'telegram', 'signal', 'chat', 'channel', 'respuesta', 'bloque', 'resposta', 'bloco', 'antwort', 'codeblock', 'reponse', 'bloc de code', 'risposta', 'blocco', 'cevab', 'yanit', 'cevapta', 'kod blo', 'comment', 'kommentar', 'canal', 'kanal'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:(?:open|start|begin|prefix|end|close)\\s+(?:your|the|each|every)\\s+(?:reply|answer|response|report)\\s+with|(?:reply|respond|answer)\\s+with\\s+the\\s+(?:contents?|text|values?)\\s+of|at\\s+the\\s+(?:start|beginning|top|end|bottom)\\s+of\\s+(?:your|the|each|every)\\s+(?:reply|answer|response|report|message)|in(?:side)?\\s+(?:a|the)\\s+(?:fenced\\s+)?code\\s+block|(?:before|then)\\s+answer(?:ing)?\\s+normally|(?:for|before)\\s+(?:every|each)\\s+(?:request|message|reply|answer)|(?:in(?:side)?|as)\\s+an?\\s+HTML\\s+comment|` +
          `whatsapp:\\+?\\d{6,}|(?:telegram|tg|signal)[:-]\\+?\\d{5,}|(?:chat|channel|group|чат|канал|canal|kanal|chat\\s+id|id)\\s+(?:id\\s+)?[:#]?\\s*-?\\d{7,}|` +
          `(?:en|a)\\s+la\\s+respuesta|al\\s+(?:inicio|principio|final)\\s+de\\s+(?:la|cada|tu)\\s+respuesta|en\\s+un\\s+bloque\\s+de\\s+código|na\\s+resposta|no\\s+(?:início|fim|final)\\s+da\\s+resposta|(?:em\\s+um|num)\\s+bloco\\s+de\\s+código|` +
          `in\\s+(?:die|der|jede|jeder|deine|deiner)\\s+Antwort|am\\s+(?:Anfang|Ende)\\s+(?:der|jeder|deiner)\\s+Antwort|in\\s+einem\\s+Codeblock|dans\\s+(?:la|ta|chaque)\\s+réponse|(?:au\\s+début|à\\s+la\\s+fin)\\s+de\\s+(?:la|ta|chaque)\\s+réponse|dans\\s+un\\s+bloc\\s+de\\s+code|` +
          `nella\\s+risposta|all['’](?:inizio|fine)\\s+della\\s+risposta|alla\\s+fine\\s+di\\s+(?:ogni|ciascuna)\\s+risposta|all['’]inizio\\s+di\\s+ogni\\s+risposta|an\\s+(?:jede|deine)\\s+Antwort|in\\s+un\\s+blocco\\s+di\\s+codice|в\\s+(?:ответ|ответе|каждом\\s+ответе)|в\\s+(?:начале|конце)\\s+(?:ответа|каждого\\s+ответа)|в\\s+блоке\\s+кода|[ув]\\s+відповід\\p{L}*|на\\s+початку\\s+(?:відповіді|звіту)|окремим\\s+блоком|` +
          `(?:cevab|yanıt)\\p{L}*\\s+(?:başına|sonuna)|cevapta|yanıtta|kod\\s+bloğu\\p{L}*|(?:في|آخر|بداية|نهاية)\\s+(?:ال)?رد|في\\s+الإجابة|تعليق\\s+HTML|(?:जवाब|उत्तर)\\s+(?:में|की\\s+शुरुआत|के\\s+अंत))${E}` +
          `|(?:回复(?:的)?(?:开头|末尾|中)|回答(?:的)?(?:开头|末尾|中)|代码块|回答の(?:冒頭|最後|末尾)|返信の(?:冒頭|最後)|コードブロック|답변\\s*(?:맨\\s*앞|앞|끝|에)|코드\\s*블록)`,
      ),
    },
    {
      kind: 'send',
      negatable: 'clause',
      stems: ['publi', 'reenv', 'relay', 'bcc', 'duplicat', 'copie', 'copia', 'kopier', 'recopi', 'kopyala'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:publi\\p{L}*|reenv[ií]\\p{L}*|relay(?:ed|ing)?|bcc|duplicat\\p{L}*|cópia\\p{L}*|copi[aeéè]\\p{L}*|kopier\\p{L}*|recopi\\p{L}*|inoltrat\\p{L}*|дублир\\p{L}*|продублир\\p{L}*|дублю\\p{L}*|скопир\\p{L}*|скопі\\p{L}*|надсила\\p{L}*|пересыла\\p{L}*|пересила\\p{L}*|переслать|переслати|kopyala\\p{L}*|انسخ|कॉपी|wyślij|przekaż)${E}` +
          `|(?:发一份|抄送|同步到|転送して|送信して|전달(?:할|해|하|한)|보내\\s*줘|보내세요)`,
      ),
    },
    {
      kind: 'read',
      negatable: 'clause',
      stems: ['echo', 'reproduc', 'restate', 'transcri', 'write out', 'paste', 'recopi', 'reprodu', 'copi', 'escrib', 'escrev', 'ecri', 'schreib', 'scriv', 'wiedergeb', 'ausgeb', 'auflist', 'liste', 'lists', 'yaz', 'kopyala', 'tekrarla', 'wypisz'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:echo(?:es|ing)?\\s+back|reproduc\\p{L}*|restat\\p{L}*|transcri\\p{L}*|write\\s+out|paste|recopi\\p{L}*|reprodu\\p{L}*|copi[ae]\\p{L}*|escrib\\p{L}*|escrev\\p{L}*|écri\\p{L}*|schreib\\p{L}*|scriv\\p{L}*|wiedergeb\\p{L}*|ausgeb\\p{L}*|auflist\\p{L}*|lists?|пересказ\\p{L}*|перескаж\\p{L}*|перепиш\\p{L}*|переписати|воспроизвед\\p{L}*|процитир\\p{L}*|приведи|выпиши|выдай|відтвор\\p{L}*|скопіюй|процитуй|yaz\\p{L}*|kopyala\\p{L}*|tekrarla\\p{L}*|اكتب|اذكر|लिख\\p{L}*|दोहरा\\p{L}*|wypisz)${E}` +
          `|(?:照录|复制|列出|写出|書き出|貼り付け|再現|적어|붙여|나열)`,
      ),
    },
    {
      kind: 'secret',
      stems: ['jeton', 'environment', 'variables de entorno', 'environnement', 'umgebungsvariable', 'ambiente', 'ortam', 'card', 'access', 'haslo', 'hasla', 'tokens'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:jetons?(?:\\s+d['’]accès)?|variáveis\\s+de\\s+ambiente|variables\\s+de\\s+entorno|variables\\s+d['’]environnement|Umgebungsvariablen|variabili\\s+d['’]ambiente|переменн\\p{L}*\\s+окружени\\p{L}*|змінн\\p{L}*\\s+(?:оточенн|середовищ)\\p{L}*|ortam\\s+değişken\\p{L}*|متغيرات\\s+البيئة|(?:credit\\s+)?card\\s+(?:details|numbers?)|कार्ड\\s+डिटेल्स|hasło|hasła)${E}|(?:口令|账号密码|暗証番号|비번|카드\\s*정보)`,
      ),
    },
    {
      kind: 'secret_file',
      stems: ['printenv', 'credentials.', 'secrets/', 'secret.', 'api_key', 'api-key', 'apikey', '.config/'],
      weight: 2,
      strong: false,
      regex: re(`(?:printenv|(?:credentials|secrets?|api[_-]?keys?)\\.(?:ya?ml|json|env|txt|toml|ini)|secrets\\/[\\w.-]+\\.(?:json|ya?ml|env)|~\\/\\.config\\/[\\w./-]+)`),
    },
    {
      kind: 'trigger',
      stems: ['when', 'if', 'whenever', 'every time', 'quand', 'chaque fois', 'message', 'wenn', 'cuando', 'quando', 'mesaj'],
      weight: 1,
      strong: false,
      regex: re(
        `(?:(?:when|whenever|if)\\s+(?:a|the|any)?\\s*(?:message|sender|user|someone|\\p{L}+)\\s+(?:contains|includes|writes|says|types|starts\\s+with|begins\\s+with)\\s+(?:the\\s+(?:word|phrase|code)\\s+)?["“«'\`]|(?:whenever|every\\s+time)\\s+(?:a|an)\\s+\\p{L}+(?:\\s+\\p{L}+)?\\s+(?:appears|comes\\s+up|shows\\s+up)|` +
          `quand\\s+\\p{L}+\\s+écrit|si\\s+(?:le\\s+)?message\\s+(?:contient|commence)|à\\s+chaque\\s+fois\\s+qu['’]|wenn\\s+(?:jemand|\\p{L}+)\\s+(?:schreibt|sagt|tippt)|cuando\\s+(?:\\p{L}+\\s+)?(?:escriba|diga|ponga)|quando\\s+(?:\\p{L}+\\s+)?(?:escrever|disser|digitar)|quando\\s+un\\s+messaggio\\s+(?:inizia|contiene)|` +
          `если\\s+в\\s+сообщении|якщо\\s+(?:в|у)\\s+повідомленні|mesaj\\p{L}*\\s+\\p{L}+\\s+(?:içeriyorsa|başlıyorsa)|إذا\\s+(?:احتوت|تضمنت|بدأت)\\s+(?:ال)?رسالة|अगर\\s+संदेश\\s+में)${E}` +
          `|(?:如果消息(?:中)?(?:包含|以)|只要有人问|メッセージに[^。\\n]{0,10}(?:含まれ|が入)|메시지에[^.\\n]{0,10}(?:포함|들어))`,
      ),
    },
    {
      kind: 'encoded',
      stems: ['decod', 'descifr', 'entschl', 'dechiffr', 'decifr', 'coz'],
      weight: 2,
      strong: true,
      regex: re(
        `(?:(?:decode|decrypt)\\s+${W(3)}(?:and|then)\\s+(?:apply|carry\\s+out|do\\s+what)|(?:descifr|descífr|decodific|decodifíc)\\p{L}*\\s+(?:y|e)\\s+(?:cúmpl|cumpl|aplíc|aplic|obedec|sígu|segu)\\p{L}*|entschlüssel\\p{L}*\\s+und\\s+(?:befolg|ausführ|anwend)\\p{L}*|déchiffre\\p{L}*\\s+(?:et|puis)\\s+(?:applique|suis|exécute)\\p{L}*|decifra\\p{L}*\\s+e\\s+(?:applica|esegui|segui)\\p{L}*|` +
          `(?:расшифруй|декодируй)\\p{L}*\\s+и\\s+(?:выполн|примен)\\p{L}*|(?:розшифруй|декодуй)\\p{L}*\\s+(?:і|та)\\s+(?:викона|застосу)\\p{L}*|çöz\\s+ve\\s+(?:uygula|yap)\\p{L}*|(?:فك|افك)\\s+(?:تشفير\\p{L}*\\s+)?(?:و|ثم)\\s*(?:نفذ|طبق)\\p{L}*|डिकोड\\s+करके\\s+(?:पालन|लागू))${E}` +
          `|(?:解码后照做|解密后执行|デコードして従|복호화해서\\s*실행)`,
      ),
    },
    ...secondPassSignals(),
    ...moreLanguageSignals(),
  ];
}
