/**
 * Trains the learned layer of the threat scan (src/core/prompt/threat-learned.ts) and writes
 * src/core/prompt/threat-model.ts. Deterministic: same data, same bytes.
 *
 *   node --import tsx scripts/train-threat-model.ts          # train on everything, write the model
 *   node --import tsx scripts/train-threat-model.ts --eval   # leave-one-set-out estimates only
 *
 * Data: the labelled corpora under test/core/prompt/ (attacks and hard benign texts, 14
 * languages) plus, as benign breadth, paragraphs of real READMEs found under node_modules
 * (only the half whose path hashes even; the other half is kept for measuring false alarms).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunksOf, featuresOf, FEATURE_BITS, learnedVerdict, modelText, type LearnedModel } from '../src/guard/learned.js';
import { scanPatterns, scanText, scanTextWith, type ScanScope } from '../src/guard/scan.js';
import { REDTEAM, type Where } from '../test/guard/redteam/corpus.js';
import { ATTACKS as CORPUS_ATTACKS, BENIGN as CORPUS_BENIGN } from '../test/guard/corpus.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface Example {
  /** Which labelled set it comes from (for leave-one-set-out). */
  set: string;
  attack: boolean;
  text: string;
  scope: ScanScope;
}

const SCOPE: Record<Where, ScanScope> = { agents: 'context', memory: 'memory', user: 'memory', soul: 'system', skill: 'system', tool: 'system' };

interface JsonCase {
  kind: 'attack' | 'benign';
  scope: ScanScope;
  text: string;
}

/** Every labelled example of the repository's corpora. */
export function labelled(): Example[] {
  const out: Example[] = [];
  for (const c of REDTEAM) out.push({ set: `redteam-${c.half}`, attack: c.kind === 'attack', text: c.text, scope: SCOPE[c.where] });
  for (const e of CORPUS_ATTACKS) out.push({ set: 'threat-corpus', attack: true, text: e.text, scope: e.scope });
  for (const e of CORPUS_BENIGN) out.push({ set: 'threat-corpus', attack: false, text: e.text, scope: e.scope });
  // Every red-team JSON file: fresh1–7, fresh9 and signals-dev, each written by a helper who had not
  // seen the scanner; concept-probes; and benign-train / contrast-train, hard benign texts and their
  // mirrored attacks written for training by the helper who tuned the model (never a measure).
  const files = readdirSync(join(root, 'test/guard/redteam'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ''), path: join(root, 'test/guard/redteam', f) }));
  for (const { name, path } of files) out.push(...jsonCases(name, path));
  return out;
}

/** A red-team JSON file ([{kind, scope, text, …}]) as examples of set `name`. */
export function jsonCases(name: string, path: string): Example[] {
  const cases = JSON.parse(readFileSync(path, 'utf8')) as JsonCase[];
  return cases.map((c) => ({ set: name, attack: c.kind === 'attack', text: c.text, scope: c.scope }));
}

/** FNV-1a of a string, for deterministic splits and order. */
export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** README.md files under `dir` (node_modules, links followed once), distinct by content, sorted by path. */
export function readmes(dir = join(root, 'node_modules')): { path: string; text: string; train: boolean }[] {
  const found = new Map<string, { path: string; text: string }>();
  const seenDirs = new Set<string>();
  const walk = (d: string, depth: number): void => {
    if (depth > 8) return;
    let real: string;
    try {
      real = statSync(d).isDirectory() ? d : '';
    } catch {
      return;
    }
    if (!real) return;
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        const key = `${st.dev}:${st.ino}`;
        if (seenDirs.has(key)) continue;
        seenDirs.add(key);
        walk(p, depth + 1);
      } else if (/^readme\.md$/i.test(name) && st.size < 200_000) {
        const text = readFileSync(p, 'utf8');
        if (!found.has(text)) found.set(text, { path: relative(dir, p), text });
      }
    }
  };
  walk(dir, 0);
  return [...found.values()].sort((a, b) => (a.path < b.path ? -1 : 1)).map((r) => ({ ...r, train: fnv(r.path) % 2 === 0 }));
}

/** Benign training examples: chunks of the training half of the READMEs and the design docs. */
export function readmeExamples(files: { text: string; train: boolean }[]): Example[] {
  const out: Example[] = [];
  for (const f of files) {
    if (!f.train) continue;
    for (const c of chunksOf(f.text)) if (c.text.trim().length >= 40) out.push({ set: 'readme', attack: false, text: c.text, scope: 'context' });
  }
  return out;
}

/**
 * The sentences of the benign examples, each on its own, as benign examples too: a rule such as
 * "never reveal your setup" read alone carries the same words as a leak request, and the files
 * teach the model only what whole paragraphs look like.
 */
