/**
 * "Send it in the same chat" names where a reply goes, not what is sent: a reminder or report skill
 * that delivers to the user's own chat is what the cron tool allows anyway. A match of a `*-exfil`
 * pattern whose object is only such a destination (the lazy gap stopped at "chat" in "invia nella
 * stessa chat", "envía el resumen al chat actual", "aynı sohbete gönderir") is dropped, unless the
 * rest of its sentence still names a secret or an outside address.
 */
const OWN_CHAT_END = new RegExp(
  `(?<![\\p{L}\\p{M}])(?:${[
    "(?:in|to|into)\\s+(?:the\\s+)?(?:same|current|this|their\\s+own|the\\s+user['’]s)\\s+(?:chat|conversation|thread)", // en
    "(?:nella|alla|sulla|nel|in)\\s+(?:(?:stessa|medesima|questa)\\s+)?(?:chat|conversazione)(?:\\s+(?:corrente|attuale|in\\s+corso))?", // it
    '(?:en|a|al|para)\\s+(?:(?:el|la|este|esta)\\s+)?(?:(?:mismo|misma)\\s+)?(?:chat|conversación)(?:\\s+(?:actual|en\\s+curso))?', // es
    '(?:no|na|ao|à|neste|nesta|para\\s+o|para\\s+a|pro)\\s+(?:(?:mesmo|mesma)\\s+)?(?:chat|conversa)(?:\\s+(?:atual|em\\s+curso))?', // pt
    '(?:dans|sur|à)\\s+(?:le|la|ce|cette|l[’\'])\\s*(?:(?:même)\\s+)?(?:chat|conversation|discussion)(?:\\s+(?:en\\s+cours|actuelle?))?', // fr
    '(?:im|in\\s+den|in\\s+diesen|in\\s+die|in\\s+diese|in\\s+dieselbe)\\s+(?:(?:selben|gleichen|aktuellen|jeweiligen)\\s+)?(?:chat|unterhaltung|konversation)', // de
    '(?:aynı|bu|mevcut|geçerli)\\s+sohbet(?:e|te|de)?', // tr
    '(?:同じ|この|現在の|今の)(?:チャット|会話)(?:に|へ|で)?', // ja
    '(?:到|至|在)?(?:当前|同一个?|这个|本|原)(?:聊天|对话|会话)(?:中|里)?', // zh
    '(?:в|до|у)\\s+(?:этот(?:\\s+же)?|тот\\s+же|текущий|цей(?:\\s+же)?|той\\s+самий|поточний)\\s+чат', // ru, uk
    '(?:같은|현재|이)\\s*(?:채팅|대화)(?:방)?(?:에|으로|로)?', // ko
  ].join('|')})[\\s.,;:!?。、]*$`,
  'iu',
);
/** A secret, an outside address or another chat's id later in the same sentence: the destination was not all it said. */
const STILL_EXFIL = /(?:password|passwort|contraseñ|senha|mot\s+de\s+passe|parol|пароль|token|credenzial|credencial|credential|secret|segret|segred|geheim|clave|chiav|chave|ключ|\.env|id_rsa|api[\s_-]?key|şifre|密码|密碼|パスワード|비밀번호|https?:\/\/|[\w.+-]+@[\w-]+\.[\w.]+|@\w|#[\w-]|-?\d{5,}|(?<![\p{L}])(?:id|ids|chat_id|webhook)(?![\p{L}]))/iu;

/** Verb-final languages: the chat noun with a particle or case ending of place ("sohbete", "チャットに") is where, not what. */
const CHAT_AS_PLACE_START = /^(?:(?:sohbet|konuşma)(?:e|a|ye|ya)(?![\p{L}])|(?:チャット|会話)(?:に|へ)|(?:채팅|대화)(?:방)?\s*(?:에|으로|로)(?!서))/u;
/** A relative clause before the chat ("every answer that you give in this chat"): the chat belongs to it, not to the verb. */
const RELATIVE = /(?<![\p{L}])(?:que|che|cui|that|which|qui|dass|das|die|der|quale|dont)(?![\p{L}])/iu;

export function notToOwnChat(m: RegExpExecArray, text: string): boolean {
  const place = OWN_CHAT_END.exec(m[0]);
  if (!place && !CHAT_AS_PLACE_START.test(m[0])) return true;
  if (place && RELATIVE.test(m[0].slice(0, place.index))) return true;
  const end = m.index + m[0].length;
  const rest = text.slice(end, end + 200).split(/[.!?。！？\n]/u)[0];
  return STILL_EXFIL.test(rest) || STILL_EXFIL.test(m[0]);
}
