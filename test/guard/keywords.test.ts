/**
 * The keyword prefilter (src/guard/keywords.ts) skips a pattern when a text holds none of its pieces
 * (KEYWORDS) or lacks every piece of one group (REQUIRES). That is only sound if every match of the
 * pattern holds those pieces itself. This runs each pattern's regex with no prefilter over every
 * text the repository has (attacks, benign texts, red-team sets, READMEs, each also folded) and
 * fails on a match whose own text lacks the pieces: a pattern whose keywords were not kept in step.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { foldForScan } from '../../src/guard/fold.js';
import { intentPatterns } from '../../src/guard/intents.js';
import { KEYWORDS, keywordsIn, NON_ASCII_KEY, REQUIRES } from '../../src/guard/keywords.js';
import { THREAT_PATTERNS } from '../../src/guard/patterns.js';
import { readmes } from '../../scripts/guard-data.js';
import { ATTACKS, BENIGN } from './corpus.js';
import { REDTEAM } from './redteam/corpus.js';

interface Checked {
  id: string;
  regex: RegExp;
  accept?: (match: RegExpExecArray, text: string) => boolean;
}

const patterns: Checked[] = [...THREAT_PATTERNS, ...intentPatterns()];

function corpusTexts(): string[] {
  const dir = new URL('./redteam/', import.meta.url);
  const json = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => (JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { text: string }[]).map((c) => c.text));
  const texts = [...ATTACKS, ...BENIGN].map((e) => e.text).concat(REDTEAM.map((c) => c.text), json, readmes().map((r) => r.text));
  return texts.flatMap((t) => {
    const folded = foldForScan(t);
    return folded === t ? [t] : [t, folded];
  });
}

/** The pieces a match lacks: '' when it has what KEYWORDS and REQUIRES say every match has. */
function missing(id: string, matched: string): string {
  const found = keywordsIn([matched]);
  const has = (k: string) => found.has(k) || (k === NON_ASCII_KEY && /[^\0-\x7f]/.test(matched));
  const any = KEYWORDS[id];
  if (any && !any.some(has)) return `none of KEYWORDS [${any.join(', ')}]`;
  for (const group of REQUIRES[id] ?? []) if (!group.some(has)) return `none of REQUIRES [${group.join(', ')}]`;
  return '';
}

/**
 * Every match of `p` in `texts`, as the scan would take it (its `accept` test included): the matched
 * text, or, for a pattern that looks ahead or behind for a piece (`curl … (?=… | sh)`), the lines
 * the match is on, which is as far as those look-arounds read.
 */
function* matchesOf(p: Checked, texts: readonly string[]): Generator<string> {
  const regex = new RegExp(p.regex.source, p.regex.flags.includes('g') ? p.regex.flags : `${p.regex.flags}g`);
  const looksAround = /\(\?<?=/.test(p.regex.source);
  for (const text of texts) {
    let n = 0;
    for (const m of text.matchAll(regex)) {
      if (p.accept && !p.accept(m as RegExpExecArray, text)) continue;
      const end = m.index + m[0].length;
      yield looksAround ? text.slice(text.lastIndexOf('\n', m.index) + 1, (text.indexOf('\n', end) + 1 || text.length + 1) - 1) : m[0];
      if (++n >= 50) break;
    }
  }
}

describe('keyword prefilter', () => {
  const texts = corpusTexts();

  it('has keywords for most patterns, each lower-case ASCII (what the automaton reads)', () => {
    const keyed = patterns.filter((p) => KEYWORDS[p.id] || REQUIRES[p.id]);
    expect(keyed.length).toBeGreaterThan(50);
    const ids = new Set(patterns.map((p) => p.id));
    expect(Object.keys(KEYWORDS).filter((id) => !ids.has(id))).toEqual([]);
    expect(Object.keys(REQUIRES).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('every match of every keyed pattern, in every text of the repository, holds its keywords', () => {
    const gaps: string[] = [];
    let checked = 0;
    for (const p of patterns) {
      if (!KEYWORDS[p.id] && !REQUIRES[p.id]) continue;
      for (const matched of matchesOf(p, texts)) {
        checked++;
        const lack = missing(p.id, matched);
        if (lack) gaps.push(`${p.id}: ${JSON.stringify(matched.slice(0, 120))} has ${lack}`);
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect([...new Set(gaps)]).toEqual([]);
  }, 300_000);
});
