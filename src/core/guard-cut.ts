/**
 * The scan cuts, not drops (ARCHITECTURE.md §5 "Threat scan", §17): a flagged context file or SOUL.md
 * loses only the flagged sections, Markdown heading to heading, each replaced by a notice naming
 * file and section. The whole file is still blocked when cutting would not leave a trustworthy
 * rest: a short file, one without headings, one flagged in more than MAX_CUT sections, one that
 * would lose more than half its text, or one whose remainder the scan still flags.
 */
import { blockedLine, reportScan, type Guard, type GuardedText, type ScanResult } from './guard.js';

export const CUT_LIMITS = {
  /** Files shorter than this (characters) are blocked whole: too little is left to be worth keeping. */
  minChars: 2000,
  /** More flagged sections than this is "flagged in several places": blocked whole. */
  maxSections: 2,
  /** Cutting more than this share of the text blocks the file whole. */
  maxShare: 0.5,
} as const;

export interface Section {
  /** The heading line (`## Deploy`), or '' for the text before the first heading. */
  heading: string;
  /** 1-based first and last line. */
  from: number;
  to: number;
}

const HEADING = /^ {0,3}#{1,6}[ \t]+\S/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The Markdown sections of `text`: heading to heading (headings inside fenced code do not count). */
export function sectionsOf(lines: readonly string[]): Section[] {
  const sections: Section[] = [{ heading: '', from: 1, to: lines.length }];
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const f = FENCE.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      return;
    }
    if (fence === null && HEADING.test(line)) {
      sections.at(-1)!.to = i;
      sections.push({ heading: line.trim(), from: i + 1, to: lines.length });
    }
  });
  return sections.filter((s) => s.to >= s.from);
}

/** The notice that stands where a flagged section was. */
export function removedLine(file: string, heading: string, categories: readonly string[]): string {
  const where = heading ? `section "${heading.replace(/^#+\s*/, '')}"` : 'the text before its first heading';
  return `[REMOVED: ${where} of ${file} contains prompt injection patterns: ${categories.join(', ')}. Section not loaded.]`;
}

/**
 * `text` without the sections the scan flagged, or null when the file must be blocked whole (see
 * the module comment). `result` is the scan of `text`.
 */
export function cutSections(text: string, result: ScanResult, file: string): { text: string; cut: Section[] } | null {
  if (text.length < CUT_LIMITS.minChars) return null;
  const lines = text.split('\n');
  const sections = sectionsOf(lines);
  if (sections.length < 2) return null;
  const flagged = new Map<Section, Set<string>>();
  for (const m of result.matches) {
    const s = sections.find((x) => m.line >= x.from && m.line <= x.to);
    if (!s) return null;
    const cats = flagged.get(s) ?? new Set<string>();
    cats.add(m.category);
    flagged.set(s, cats);
  }
  if (flagged.size === 0 || flagged.size > CUT_LIMITS.maxSections) return null;
  let removed = 0;
  for (const s of flagged.keys()) removed += lines.slice(s.from - 1, s.to).join('\n').length;
  if (removed > text.length * CUT_LIMITS.maxShare) return null;
  const out: string[] = [];
  for (const s of sections) {
    const cats = flagged.get(s);
    if (cats) out.push(removedLine(file, s.heading, [...cats]), '');
    else out.push(...lines.slice(s.from - 1, s.to));
  }
  return { text: out.join('\n').trimEnd(), cut: [...flagged.keys()] };
}

export interface GuardedDocument {
  text: string;
  /** `clean`: unchanged; `cut`: flagged sections replaced by notices; `blocked`: the whole file replaced. */
  outcome: 'clean' | 'cut' | 'blocked';
  /** Headings of the sections cut. */
  sections: string[];
  categories: readonly string[];
}

/**
 * Scans a document (context file, SOUL.md) and returns what may enter the prompt: itself, itself
 * without its flagged sections, or the `[BLOCKED: …]` line. Logs every match and the outcome.
 */
export function guardDocument(guard: Guard, text: string, options: GuardedText): GuardedDocument {
  const result = guard.scan(text, options.scope);
  if (!result.blocked) return { text, outcome: 'clean', sections: [], categories: [] };
  const cut = cutSections(text, result, options.file);
  // What is left must pass on its own: a scan of the whole may weigh evidence across sections.
  if (cut && !guard.scan(cut.text, options.scope).blocked) {
    const names = cut.cut.map((s) => s.heading || '(before the first heading)');
    reportScan(result, options, `${options.file}: section(s) ${names.map((n) => `"${n}"`).join(', ')} removed (${result.categories.join(', ')}); the rest loaded`);
    return { text: cut.text, outcome: 'cut', sections: names, categories: result.categories };
  }
  reportScan(result, options);
  return { text: blockedLine(options.file, result.categories), outcome: 'blocked', sections: [], categories: result.categories };
}
