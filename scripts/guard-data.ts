/**
 * The data the guard's learned layer is trained and measured on, all of it in this repository:
 *
 * - the red-team sets that measure: test/guard/redteam/corpus.ts (its own dev/holdout halves),
 *   fresh5.json and fresh9.json (written by helpers who never saw the scanner, measured untouched
 *   when they came), each cut into a train half and a holdout half (a JSON case is held out when
 *   the FNV-1a hash of its text is odd). The holdout halves are never trained on; they are what
 *   `--holdout` reports.
 * - sets trained on whole, because the patterns were tuned on them by hand and so none of their
 *   halves could be a holdout any more (the tests call them dev or regression sets): fresh1–4,
 *   fresh6, fresh7, signals-dev, concept-probes; test/guard/corpus.ts (the regression corpus, every
 *   case a required behaviour); benign-train.json and contrast-train.json (hard benign texts and
 *   their mirrored attacks, written for training, never a measure).
 * - benign breadth: test/guard/data/benign-readmes.txt, README files of npm packages collected
 *   once (its header says from where); each is marked train or holdout.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScanScope } from '../src/core/guard.js';
import { REDTEAM, type Where } from '../test/guard/redteam/corpus.js';
import { ATTACKS as CORPUS_ATTACKS, BENIGN as CORPUS_BENIGN } from '../test/guard/corpus.js';

export const root = fileURLToPath(new URL('..', import.meta.url));
const REDTEAM_DIR = join(root, 'test/guard/redteam');
export const READMES_FILE = join(root, 'test/guard/data/benign-readmes.txt');

export type Half = 'train' | 'holdout';

export interface Example {
  /** Which labelled set it comes from (for leave-one-set-out and the holdout report). */
  set: string;
  attack: boolean;
  text: string;
  scope: ScanScope;
  half: Half;
}

const SCOPE: Record<Where, ScanScope> = { agents: 'context', memory: 'memory', user: 'memory', soul: 'system', skill: 'system', tool: 'system' };

/** The JSON sets that measure, split into halves; every other JSON set is trained on whole (see above). */
const SPLIT_SETS = new Set(['fresh5', 'fresh9']);

interface JsonCase {
  kind: 'attack' | 'benign';
  scope: ScanScope;
  text: string;
}

/** FNV-1a of a string, for deterministic splits and order. */
export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Every labelled example of the repository's corpora, each with its half. */
export function labelled(): Example[] {
  const out: Example[] = [];
  for (const c of REDTEAM) {
    out.push({ set: 'redteam', attack: c.kind === 'attack', text: c.text, scope: SCOPE[c.where], half: c.half === 'dev' ? 'train' : 'holdout' });
  }
  for (const e of CORPUS_ATTACKS) out.push({ set: 'threat-corpus', attack: true, text: e.text, scope: e.scope, half: 'train' });
  for (const e of CORPUS_BENIGN) out.push({ set: 'threat-corpus', attack: false, text: e.text, scope: e.scope, half: 'train' });
  const files = readdirSync(REDTEAM_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const f of files) out.push(...jsonCases(f.replace(/\.json$/, ''), join(REDTEAM_DIR, f)));
  return out;
}

/** A red-team JSON file ([{kind, scope, text, …}]) as examples of set `name`, split when it is one of SPLIT_SETS. */
export function jsonCases(name: string, path: string): Example[] {
  const cases = JSON.parse(readFileSync(path, 'utf8')) as JsonCase[];
  return cases.map((c) => ({
    set: name,
    attack: c.kind === 'attack',
    text: c.text,
    scope: c.scope,
    half: !SPLIT_SETS.has(name) || fnv(c.text) % 2 === 0 ? 'train' : 'holdout',
  }));
}

export interface Readme {
  /** Where it was collected from (`node_modules/<package>/README.md (<name>@<version>, <licence>)`). */
  source: string;
  text: string;
  half: Half;
}

/** The READMEs of test/guard/data/benign-readmes.txt: each starts at a line `@@@ <train|holdout> <source>`. */
export function readmes(path = READMES_FILE): Readme[] {
  const out: Readme[] = [];
  const parts = readFileSync(path, 'utf8').split(/^@@@ /m).slice(1);
  for (const part of parts) {
    const nl = part.indexOf('\n');
    const [half, ...source] = part.slice(0, nl).split(' ');
    if (half !== 'train' && half !== 'holdout') throw new Error(`${path}: a README marked '${half}', not train or holdout`);
    out.push({ source: source.join(' '), text: part.slice(nl + 1), half });
  }
  return out;
}

/** SHA-256 (hex) of what training reads: every training example and README, in order, as JSON lines. */
export function dataHash(examples: readonly Example[], files: readonly Readme[]): string {
  const hash = createHash('sha256');
  for (const e of examples) hash.update(JSON.stringify([e.set, e.attack, e.scope, e.text]) + '\n');
  for (const f of files) hash.update(JSON.stringify([f.source, f.text]) + '\n');
  return hash.digest('hex');
}
