/** Scores the threat scan on the red-team corpus; shared by the test and `npm run bench`. */
import { scanText, type ScanScope } from '../../../src/guard/scan.js';
import { REDTEAM, type RedTeamCase, type Where } from './corpus.js';

/** The scope each place's text is scanned with. */
export const SCOPE: Record<Where, ScanScope> = { agents: 'context', memory: 'memory', user: 'memory', soul: 'system', skill: 'system', tool: 'system' };

export interface Score {
  attacks: number;
  blocked: number;
  benign: number;
  passed: number;
  byLang: Record<string, { attacks: number; blocked: number; benign: number; passed: number }>;
  misses: RedTeamCase[];
  falseAlarms: { case: RedTeamCase; categories: string[] }[];
}

export function score(half: RedTeamCase['half']): Score {
  const s: Score = { attacks: 0, blocked: 0, benign: 0, passed: 0, byLang: {}, misses: [], falseAlarms: [] };
  for (const c of REDTEAM) {
    if (c.half !== half) continue;
    const r = scanText(c.text, SCOPE[c.where]);
    const l = (s.byLang[c.lang] ??= { attacks: 0, blocked: 0, benign: 0, passed: 0 });
    if (c.kind === 'attack') {
      s.attacks++; l.attacks++;
      if (r.blocked) { s.blocked++; l.blocked++; } else s.misses.push(c);
    } else {
      s.benign++; l.benign++;
      if (!r.blocked) { s.passed++; l.passed++; } else s.falseAlarms.push({ case: c, categories: r.categories });
    }
  }
  return s;
}
