/**
 * What the person wrote in a plain-text mail (ARCHITECTURE.md §11), checked against the public reply
 * corpora of github/email_reply_parser and mailgun/talon (test/fixtures/mail-replies):
 *
 * - the earlier mail starts at a splitter: an attribution ("On … wrote:", "Am … schrieb …:",
 *   "Le … a écrit :", "Op … heeft … geschreven:", "Den … skrev:", "W dniu … napisał:",
 *   "… пользователь … написал:", Android's "---- John Smith wrote ----", a date-first
 *   "2014-10-17 11:28 GMT+03:00 Name <a@b>:"), possibly over several lines or after the
 *   person's own words on the same line; an "-----Original Message-----" line in its languages; a
 *   header block ("From:/Von:/De:/Fra:/Från:/Van:/Od: …" followed by "Sent:/Date:/Gesendet:/…");
 * - a splitter followed by `>` lines removes just that quote (the person may answer below it);
 *   followed by anything else, the rest of the mail is the earlier one;
 * - `>` lines elsewhere (interleaved quoting) are someone else's words;
 * - a forwarded message ("---------- Forwarded message ----------", "Begin forwarded message:") before
 *   any splitter is kept whole: it is what the person wants read. It is reported as `quoted`.
 * - signatures: from a `-- ` line, a closing "Sent from my iPhone"-style line (never one inside a
 *   sentence: "Sent from my desk, is much easier…" stays), a `-Name` sign-off, a mailing-list footer
 *   under a long `____` line.
 *
 * HTML mail arrives here as text whose blockquote lines start with QUOTE_MARK (parse.ts): such a
 * block is the earlier mail when an attribution comes just before it or opens it (Gmail, Apple Mail,
 * Thunderbird all write one), and otherwise the person's own quote, kept.
 *
 * Every test is a regular expression on a line of at most MAX_TEST_LINE characters, so the work is
 * linear in the length of the mail.
 */

/** Starts each line of an HTML `<blockquote>` (parse.ts): a private-use character no mail text has. */
export const QUOTE_MARK = '\uE000';

/** Longer lines are never splitters, and are not matched against anything. */
const MAX_TEST_LINE = 400;
/** An attribution may be wrapped over this many lines (blank ones included). */
const MAX_ATTRIBUTION_LINES = 6;

