/**
 * Reading a session_search question: which words to look for, and whether the person asks for an
 * overview ("what did we talk about", "summarize our chats about X") rather than a lookup.
 */

/** Function words dropped from the full-text query: they match nearly every message and say nothing. */
const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be been before being but by can could did do does doing done
  for from had has have having he her here hers him his how i if in into is it its just last let me might my no nor not now of
  off on once only or other our ours out over own same she should so some such than that the their them then there these they
  this those through to too under until up very was we were what when where which while who whom why will with would you your
  yours earlier before previously ago time times ever`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that only say "give me an overview"; dropped from the search when the question is broad. */
const OVERVIEW_WORDS = new Set(
  `summarize summarise summary summaries overview recap talk talked talking discuss discussed discussing discussion discussions
  conversation conversations chat chats chatted session sessions spoke speak said say remember recall everything anything things
  topics topic tell`
    .split(/\s+/)
    .filter(Boolean),
);

const BROAD_PATTERN =
  /\b(summari[sz]e|summary|overview|recap)\b|\bwhat (did|have|do) (we|i) (talk|discuss|chat|speak|say)|\b(everything|all) (we|i) (talked|discussed|said)|\btopics\b/i;

export interface SearchQuery {
  /** The words to search for (may be empty: an overview of recent sessions is wanted). */
  terms: string[];
  /** The question asks for an overview or summary, not a single fact. */
  asksOverview: boolean;
}

/** Splits a question into search terms and tells whether it asks for an overview. */
export function analyzeQuery(question: string): SearchQuery {
  const asksOverview = BROAD_PATTERN.test(question);
  const words = (question.match(/[\p{L}\p{N}_]+/gu) ?? []).map((w) => w.toLowerCase());
  const meaningful = [...new Set(words.filter((w) => !STOPWORDS.has(w) && !(asksOverview && OVERVIEW_WORDS.has(w))))];
  // A lookup made only of common words ("the one") still searches for what was typed.
  if (!meaningful.length && !asksOverview) return { terms: [...new Set(words)], asksOverview };
  return { terms: meaningful, asksOverview };
}