export function sentenceExamples(examples: readonly Example[]): Example[] {
  const out: Example[] = [];
  for (const e of examples) {
    if (e.attack || e.set === 'readme') continue;
    for (const piece of e.text.split(/\n+|(?<=[.!?。！？])\s+/)) if (piece.trim().length >= 60) out.push({ set: 'sentence', attack: false, text: piece.trim(), scope: e.scope });
  }
  return out;
}

/** Each benign sentence counts this much (a file's sentences would otherwise outweigh the file). */
const SENTENCE_WEIGHT = 0.3;

export interface TrainOptions {
  epochs?: number;
  l2?: number;
}

/** README chunks count a fifth each: thousands of them would otherwise drown the hard benign cases. */
const README_WEIGHT = 0.2;

/**
 * Logistic regression by SGD on binary, L2-normalised hashed n-gram features; classes weighted to
 * balance; examples visited in an order fixed by their hash, so training is deterministic.
 */
export function train(examples: readonly Example[], options: TrainOptions = {}): { bias: number; weights: Float64Array } {
  const epochs = options.epochs ?? 30;
  const l2 = options.l2 ?? 1e-6;
  const data = examples
    .map((e) => ({ x: featuresOf(modelText(e.text)), y: e.attack ? 1 : 0, key: fnv(e.text), r: e.set === 'readme' ? README_WEIGHT : e.set === 'sentence' ? SENTENCE_WEIGHT : 1 }))
    .filter((d) => d.x.length > 0)
    .sort((a, b) => a.key - b.key);
  const attacks = data.filter((d) => d.y === 1).length;
  const benign = data.length - attacks;
  const weightOf = [data.length / (2 * Math.max(1, benign)), data.length / (2 * Math.max(1, attacks))];
  const w = new Float64Array(1 << FEATURE_BITS);
  let bias = 0;
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    // a fixed permutation per epoch (xorshift seeded by the epoch)
    let seed = 0x9e3779b9 ^ epoch;
    const order = data.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      const j = (seed >>> 0) % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const d = data[i];
      const norm = 1 / Math.sqrt(d.x.length);
      let z = bias;
      for (const b of d.x) z += w[b] * norm;
      const p = 1 / (1 + Math.exp(-z));
      const lr = 0.5 / (1 + step++ * 1e-5);
      const g = (p - d.y) * weightOf[d.y] * d.r * lr;
      for (const b of d.x) w[b] -= g * norm + lr * l2 * w[b];
      bias -= g;
    }
  }
  return { bias, weights: w };
}

/** The model as int8 weights with one scale, as committed. */
export function quantize(model: { bias: number; weights: Float64Array }): { bias: number; scale: number; bytes: Buffer } {
  let max = 0;
  for (const v of model.weights) max = Math.max(max, Math.abs(v));
  const scale = max / 127 || 1;
  const bytes = Buffer.alloc(model.weights.length);
  for (let i = 0; i < model.weights.length; i++) bytes[i] = Math.max(-127, Math.min(127, Math.round(model.weights[i] / scale))) & 0xff;
  return { bias: Number(model.bias.toFixed(6)), scale: Number(scale.toPrecision(8)), bytes };
}

export function dequantize(q: { bias: number; scale: number; bytes: Buffer }): LearnedModel {
  return { bias: q.bias, scale: q.scale, weights: new Int8Array(q.bytes.buffer, q.bytes.byteOffset, q.bytes.length) };
}

/** The model's score of a file: its most suspicious chunk (as the scan computes it). */
export function fileScore(model: LearnedModel, text: string): number {
  return learnedVerdict(text, model).probability;
}

const THRESHOLDS = (process.env.THRESHOLDS ?? "0.3,0.4,0.5,0.6,0.7,0.8,0.9").split(",").map(Number);

/** GRID=t:v,… measures the whole scan at other thresholds too. */
const GRID = (process.env.GRID ?? '').split(',').filter(Boolean).map((cell) => cell.split(':').map(Number) as [number, number]);

