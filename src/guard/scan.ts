/**
 * Threat scan (ARCHITECTURE.md §5): every text that enters the system prompt, every time it enters —
 * SOUL.md, context files, skill descriptions (index) and bodies (`skill_view`), memory and profile
 * when read — and every memory entry the `memory` tool writes is checked against two tables:
 * THREAT_PATTERNS (patterns.ts, English wordings) and the intent patterns (intents.ts,
 * the main intents in 13 more languages, paraphrase, chat templates, fake tool calls, data URLs,
 * covert and delayed triggers), plus a learned classifier (learned.ts: character n-grams,
 * logistic regression, weights in data/model.bin) above a high threshold. A hit replaces the whole file with one `[BLOCKED: …]` line and logs
 * each match with its line number.
 *
 * Scopes: `system` (SOUL.md, skill descriptions and bodies), `context` (project context files) and
 * `memory` (memory entries and files). In `system` and `context` a prose pattern whose sentence
 * frames it as a discussion of attacks ("attackers write 'ignore previous instructions'") is not a
 * hit, since such files legitimately document security. Memory entries are written by the model,
 * possibly on a user's request, so there the discussion exemption is off except for a quoted attack
 * the entry itself names as one (a security person's notes); negation ("never print API keys", "no
 * compartas contraseñas") is honoured in every scope.
 *
 * Obfuscation: the patterns also run on a folded copy of the changed lines (homoglyphs, leet
 * digits, fullwidth letters, Markdown emphasis undone; fold.ts), on the normalised view
 * (NFKC, Unicode confusables, invisibles removed, hyphen breaks re-joined, letter spacing
 * collapsed) and on decoded base64 / hex / percent / rot13 runs (normalize.ts). Look-around
 * windows, bounded gaps, per-language gates and a per-pattern match cap keep a hostile 1 MB file
 * linear. The keyword prefilter (keywords.ts) skips a pattern whose literal pieces a text lacks;
 * the exemptions (exempt.ts) decide when a match is discussion rather than an order.
 */
import { lineOf, lineStarts } from './lines.js';
import type { ScanScope } from '../core/guard.js';
import { stripBom } from '../core/prompt/text.js';
import { THREAT_CATEGORIES, THREAT_PATTERNS, type ThreatCategory } from './patterns.js';
import { intentPatterns, languagesIn } from './intents.js';
import { decodedViews, forgetBase64Runs, loadConfusables, normalizedViews } from './normalize.js';
import { quotedExampleLines } from './quoted.js';
import { signalHits, SMALL_TEXT } from './signals.js';
import { foldForScan } from './fold.js';
import { IN_TERMINAL, isExempt, isNegatedIntent } from './exempt.js';
import { KEYWORDS, keywordsIn, NEEDS, NON_ASCII_KEY, prepareKeywords, REQUIRES } from './keywords.js';
import { committedModel, LEARNED_THRESHOLD, LEARNED_VETO, learnedVerdict, type LearnedModel, type ScoredChunk } from './learned.js';

export { THREAT_CATEGORIES, THREAT_PATTERNS, isPublicIpv4, type ThreatCategory, type ThreatPattern } from './patterns.js';

export type { ScanScope } from '../core/guard.js';
export { foldForScan } from './fold.js';
export { KEYWORDS, keywordsIn, NON_ASCII_KEY, REQUIRES } from './keywords.js';

export interface ThreatMatch {
  category: ThreatCategory;
  /** Pattern id from THREAT_PATTERNS. */
  pattern: string;
  /** 1-based line number in the scanned text. */
  line: number;
  /** The matched text, shortened, with invisible characters spelled out as U+XXXX. */
  excerpt: string;
}

export interface ScanResult {
  blocked: boolean;
  /** Distinct categories hit, in THREAT_CATEGORIES order. */
  categories: ThreatCategory[];
  matches: ThreatMatch[];
}


/** [from, to) ranges of whole lines (plus one line each side) where `a` and `b` differ, merged. */
function changedRegions(a: string, b: string, starts: readonly number[]): [number, number][] {
  const regions: [number, number][] = [];
  if (a === b) return regions;
  for (let i = 0; i < a.length; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
    const { line } = lineOf(a, starts, i);
    const from = starts[Math.max(0, line - 2)];
    const to = line + 1 < starts.length ? starts[line + 1] : a.length; // end of the next line
    const last = regions.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else regions.push([from, to]);
    i = Math.max(i, (line < starts.length ? starts[line] : a.length) - 1); // skip to the next line
  }
  return regions;
}