const VERBS = String.raw`wrote|sent|a\s+écrit|schrieb|escribió|escreveu|scritto|ha\s+scritto|schreef|geschreven|skrev|skrev\s+følgende|kirjoitti|napisał|napisal|napsal|đã\s+viết|написал|написала|написал\(а\)|写道|寫道|のメッセージ|írta|yazdı`;
const OPENERS = String.raw`On|Le|Am|El|Em|Il|Op|Den|På|W\s+dniu|Vào|Dne|Στις|Kl\.|Pada|Dana|Dňa|El\s+día|在`;
/** "On <date>, <name> wrote:" and its translations, the verb anywhere after the opener. */
const OPENED_ATTRIBUTION = new RegExp(String.raw`^\s*-*\s*(${OPENERS})\s.{0,300}?(${VERBS})(?![\p{L}]).{0,200}?([:：]\s*-*|-{2,})\s*$`, 'iu');
/** Every attribution ends so (":", "wrote ----", "<a@b>"): lines that do not are never tested further. */
const ATTRIBUTION_END = /([:：]|-{2}|>)\s*$/;
/** A line that ends in a "wrote:" verb and names a sender or a date (an address, a digit). */
const VERB_END = new RegExp(String.raw`^(?=.*[@\d]).{0,300}(${VERBS})\s*[:：]\s*$`, 'iu');
/** Russian clients: "14.02.2015, 12:00, пользователь Имя <a@b> написал:" (also without the verb). */
const RUSSIAN = /^.{0,120}пользователь\s.{0,200}<\s*[^<>\s]+@[^<>\s]+\s*>\s*(написал[а]?)?\s*:?\s*$/iu;
/** A date, a name and an address ending in ':' (mail.ru's "Thu, 26 Jun 2014 14:00:51 +0400 от Name <a@b>:", Yandex's "26.06.2014, 14:41, "Name" <a@b>:"). */
const DATED_ADDRESS = /^.{0,60}?(\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2}\s+\p{L}{3,}\.?\s+\d{4}).{0,150}<\s*[^<>\s]+@[^<>\s]+\s*>\s*[:：]\s*$/u;
/** Android: "---- John Smith wrote ----". */
const ANDROID = new RegExp(String.raw`^\s*-{2,}\s*.{1,100}\s(${VERBS})\s*-{2,}\s*$`, 'iu');
/** Date first: "2014-10-17 11:28 GMT+03:00 Postmaster <postmaster@…>:", "2011/4/7 Name <a@b>". */
const DATE_FIRST = /^\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b.{0,150}<\s*[^<>\s]+@[^<>\s]+\s*>\s*:?\s*$/u;
/** "-----Original Message-----" and its kin. */
const ORIGINAL = /^\s*-{3,}\s*(Original Message|Reply Message|Forwarded by .{1,60}|Ursprüngliche Nachricht|Antwort Nachricht|Oprindelig meddelelse|Message d'origine|Mensaje original|Messaggio originale|Oorspronkelijk bericht|Originalmeddelande|Opprinnelig melding|Исходное сообщение|Původní zpráva|Wiadomość oryginalna|Mensagem original)\s*-{3,}\s*$/iu;
const FORWARD = /^\s*(-{3,}\s*(Forwarded message|Weitergeleitete Nachricht|Message transféré|Mensaje reenviado|Mensagem encaminhada|Messaggio inoltrato|Doorgestuurd bericht|Videresendt meddelelse|Vidarebefordrat meddelande|Пересылаемое сообщение)\s*-{3,}|Begin forwarded message:|Anfang der weitergeleiteten Nachricht:|Début du message réexpédié :?)\s*$/iu;
/** A header line of a quoted mail (bold in Outlook's text part: `*From:*`). */
const HEADER = /^\s*\*?(From|Sent|Date|To|Cc|Subject|Von|Gesendet|Datum|An|Betreff|De|Envoyé|Date|À|Objet|Od|Wysłano|Do|Temat|Fra|Sendt|Til|Emne|Från|Skickat|Till|Ämne|Van|Verzonden|Aan|Onderwerp|Enviado|Para|Asunto|Assunto|Da|Inviato|Oggetto|Từ|Gửi|Đến|Chủ đề|От|Отправлено|Кому|Тема|Дата)\s?\*?\s?:\*?(\s|$)/iu;
const HEADER_FROM = /^\s*\*?(From|Von|De|Od|Fra|Från|Van|Da|Từ|От|Date|Datum)\s?\*?\s?:/iu;
/** A header block an HTML mail put on one line ("From: bob@example.com Date: Thu, …"). */
const HEADER_LINE = /^\s*\*?(From|Von|De|Od|Fra|Från|Van|Da|Từ|От)\s?\*?\s?:.{1,200}\s\*?(Sent|Date|Gesendet|Datum|Envoyé|Wysłano|Sendt|Skickat|Verzonden|Enviado|Inviato|Gửi|Отправлено|Дата)\s?\*?\s?:/iu;
const DRAWN = /^\s*(-{3,}|_{3,}|={3,})\s*$/;
const SIGNATURE_DASHES = /^\s*--\s*$/;
/** A closing device line: short, no sentence punctuation (a parenthesised link allowed). */
const DEVICE_LINE = /^\s*(Sent|Envoyé|Gesendet|Enviado|Inviato|Verzonden|Skickat|Sendt|Отправлено)\s+(from|with|via|using|depuis|avec|von|mit|desde|con|da|vanaf|från|fra|с)\s+[^,.;:!?()]{1,60}(\s*\([^()]*\))?\s*$|^\s*Get Outlook for \w+\s*$/iu;
/** "-Abhishek Kona": a dash sign-off, one to three words. */
const DASH_SIGN_OFF = /^\s*-\p{Lu}[\p{L}.'’]*(\s+[\p{L}.'’]+){0,2}\s*$/u;

/** How a wrapped attribution begins: its opener, a date, or (Russian clients) a date and "пользователь". */
const WRAPPED_START = new RegExp(String.raw`^\s*-*\s*((${OPENERS})\s|\d)`, 'iu');
/** The person's words, then an attribution, on one line. */
const SHARED = new RegExp(String.raw`^(.{0,200}?\S)[\s-]*(?<![\p{L}\d])(?=(${OPENERS})\s.{0,300}?(${VERBS})\s*[:：]\s*$)`, 'iu');

export interface ReplyCut {
  /** What the person wrote (a forwarded message included). */
  text: string;
  /** The forwarded message kept in `text`, when there is one: someone else's words, to be read as data. */
  quoted?: string;
}

const bare = (line: string): string => (line.startsWith(QUOTE_MARK) ? line.slice(1) : line);
/** A `>` line of a plain-text quote. */
const isCited = (line: string): boolean => /^\s*>/.test(line);
const isMarked = (line: string): boolean => line.startsWith(QUOTE_MARK);
const isBlank = (line: string): boolean => bare(line).trim() === '';

interface Splitter {
  /** Lines the splitter itself spans. */
  span: number;
  /** The person's words before it on its first line. */
  before: string;
}