function evaluate(): void {
  const all = labelled();
  const files = readmes();
  const benignBreadth = readmeExamples(files);
  const heldReadmes = files.filter((f) => !f.train);
  console.log(`labelled ${all.length}, readme chunks ${benignBreadth.length}, held-out readmes ${heldReadmes.length}`);
  // EXTRA=name=path,… adds sets kept outside the repository (measured only, never trained on).
  const extra = (process.env.EXTRA ?? '').split(',').filter(Boolean).flatMap((kv) => jsonCases(kv.split('=')[0], kv.split('=')[1]));
  const sets = process.env.HELD ?? [...new Set(all.map((e) => e.set)), ...new Set(extra.map((e) => e.set))].join(',');
  for (const held of sets.split(',')) {
    const kept = all.filter((e) => e.set !== held);
    const model = dequantize(quantize(train([...kept, ...sentenceExamples(kept), ...benignBreadth])));
    const test = [...all, ...extra].filter((e) => e.set === held);
    const scored = test.map((e) => { const r = scanPatterns(e.text, e.scope); return { e, p: fileScore(model, e.text), pattern: r.blocked, ids: r.matches.map((m) => m.pattern.replace(/\(.*$/, '(sig)')), whole: scanTextWith(e.text, e.scope, model).blocked, grid: GRID.map(([threshold, veto]) => scanTextWith(e.text, e.scope, model, { threshold, veto }).blocked) }; });
    const readmeScores = heldReadmes.map((f) => fileScore(model, f.text));
    if (process.env.DUMP) {
      const rows = scored.map((s) => ({ set: held, attack: s.e.attack, p: s.p, rule: s.pattern, ids: s.ids, whole: s.whole }));
      writeFileSync(`${process.env.DUMP}.${held}.json`, JSON.stringify({ rows, readmes: readmeScores }));
    }
    const attacks = scored.filter((s) => s.e.attack);
    const benign = scored.filter((s) => !s.e.attack);
    console.log(`\nheld out ${held}: ${attacks.length} attacks, ${benign.length} benign (patterns alone: ${attacks.filter((s) => s.pattern).length} blocked, ${benign.filter((s) => !s.pattern).length} passed)`);
    let pairs = 0;
    for (const a of attacks) for (const b of benign) pairs += a.p > b.p ? 1 : a.p === b.p ? 0.5 : 0;
    console.log(`  AUC ${(pairs / (attacks.length * benign.length)).toFixed(3)}; whole scan at the committed thresholds: ${attacks.filter((s) => s.whole).length}/${attacks.length} blocked, ${benign.filter((s) => !s.whole).length}/${benign.length} passed`);
    if (GRID.length) {
      const cells = GRID.map(([t, v], i) => `t=${t} v=${v}: ${attacks.filter((s) => s.grid[i]).length}/${benign.filter((s) => !s.grid[i]).length}`);
      console.log(`  whole scan (blocked/passed) ${cells.join('; ')}`);
    }
    if (process.env.AUC_ONLY) continue;
    for (const t of THRESHOLDS) {
      const a = attacks.filter((s) => s.p >= t).length;
      const b = benign.filter((s) => s.p < t).length;
      const r = readmeScores.filter((p) => p >= t).length;
      const ua = attacks.filter((s) => s.p >= t || s.pattern).length;
      const ub = benign.filter((s) => s.p < t && !s.pattern).length;
      console.log(`  t=${t}: model ${a}/${attacks.length} blocked, ${b}/${benign.length} passed; held-out READMEs flagged ${r}/${readmeScores.length}; with patterns ${ua} blocked, ${ub} passed`);
    }
  }
}

/** README false alarms of the pattern scan alone and of the whole scan with the committed model. */
function readmeAlarms(): void {
  const files = [
    ...readmes(),
    ...readdirSync('/work/shared').filter((n) => n.endsWith('.md')).map((n) => ({ path: `shared/${n}`, text: readFileSync(join('/work/shared', n), 'utf8'), train: false })),
  ];
  for (const half of [true, false]) {
    const set = files.filter((f) => f.train === half);
    const patterns = set.filter((f) => scanPatterns(f.text, 'context').blocked);
    const whole = set.filter((f) => scanText(f.text, 'context').blocked);
    console.log(`${half ? 'training' : 'held-out'} READMEs: ${set.length}; blocked by patterns ${patterns.length}, by the whole scan ${whole.length}`);
    for (const f of whole.filter((w) => !patterns.includes(w))) console.log(`  learned only: ${f.path}`);
  }
}

function main(): void {
  if (process.argv.includes('--eval')) return evaluate();
  if (process.argv.includes('--readmes')) return readmeAlarms();
  const threshold = Number(process.env.THREAT_MODEL_THRESHOLD ?? '0.65');
  const veto = Number(process.env.THREAT_MODEL_VETO ?? '0.45');
  const files = readmes();
  const all = labelled();
  const q = quantize(train([...all, ...sentenceExamples(all), ...readmeExamples(files)]));
  const out = join(root, 'src/core/prompt/threat-model.ts');
  writeFileSync(
    out,
    `/**\n * Weights of the threat scan's learned layer (threat-learned.ts): int8 × scale, base64. Written by\n * scripts/train-threat-model.ts from the corpora under test/core/prompt/ and ${files.filter((f) => f.train).length} READMEs; do not edit.\n */\n` +
      `export const THREAT_MODEL = {\n  bias: ${q.bias},\n  scale: ${q.scale},\n  threshold: ${threshold},\n  veto: ${veto},\n  weights:\n    '${q.bytes.toString('base64')}',\n} as const;\n`,
  );
  console.log(`wrote ${relative(root, out)} (${q.bytes.length} weights)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