/** Matches kept per pattern: enough to log, bounded so a hostile 1 MB file costs linear time. */
const MAX_MATCHES_PER_PATTERN = 50;



function excerptOf(s: string): string {
  const visible = s.replace(/[\u00AD\u200B-\u200D\u2060-\u2064\u202A-\u202E\u2066-\u2069\u180E\u3164\uFFA0\uFEFF]|[\u{E0000}-\u{E007F}]/gu, (c) =>
    `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
  const flat = visible.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/**
 * Scans `text` with THREAT_PATTERNS and the intent patterns (also on its normalised and decoded forms)
 * and with the learned layer. Pure: logging is left to core's `guardText`.
 */
export function scanText(text: string, scope: ScanScope): ScanResult {
  return scanWith(text, scope, { model: committedModel(), threshold: LEARNED_THRESHOLD, veto: LEARNED_VETO });
}

/** The learned layer as one scan uses it: the model and its two thresholds. */
export interface LearnedLayer {
  model: LearnedModel;
  threshold: number;
  veto: number;
}

/** `scanText` with another model (the training script measures models it has not committed). */
export function scanTextWith(text: string, scope: ScanScope, model: LearnedModel, thresholds = { threshold: LEARNED_THRESHOLD, veto: LEARNED_VETO }): ScanResult {
  return scanWith(text, scope, { model, ...thresholds });
}

/** The pattern and signal layers only (no learned layer): what the classifier is measured against. */
export function scanPatterns(text: string, scope: ScanScope): ScanResult {
  return scanWith(text, scope, null);
}

function scanWith(text: string, scope: ScanScope, learnedLayer: LearnedLayer | null): ScanResult {
  const body = stripBom(text);
  // Example blocks in a document about attacks are quoted material, not orders (not in memory,
  // which the model itself writes).
  const quoted = scope === 'memory' ? new Set<number>() : quotedExampleLines(body);
  const found = scanBody(body, scope, 1, true).filter((m) => !quoted.has(m.line));
  forgetBase64Runs(); // the scanned text is not kept past the scan
  // A hit seen both in the text and in a derived view of the same line is one match; an
  // intent pattern's hit on a line where the English table already found that category adds nothing.
  const unique = new Map<string, ThreatMatch>();
  const tableHit = new Set(found.filter((m) => TABLE_IDS.has(m.pattern)).map((m) => `${m.category}\0${m.line}`));
  for (const m of found) {
    if (!TABLE_IDS.has(m.pattern) && tableHit.has(`${m.category}\0${m.line}`)) continue;
    const key = `${m.pattern}\0${m.category}\0${m.line}`;
    if (!unique.has(key)) unique.set(key, m);
  }
  // The learned layer reads the file without its quoted example blocks, as the patterns do. It
  // blocks alone above LEARNED_THRESHOLD, and it weighs the pattern layers' fuzzy evidence (see
  // `overruled`): a file whose only hits are wordings the model scores below LEARNED_VETO passes.
  if (learnedLayer) {
    const learned = learnedVerdict(quoted.size ? withoutLines(body, quoted) : body, learnedLayer.model);
    if (unique.size > 0) {
      const starts = lineStarts(body);
      for (const [key, m] of unique) if (overruled(m, learned.chunks, starts, learnedLayer.veto)) unique.delete(key);
    } else if (learned.probability >= aloneThreshold(scope, learnedLayer.threshold)) {
      unique.set('learned\0learned_injection', {
        category: 'learned_injection',
        pattern: `learned(p=${learned.probability.toFixed(3)})`,
        line: learned.line,
        excerpt: excerptOf(learned.excerpt.slice(0, 200)),
      });
    }
  }
  const matches = [...unique.values()].sort((a, b) => a.line - b.line);
  const hit = new Set(matches.map((m) => m.category));
  const categories = THREAT_CATEGORIES.filter((c) => hit.has(c));
  return { blocked: matches.length > 0, categories, matches };
}

/**
 * Score at which the learned layer blocks a text the patterns passed. Context files and SOUL.md are
 * instructions to the agent by nature ("You are a senior Vue developer…", rule frontmatter), the very
 * register the model learned to flag: measured on 200+ real context files (test/guard/data/context-files),
 * the shared threshold blocked about 1 in 12 of them. There the model alone needs near certainty;
 * memory entries keep the trained threshold. The second opinion (guard.model) is the layer meant to
 * judge such texts by meaning.
 */
export const LEARNED_ALONE_IN_FILES = 0.95;

function aloneThreshold(scope: ScanScope, trained: number): number {
  return scope === 'memory' ? trained : Math.max(trained, LEARNED_ALONE_IN_FILES);
}

/**
 * Whether the learned layer overrules one pattern hit: only a hit of the broad layers (an
 * intent pattern's wording or a co-occurrence of signals, on the text as written) whose line lies in
 * chunks the model judged, all scoring below LEARNED_VETO — the model read the whole paragraph and
 * found it ordinary. Never overruled: the English table's attack phrasings (THREAT_PATTERNS),
 * evidence the model cannot see (invisible or tag characters, instructions in HTML comments,
 * anything found in a normalised or decoded view: homoglyphs, letter spacing, base64, hex, percent,
 * rot13), and a hit in a chunk too short to judge.
 */
function overruled(m: ThreatMatch, chunks: readonly ScoredChunk[], starts: readonly number[], veto: number): boolean {
  if (TABLE_IDS.has(m.pattern) || m.category === 'invisible_unicode' || m.category === 'hidden_html_comment' || DERIVED_VIEW.test(m.excerpt)) return false;
  const at = starts[m.line - 1] ?? 0;
  const around = chunks.filter((c) => c.from <= at && at < c.to);
  return around.length > 0 && around.every((c) => c.probability < veto);
}

/** The excerpt prefix of a match found in a derived view (`scanBody`'s `(how) `). */
const DERIVED_VIEW = /^\((?:normalised|base64|hex|percent-encoding|rot13)\) /;

/** `text` with the given 1-based lines emptied (line numbers kept). */
function withoutLines(text: string, lines: ReadonlySet<number>): string {
  return text
    .split('\n')
    .map((l, i) => (lines.has(i + 1) ? '' : l))
    .join('\n');
}

/** One pattern of either table, as the scan loop sees it. */
interface AnyPattern {
  id: string;
  category: ThreatCategory;
  regex: RegExp;
  prose: boolean;
  lang?: string;
  accept?: (match: RegExpExecArray, text: string) => boolean;
  starts?: (text: string) => readonly number[];
}

/** Sticky copies of the patterns that list where their matches can start. */
const STICKY = new Map<string, RegExp>();

/**
 * The matches of `pattern.regex` in `text`, the same as `text.matchAll(pattern.regex)`, found by
 * trying a sticky copy of the regex only at the offsets `pattern.starts` lists (each at or after
 * the end of the previous match, as matchAll goes on).
 */
function* matchesAt(pattern: AnyPattern, text: string): Generator<RegExpExecArray> {
  let sticky = STICKY.get(pattern.id);
  if (!sticky) STICKY.set(pattern.id, (sticky = new RegExp(pattern.regex.source, pattern.regex.flags.replace('g', '') + 'y')));
  let from = 0;
  for (const at of pattern.starts!(text)) {
    if (at < from) continue;
    sticky.lastIndex = at;
    const m = sticky.exec(text);
    if (!m) continue;
    yield m;
    from = at + (m[0].length || 1);
  }
}

let allPatternsBuilt: readonly AnyPattern[] | undefined;
const allPatterns = (): readonly AnyPattern[] => (allPatternsBuilt ??= [...THREAT_PATTERNS, ...intentPatterns()]);
const TABLE_IDS = new Set(THREAT_PATTERNS.map((p) => p.id));


/** Makes now what the scan otherwise makes on its first use: the keyword automaton, the intent patterns and the confusables table. */
export function prepareThreatScan(): void {
  prepareKeywords();
  allPatterns();
  loadConfusables();
}



const WORD_START_LANGS = new Set(['ru', 'uk', 'es', 'pt', 'de', 'fr', 'it', 'tr']);
const LETTER = /[\p{L}\p{M}]/u;


/**
 * Matches in `body`, with line numbers counted from `firstLine`. With `derive`, the normalised and
 * decoded views of `body` are scanned too (once: a view's own views are not).
 */
function scanBody(body: string, scope: ScanScope, firstLine: number, derive: boolean, how = '', small = body.length <= SMALL_TEXT): ThreatMatch[] {
  const starts = lineStarts(body);
  const matches: ThreatMatch[] = [];
  // Patterns run on the text as written and, when it differs, on its folded copy; exemptions are
  // judged on the text as written (the two have the same offsets).
  // The keyword pass reads the body first: what it finds also tells the folding which of its
  // passes can find nothing.
  const bodyKeywords = keywordsIn([body]);
  const folded = foldForScan(body, bodyKeywords);
  // Only the lines the folding changed (with a line of context each side) are scanned again.
  const views: { text: string; offset: number }[] = [{ text: body, offset: 0 }];
  for (const [from, to] of changedRegions(body, folded, starts)) views.push({ text: folded.slice(from, to), offset: from });
  const languages = languagesIn(body);
  const open = (lang: string | undefined): boolean => lang === undefined || lang === 'en' || lang === '*' || languages.has(lang);
  // the keywords of every view: the body's, and those of the folded lines
  const keywords = views.length === 1 ? bodyKeywords : new Set([...bodyKeywords, ...keywordsIn(views.slice(1).map((v) => v.text))]);
  // no view holds a character outside ASCII when the body holds none (folding only makes ASCII)
  const ascii = !bodyKeywords.has(NON_ASCII_KEY);
  for (const pattern of allPatterns()) {
    if (!open(pattern.lang)) continue;
    const pieces = KEYWORDS[pattern.id];
    if (pieces && !pieces.some((k) => keywords.has(k))) continue;
    if (REQUIRES[pattern.id]?.some((group) => !group.some((k) => keywords.has(k)))) continue;
    const needs = NEEDS[pattern.id];
    if (needs && !views.some((v) => needs.test(v.text))) continue;
    const seen = new Set<number>();
    const foreign = pattern.lang !== undefined && pattern.lang !== 'en' && pattern.lang !== '*';
    scan: for (const [i, view] of views.entries()) {
      if (i > 0 && !pattern.prose) break; // folding undoes wording tricks; only prose patterns read wording
      pattern.regex.lastIndex = 0;
      for (const m of pattern.starts ? matchesAt(pattern, view.text) : view.text.matchAll(pattern.regex)) {
        const index = (m.index ?? 0) + view.offset;
        if (seen.has(index)) continue;
        // Patterns of space-separated languages start at a word start (checked here, not with a
        // leading look-behind, which would cost every regex its fast first-character scan).
        if (foreign && WORD_START_LANGS.has(pattern.lang!) && m.index > 0 && LETTER.test(view.text[m.index - 1])) continue;
        if (pattern.accept && !pattern.accept(m as RegExpExecArray, view.text)) continue;
        if (foreign) {
          if (pattern.prose && isNegatedIntent(pattern.lang!, body, starts, index, m[0].length)) continue;
          // a command that prints the prompt in a terminal ("`make prompt` 会在终端完整输出系统提示词") is a developer's tool
          if (pattern.category === 'prompt_leak' && IN_TERMINAL.test(body.slice(Math.max(0, index - 80), index + m[0].length + 40))) continue;
        } else if (isExempt(pattern, body, starts, index, m[0].length, scope)) continue;
        seen.add(index);
        if (seen.size > MAX_MATCHES_PER_PATTERN) break scan;
        matches.push({
          category: pattern.category,
          pattern: pattern.id,
          line: lineOf(body, starts, index).line + firstLine - 1,
          excerpt: how + excerptOf(body.slice(index, index + m[0].length)),
        });
      }
    }
  }
  // The shape of an injection (two independent signals in one paragraph), whatever the wording.
  // Signals read the text as written and, where folding changed it (leet digits, look-alike
  // letters inside Latin words, emphasis markers), the folded copy: same offsets, same lines.
  // Only the changed regions are read folded (views[1…], each with its offset into the body).
  const signalled = new Set<string>();
  for (const view of views) {
    for (const hit of signalHits(view.text, keywords, scope !== 'memory', small, ascii ? false : undefined)) {
      const { line, start, end } = lineOf(body, starts, hit.index + view.offset);
      const key = `${line}\0${hit.kinds.join('+')}`;
      if (signalled.has(key)) continue;
      signalled.add(key);
      for (const category of hit.categories) {
        matches.push({ category, pattern: `signals(${hit.kinds.join('+')})`, line: line + firstLine - 1, excerpt: how + excerptOf(body.slice(start, Math.min(end, start + 200))) });
      }
    }
  }
  if (derive) {
    for (const view of [...normalizedViews(body, ascii), ...decodedViews(body, starts, bodyKeywords)]) {
      matches.push(...scanBody(view.text, scope, firstLine + view.line - 1, false, `(${view.how}) `, small));
    }
  }
  return matches;
}
