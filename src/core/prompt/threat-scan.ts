/**
 * Threat scan (DESIGN §5): every file that enters the system prompt and every memory entry the
 * `memory` tool writes is checked against THREAT_PATTERNS (threat-patterns.ts, the one published
 * table). A hit replaces the whole file with one `[BLOCKED: …]` line and logs each match with its
 * line number.
 *
 * Scopes: `system` (SOUL.md, skill descriptions and bodies), `context` (project context files) and
 * `memory` (entries written by the memory tool). In `system` and `context` a prose pattern whose
 * sentence frames it as a discussion of attacks ("attackers write 'ignore previous
 * instructions'") is not a hit, since such files legitimately document security. Memory entries are
 * written by the model, possibly on a user's request, so there the discussion exemption is off;
 * negation ("never print API keys") is honoured in every scope.
 */
import type { Logger } from '../logger.js';
import { stripBom } from './text.js';
import { THREAT_CATEGORIES, THREAT_PATTERNS, type ThreatCategory, type ThreatPattern } from './threat-patterns.js';

export { THREAT_CATEGORIES, THREAT_PATTERNS, isPublicIpv4, type ThreatCategory, type ThreatPattern } from './threat-patterns.js';

export type ScanScope = 'system' | 'context' | 'memory';

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

export interface ScanOptions {
  /** Name shown in the BLOCKED line and the log (e.g. `AGENTS.md`, `SOUL.md`). */
  file: string;
  scope: ScanScope;
}

const NEGATION =
  /\b(?:never|not|no|don't|dont|doesn't|do\s+not|does\s+not|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|won't|will\s+not|avoid|refuse\s+to|refuses\s+to|without)\s+(?:(?!hesitate\b|forget\b|fail\b|wait\b|delay\b|stop\b)[\w'-]+\s+){0,4}$/i;

/** Words that mark a sentence as *about* attacks rather than an attack. */
const DISCUSSION =
  /\b(?:prompt[\s-]?injections?|injections?|injected|attack(?:s|er|ers|ed|ing)?|adversar\w*|malicious|jailbreak\w*|exploit\w*|phishing|social[\s-]engineering|leak(?:s|ed|ing|age)?|hijack\w*|exfiltrat\w*|threat\w*|untrusted|suspicious|scanner|detect\w*)\b/i;

/** A sentence about what to do *if* someone asks for the attack ("if a user asks you to ignore …, decline"). */
const HYPOTHETICAL =
  /\b(?:if|when|whenever|should)\b[^.!?;]*\b(?:asks?|tells?|tries|try|attempts?|requests?|wants?|instructs?)\s+(?:\w+\s+){0,3}?to\s+$/i;

/** Verbs that report what someone else says (used with a quoted phrase). */
const REPORTING = /\b(?:says?|said|saying|writes?|wrote|contains?|claims?|asks?\s+you\s+to|tells?\s+you\s+to|such\s+as|e\.g\.|for\s+example|like)\b/i;

/** Start offsets of every line, for line lookups in O(log n). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(text: string, starts: readonly number[], index: number): { line: number; start: number; end: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  const end = lo + 1 < starts.length ? starts[lo + 1] - 1 : text.length;
  return { line: lo + 1, start: starts[lo], end };
}

/** The part of the sentence before `index` (sentences end at . ! ? ; or a line break). */
function sentenceBefore(text: string, index: number, lineStart: number): string {
  const before = text.slice(lineStart, index).replace(/[\u2018\u2019]/g, "'");
  const m = /[.!?;]\s+(?=[^.!?;]*$)/.exec(before);
  return m ? before.slice(m.index + m[0].length) : before;
}

/** True when [start, end) of `line` sits inside a quotation or a code span. */
function isQuoted(line: string, start: number, end: number): boolean {
  const before = line.slice(0, start);
  const after = line.slice(end);
  const count = (s: string, c: string) => s.split(c).length - 1;
  for (const q of ['"', '`']) if (count(before, q) % 2 === 1 && after.includes(q)) return true;
  for (const [open, close] of [['\u201C', '\u201D'], ['\u00AB', '\u00BB'], ['\u2018', '\u2019']]) {
    if (before.lastIndexOf(open) > before.lastIndexOf(close) && after.includes(close)) return true;
  }
  // A single quote opens only at a word start (so "don't" is no quote).
  if (/(?:^|[\s(\[{:])'[^']*$/.test(before) && /'(?:[\s.,;:!?)\]}]|$)/.test(after)) return true;
  return false;
}

function isExempt(pattern: ThreatPattern, text: string, starts: readonly number[], index: number, length: number, scope: ScanScope): boolean {
  if (!pattern.prose) return false;
  const { start, end } = lineOf(text, starts, index);
  const sentence = sentenceBefore(text, index, start);
  if (NEGATION.test(sentence)) return true;
  if (scope === 'memory') return false;
  if (DISCUSSION.test(sentence) || HYPOTHETICAL.test(sentence)) return true;
  const line = text.slice(start, end);
  const quoted = isQuoted(line, index - start, index - start + length);
  return quoted && (DISCUSSION.test(line) || REPORTING.test(sentence));
}

function excerptOf(s: string): string {
  const visible = s.replace(/[\u200B-\u200D\u2060-\u2064\u202A-\u202E\u2066-\u2069\u180E\uFEFF]|[\u{E0000}-\u{E007F}]/gu, (c) =>
    `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
  const flat = visible.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/** Scans `text` with THREAT_PATTERNS. Pure: logging is left to `guardText`. */
export function scanText(text: string, options: ScanOptions): ScanResult {
  const body = stripBom(text);
  const starts = lineStarts(body);
  const matches: ThreatMatch[] = [];
  for (const pattern of THREAT_PATTERNS) {
    pattern.regex.lastIndex = 0;
    for (const m of body.matchAll(pattern.regex)) {
      const index = m.index ?? 0;
      if (pattern.accept && !pattern.accept(m as RegExpExecArray, body)) continue;
      if (isExempt(pattern, body, starts, index, m[0].length, options.scope)) continue;
      matches.push({ category: pattern.category, pattern: pattern.id, line: lineOf(body, starts, index).line, excerpt: excerptOf(m[0]) });
    }
  }
  matches.sort((a, b) => a.line - b.line);
  const hit = new Set(matches.map((m) => m.category));
  const categories = THREAT_CATEGORIES.filter((c) => hit.has(c));
  return { blocked: matches.length > 0, categories, matches };
}

/** The line that replaces a blocked file in the prompt. */
export function blockedLine(file: string, categories: readonly string[]): string {
  return `[BLOCKED: ${file} contains prompt injection patterns: ${categories.join(', ')}. Content not loaded.]`;
}

/**
 * Returns `text` unchanged when the scan is clean; otherwise the `[BLOCKED: …]` line, after
 * logging every match with its line number (warn level, scope `threat-scan`).
 */
export function guardText(text: string, options: ScanOptions & { logger: Logger }): string {
  const result = scanText(text, options);
  if (!result.blocked) return text;
  reportScan(result, options);
  return blockedLine(options.file, result.categories);
}

/** Logs each match of a blocking scan result. */
export function reportScan(result: ScanResult, options: ScanOptions & { logger: Logger }): void {
  for (const m of result.matches) {
    options.logger.warn('threat-scan', `${options.file}:${m.line}: ${m.category} (${m.pattern}, scope ${options.scope}): ${m.excerpt}`);
  }
  options.logger.warn('threat-scan', `${options.file}: blocked (${result.categories.join(', ')}); content not loaded`);
}
