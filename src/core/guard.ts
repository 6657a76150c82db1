/**
 * The injection guard as core sees it (ARCHITECTURE.md §5 "Threat scan", §17): one `scan(text, scope)` that
 * says whether a text may enter the prompt. Core defines the interface and what a blocked text
 * becomes; the detector itself lives outside core (src/guard), and only the composition root
 * chooses one, so a unit test can pass a guard that passes everything and a deployment could
 * add a second opinion behind the same call.
 */
import type { Logger } from './logger.js';

/**
 * Where a text comes from: `system` (SOUL.md, skill descriptions and bodies), `context` (project
 * context files), `memory` (memory entries and files, written by the model). Files of the first two
 * may document attacks; memory may not.
 */
export type ScanScope = 'system' | 'context' | 'memory';

export interface ScanMatch {
  /** What the match is evidence of (`instruction_override`, `exfiltration`, …). */
  category: string;
  /** Which rule of the guard matched, for the log. */
  pattern: string;
  /** 1-based line number in the scanned text. */
  line: number;
  /** The matched text, shortened, with invisible characters spelled out. */
  excerpt: string;
}

export interface ScanResult {
  blocked: boolean;
  /** Distinct categories hit, in the guard's own order. */
  categories: readonly string[];
  matches: readonly ScanMatch[];
}

export interface Guard {
  /** Judges one text. Pure: no logging, no I/O; the same text and scope give the same result. */
  scan(text: string, scope: ScanScope): ScanResult;
  /** Builds now what the guard would otherwise build on its first scan (so the first turn is not slower). */
  prepare?(): void;
}

/** What a text that is not scanned becomes: itself. For tests whose subject is not the guard. */
export const PASS_ALL_GUARD: Guard = { scan: () => ({ blocked: false, categories: [], matches: [] }) };

/** The line that replaces a blocked file in the prompt. */
export function blockedLine(file: string, categories: readonly string[]): string {
  return `[BLOCKED: ${file} contains prompt injection patterns: ${categories.join(', ')}. Content not loaded.]`;
}

export interface GuardedText {
  /** Name shown in the BLOCKED line and the log (e.g. `AGENTS.md`, `SOUL.md`). */
  file: string;
  scope: ScanScope;
  logger: Logger;
}

/**
 * Returns `text` unchanged when the scan is clean; otherwise the `[BLOCKED: …]` line, after
 * logging every match with its line number (warn level, scope `threat-scan`).
 */
export function guardText(guard: Guard, text: string, options: GuardedText): string {
  const result = guard.scan(text, options.scope);
  if (!result.blocked) return text;
  reportScan(result, options);
  return blockedLine(options.file, result.categories);
}

/** Logs each match of a blocking scan result. */
export function reportScan(result: ScanResult, options: GuardedText, outcome?: string): void {
  for (const m of result.matches) {
    options.logger.warn('threat-scan', `${options.file}:${m.line}: ${m.category} (${m.pattern}, scope ${options.scope}): ${m.excerpt}`);
  }
  options.logger.warn('threat-scan', outcome ?? `${options.file}: blocked (${result.categories.join(', ')}); content not loaded`);
}

/** What a second opinion (ARCHITECTURE.md §17, `guard.model`) says about one text. */
export type OpinionVerdict =
  | { verdict: 'injection' | 'safe'; score: number; cached: boolean }
  /** Not asked (shorter than `min_chars`) or not answered (down, slow, an answer it could not read): the scan's verdict stands. */
  | { verdict: 'skipped' | 'unavailable'; reason: string };

/** What the text is, for the judge's log lines. */
export interface OpinionSubject {
  /** `AGENTS.md`, `telegram-1001/MEMORY.md entry 2`, `tool result of web_fetch`. */
  file: string;
  scope: ScanScope | 'tool';
}

/**
 * A second opinion on texts the threat scan passed: asked about new or changed context files,
 * memory entries and long tool results. Answers are cached by content hash, so an unchanged file
 * is never asked again and a prompt built twice is the same. Never throws.
 */
export interface SecondOpinion {
  judge(text: string, subject: OpinionSubject): Promise<OpinionVerdict>;
}

/** The line that replaces a text the second opinion judged an injection. */
export function judgedLine(file: string, score: number): string {
  return `[BLOCKED: ${file} was judged a prompt injection by the guard model (score ${score.toFixed(2)}). Content not loaded.]`;
}
