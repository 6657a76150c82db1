/**
 * Identity check for threat-scan speed work: runs the scan over every red-team case (the JSON
 * files in test/guard/redteam/ and /work/redteam/, the TS corpora) and the bench's 1 MB
 * text, and prints one line per case with the full result: blocked, categories, every match
 * (pattern, category, line, excerpt), the pattern layers' result before the learned veto, and
 * the learned score. Diff two runs' output: a speed change must leave it byte-identical.
 *
 *   node --import tsx scripts/scan-dump.ts > /tmp/before.txt
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { scanPatterns, scanText, type ScanResult, type ScanScope } from '../src/guard/scan.js';
import { learnedVerdict } from '../src/guard/learned.js';
import { REDTEAM } from '../test/guard/redteam/corpus.js';
import { ATTACKS, BENIGN } from '../test/guard/corpus.js';
import { scanInput } from '../bench/scan-input.js';

interface Case { name: string; scope: ScanScope; file: string; text: string }

const cases: Case[] = [];
for (const dir of ['test/guard/redteam', '/work/redteam']) {
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const list = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { kind: string; scope: ScanScope; file: string; lang: string; text: string }[];
    list.forEach((c, i) => cases.push({ name: `${dir}/${f}#${i}:${c.kind}:${c.lang}`, scope: c.scope, file: c.file, text: c.text }));
  }
}
const SCOPE = { agents: 'context', memory: 'memory', user: 'memory', soul: 'system', skill: 'system', tool: 'system' } as const;
REDTEAM.forEach((c, i) => cases.push({ name: `corpus.ts#${i}:${c.kind}:${c.lang}`, scope: SCOPE[c.where], file: 'case', text: c.text }));
[...ATTACKS, ...BENIGN].forEach((c, i) => cases.push({ name: `threat-corpus.ts#${i}:${c.name}`, scope: c.scope, file: 'case', text: c.text }));

const big = scanInput();
for (const scope of ['context', 'system', 'memory'] as const) cases.push({ name: `bench-1MB:${scope}`, scope, file: 'AGENTS.md', text: big });
cases.push({ name: 'bench-10k', scope: 'context', file: 'AGENTS.md', text: big.slice(0, 10_000) });
// all the attacks in one big file, then all the benign texts in one big file (large-text code paths)
const joined = (kind: string) => cases.filter((c) => c.name.includes(`:${kind}`)).map((c) => c.text).join('\n\n');
cases.push({ name: 'all-attacks-joined', scope: 'context', file: 'AGENTS.md', text: joined('attack') });
cases.push({ name: 'all-benign-joined', scope: 'context', file: 'AGENTS.md', text: joined('benign') });
cases.push({ name: 'bench-1MB-with-attacks', scope: 'context', file: 'AGENTS.md', text: big.slice(0, 500_000) + '\n\n' + joined('attack') + '\n\n' + big.slice(500_000) });
cases.push({ name: 'all-attacks-joined:memory', scope: 'memory', file: 'AGENTS.md', text: joined('attack') });

const show = (r: ScanResult) => JSON.stringify([r.blocked, r.categories, r.matches.map((m) => [m.pattern, m.category, m.line, m.excerpt])]);
for (const c of cases) {
  const r = scanText(c.text, c.scope);
  const p = scanPatterns(c.text, c.scope);
  const l = learnedVerdict(c.text);
  process.stdout.write(`${c.name}\t${show(r)}\tpatterns=${show(p)}\tlearned=${l.probability}@${l.line}\n`);
}