/** The attribution or header starting at line i, if one does. */
function splitterAt(lines: readonly string[], i: number): Splitter | null {
  const first = bare(lines[i]);
  if (first.length > MAX_TEST_LINE || isBlank(first)) return null;
  // Most lines are the person's sentences: one cheap test spares them the patterns below.
  const wrapped = WRAPPED_START.test(first);
  if (!wrapped && !ATTRIBUTION_END.test(first) && !HEADER_FROM.test(first)) return null;
  if (ORIGINAL.test(first) || ANDROID.test(first) || HEADER_LINE.test(first)) return { span: 1, before: '' };
  // The person's words and the attribution on one line: "reply --- On Wed, … wrote:".
  const shared = SHARED.exec(first);
  if (shared && !OPENED_ATTRIBUTION.test(first)) return { span: 1, before: shared[1].replace(/[\s-]+$/, '') };
  if (HEADER_FROM.test(first)) {
    // A header block: From/Date followed by another header within the next lines.
    for (let k = i + 1; k < Math.min(lines.length, i + 4); k++) {
      const next = bare(lines[k]);
      if (next.length <= MAX_TEST_LINE && HEADER.test(next)) return { span: 1, before: '' };
    }
  }
  let joined = '';
  // Only an attribution that begins on this line may be wrapped over the next ones.
  const last = wrapped ? Math.min(lines.length, i + MAX_ATTRIBUTION_LINES) : i + 1;
  for (let k = i; k < last; k++) {
    const line = bare(lines[k]).replace(/^\s*>\s?(?=\S*\s*wrote)/i, '');
    if (line.length > MAX_TEST_LINE) break;
    joined = joined ? `${joined} ${line.trim()}` : line.trim();
    if (!ATTRIBUTION_END.test(joined)) continue;
    // Wrapped attributions begin with their opener or date; "… wrote:" alone counts on its own line only.
    if (OPENED_ATTRIBUTION.test(joined) || (k === i && VERB_END.test(joined)) || RUSSIAN.test(joined) || DATE_FIRST.test(joined) || DATED_ADDRESS.test(joined)) {
      return { span: k - i + 1, before: '' };
    }
  }
  return null;
}

/** End (exclusive) of the quote that starts at or after line i: `>`/cited lines, blank lines, and wrapped links inside. */
function quoteEnd(lines: readonly string[], i: number, marked: (line: string) => boolean): number {
  let j = i;
  while (j < lines.length) {
    if (marked(lines[j]) || isBlank(lines[j])) j++;
    // A link the sender's client wrapped out of the quote ("_nonce=3dd518)", " (http://…) >"), between two quoted lines.
    else if (j + 1 < lines.length && marked(lines[j + 1]) && lines[j].length <= MAX_TEST_LINE && (!/\s/.test(lines[j].trim()) || /https?:\/\/\S+\)?\s*>?\s*$/.test(lines[j]))) j++;
    else break;
  }
  // Trailing blank lines belong to what follows.
  while (j > i && isBlank(lines[j - 1])) j--;
  return j;
}

/** The person's words of a plain-text body (CRLF already or not), with the forwarded part if any. */
export function cutReply(body: string): ReplyCut {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let quoted: string | undefined;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const plain = bare(line);
    if (plain.length <= MAX_TEST_LINE && FORWARD.test(plain)) {
      // What was forwarded is the point of the mail: kept, marks removed, and reported as quoted.
      quoted = tidy(lines.slice(i).map(bare));
      break;
    }
    if (isCited(line)) {
      i++;
      continue;
    }
    const splitter = splitterAt(lines, i);
    if (splitter) {
      if (splitter.before) out.push(splitter.before);
      let j = i + splitter.span;
      while (j < lines.length && isBlank(lines[j])) j++;
      // A splitter inside the person's blockquote takes the blockquote with it.
      const inBlock = line.startsWith(QUOTE_MARK);
      const quoteFollows = j < lines.length && (isCited(lines[j]) || isMarked(lines[j]));
      if (!quoteFollows && !inBlock) break; // the rest is the earlier mail
      // Only the quote goes: the person may answer below it.
      i = quoteEnd(lines, j, inBlock ? isMarked : (l) => isCited(l) || isMarked(l));
      continue;
    }
    out.push(plain);
    i++;
  }
  // A signature is cut from the person's words only: what was forwarded stays as it was sent.
  const own = tidy(cutSignature(out));
  if (quoted) return { text: own ? `${own}\n\n${quoted}` : quoted, quoted };
  return { text: own };
}

/** The body without its signature: from a `-- ` line, a device line at the end, a `-Name` sign-off, a list footer. */
function cutSignature(lines: string[]): string[] {
  let end = lines.length;
  const dashes = lines.findIndex((l) => SIGNATURE_DASHES.test(l));
  if (dashes >= 0) end = dashes;
  const lastWords = () => {
    let k = end - 1;
    while (k >= 0 && !lines[k].trim()) k--;
    return k;
  };
  // A long drawn line with a short footer under it (a mailing list's).
  for (let k = 0; k < end; k++) {
    if (/^\s*_{20,}\s*$/.test(lines[k]) && lines.slice(k + 1, end).filter((l) => l.trim()).length <= 6) {
      end = k;
      break;
    }
  }
  let k = lastWords();
  if (k >= 0 && lines[k].length <= MAX_TEST_LINE && DEVICE_LINE.test(lines[k])) {
    end = k;
    k = lastWords();
  }
  if (k > 0 && lines[k].length <= MAX_TEST_LINE && DASH_SIGN_OFF.test(lines[k])) end = k;
  // A drawn line left at the very end was the edge of what was cut.
  let last = lastWords();
  while (last >= 0 && DRAWN.test(lines[last])) {
    end = last;
    last = lastWords();
  }
  return lines.slice(0, end);
}

function tidy(lines: string[]): string {
  return lines
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
