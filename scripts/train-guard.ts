/**
 * Trains the learned layer of the guard (src/guard/learned.ts) from data in this repository alone
 * (scripts/guard-data.ts says which) and writes src/guard/data/model.bin, model.json and
 * MODEL-CARD.md. Deterministic: the same data gives the same bytes.
 *
 *   npm run train:guard                # train on the train halves; write the model and its card
 *   npm run train:guard -- --check     # train again; exit 1 when the result differs from what is committed
 *   npm run train:guard -- --holdout   # the committed model's figures on the holdout halves
 *   npm run train:guard -- --eval      # leave-one-set-out over the train halves (how the thresholds were chosen)
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LearnedModel } from '../src/guard/learned.js';
import { committedModel, LEARNED_THRESHOLD, LEARNED_VETO } from '../src/guard/learned.js';
import { readModelMeta, type ModelMeta } from '../src/guard/data-files.js';
import { scanPatterns, scanTextWith } from '../src/guard/scan.js';
import { dataHash, labelled, readmes, root, type Example } from './guard-data.js';
import { dequantize, EPOCHS, fileScore, quantize, readmeExamples, sentenceExamples, train } from './guard-learn.js';

const DATA_DIR = join(root, 'src/guard/data');

/** The thresholds written with the model; how they were chosen is in MODEL-CARD.md (see `card`). */
const THRESHOLD = 0.65;
const VETO = 0.45;

/** What one training run reads and produces. */
interface Trained {
  meta: ModelMeta;
  bytes: Buffer;
  model: LearnedModel;
  examples: number;
  readmes: number;
}

function trainFromRepository(): Trained {
  const kept = labelled().filter((e) => e.half === 'train');
  const files = readmes();
  const breadth = readmeExamples(files);
  const q = quantize(train([...kept, ...sentenceExamples(kept), ...breadth]));
  const meta: ModelMeta = {
    features: q.bytes.length,
    bias: q.bias,
    scale: q.scale,
    threshold: THRESHOLD,
    veto: VETO,
    weightsSha256: createHash('sha256').update(q.bytes).digest('hex'),
    dataSha256: dataHash(kept, files.filter((f) => f.half === 'train')),
  };
  return { meta, bytes: q.bytes, model: dequantize(q), examples: kept.length, readmes: files.filter((f) => f.half === 'train').length };
}

const metaJson = (meta: ModelMeta): string => `${JSON.stringify(meta, null, 2)}\n`;

interface HalfFigures {
  set: string;
  attacks: number;
  blocked: number;
  benign: number;
  passed: number;
}

/** The whole scan with `model` on every set's holdout half, and the holdout READMEs the model alone flags. */
function holdoutFigures(model: LearnedModel, thresholds: { threshold: number; veto: number }): { sets: HalfFigures[]; readmes: { flagged: string[]; total: number } } {
  const bySet = new Map<string, HalfFigures>();
  for (const e of labelled().filter((x) => x.half === 'holdout')) {
    const f = bySet.get(e.set) ?? { set: e.set, attacks: 0, blocked: 0, benign: 0, passed: 0 };
    bySet.set(e.set, f);
    const blocked = scanTextWith(e.text, e.scope, model, thresholds).blocked;
    if (e.attack) {
      f.attacks++;
      if (blocked) f.blocked++;
    } else {
      f.benign++;
      if (!blocked) f.passed++;
    }
  }
  const held = readmes().filter((f) => f.half === 'holdout');
  const flagged = held.filter((f) => fileScore(model, f.text) >= thresholds.threshold).map((f) => f.source);
  return { sets: [...bySet.values()].sort((a, b) => (a.set < b.set ? -1 : 1)), readmes: { flagged, total: held.length } };
}

function figureLines(figures: ReturnType<typeof holdoutFigures>): string[] {
  const total = figures.sets.reduce((t, s) => ({ set: 'all', attacks: t.attacks + s.attacks, blocked: t.blocked + s.blocked, benign: t.benign + s.benign, passed: t.passed + s.passed }), {
    set: 'all',
    attacks: 0,
    blocked: 0,
    benign: 0,
    passed: 0,
  });
  const row = (s: HalfFigures) => `| ${s.set} | ${s.blocked}/${s.attacks} | ${s.passed}/${s.benign} |`;
  return [
    '| holdout half of | attacks blocked | benign passed |',
    '|---|---|---|',
    ...figures.sets.map(row),
    row(total),
    '',
    `Holdout READMEs the model alone scores at or above the threshold: ${figures.readmes.flagged.length}/${figures.readmes.total}${figures.readmes.flagged.length ? ` (${figures.readmes.flagged.join('; ')})` : ''}.`,
  ];
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function card(t: Trained, figures: ReturnType<typeof holdoutFigures>): string {
  return [
    '# Model card: the guard\'s learned layer',
    '',
    'Written by `npm run train:guard` (scripts/train-guard.ts); do not edit by hand. `npm run train:guard -- --check`',
    'rebuilds the weights from the repository alone and fails when they differ from model.bin / model.json.',
    '',
    '## What it is',
    '',
    'Logistic regression over 2^18 hashed features of the normalised text (character 3–5-grams, words and word',
    'pairs; src/guard/learned.ts), trained by SGD with balanced classes, stored as int8 weights times one scale',
    '(model.bin: one byte per feature; model.json: bias, scale, thresholds, hashes). A file is scored chunk by',
    'chunk; the scan (src/guard/scan.ts) blocks when a chunk scores `threshold` or more and nothing else hit, and',
    'overrules the broad pattern layers\' hits in chunks that all score below `veto`.',
    '',
    '## Data (all in this repository; scripts/guard-data.ts)',
    '',
    `- ${t.examples} labelled examples: the train halves of the red-team sets that measure (test/guard/redteam/corpus.ts`,
    '  by its own dev/holdout halves; fresh5.json and fresh9.json by the FNV-1a hash of the text, odd = holdout); whole:',
    '  the sets the patterns were tuned on by hand (fresh1–4, fresh6, fresh7, signals-dev, concept-probes: no half of',
    '  them could be a holdout), the regression corpus test/guard/corpus.ts, and benign-train.json and',
    '  contrast-train.json (written for training). The benign ones also count sentence by sentence (weight 0.3).',
    `- benign breadth: the paragraphs of the ${t.readmes} READMEs marked train in test/guard/data/benign-readmes.txt`,
    '  (weight 0.2 each; where they come from is in that file\'s header).',
    '- the holdout halves and the READMEs marked holdout are never trained on (train() refuses them).',
    `- ${EPOCHS} epochs of SGD (30 until the holdout halves left training; at 30 an ordinary project file in`,
    '  test/guard/learned.test.ts scored above the veto).',
    '',
    `Training data SHA-256: \`${t.meta.dataSha256}\``,
    `Weights SHA-256: \`${t.meta.weightsSha256}\``,
    `Trained on ${new Date().toISOString().slice(0, 10)} from commit ${git(['rev-parse', '--short', 'HEAD'])} (the data and code of that commit, plus any`,
    'uncommitted change to them at the time; --check is what proves the committed bytes come from the committed data).',
    '',
    '## Thresholds and how they were chosen',
    '',
    `threshold ${t.meta.threshold}, veto ${t.meta.veto}: carried over from the model before this one, where they were chosen`,
    'with the trainer\'s --eval: each labelled set left out of training in turn, the whole scan run on it at a grid of',
    'thresholds; the threshold the lowest at which no held-out README was flagged, the veto the highest that passed the',
    'hard benign sets without letting through an attack the patterns had caught. That run treated the red-team',
    'halves as sets of their own, so the holdout halves were looked at then; they have not been re-chosen since.',
    '`npm run train:guard -- --eval` now repeats that over the train halves only (GRID=t:v,… for other thresholds).',
    '',
    '## Holdout figures (the whole scan: patterns, signals and this model)',
    '',
    ...figureLines(figures),
    '',
  ].join('\n');
}

function check(): number {
  const t = trainFromRepository();
  const committedMeta = readFileSync(join(DATA_DIR, 'model.json'), 'utf8');
  const committedBytes = readFileSync(join(DATA_DIR, 'model.bin'));
  const problems: string[] = [];
  if (!committedBytes.equals(t.bytes)) {
    let differing = 0;
    for (let i = 0; i < Math.max(committedBytes.length, t.bytes.length); i++) if (committedBytes[i] !== t.bytes[i]) differing++;
    problems.push(`model.bin: ${differing} of ${t.bytes.length} weights differ`);
  }
  if (committedMeta !== metaJson(t.meta)) problems.push(`model.json differs:\n--- committed\n${committedMeta}--- rebuilt\n${metaJson(t.meta)}`);
  if (problems.length === 0) {
    console.log(`train:guard --check: the committed model is what the repository's data gives (weights ${t.meta.weightsSha256.slice(0, 12)}, data ${t.meta.dataSha256.slice(0, 12)})`);
    return 0;
  }
  console.error(`train:guard --check: the committed model differs from a rebuild from the repository's data\n${problems.join('\n')}`);
  return 1;
}

function holdout(): number {
  const meta = readModelMeta();
  console.log(`committed model (weights ${meta.weightsSha256.slice(0, 12)}), threshold ${LEARNED_THRESHOLD}, veto ${LEARNED_VETO}:`);
  for (const line of figureLines(holdoutFigures(committedModel(), { threshold: LEARNED_THRESHOLD, veto: LEARNED_VETO }))) console.log(line);
  return 0;
}

/** GRID=t:v,… measures the whole scan at these thresholds too. */
function evaluate(): number {
  const kept = labelled().filter((e) => e.half === 'train');
  const breadth = readmeExamples(readmes());
  const grid = (process.env.GRID ?? `${THRESHOLD}:${VETO}`).split(',').filter(Boolean).map((cell) => cell.split(':').map(Number) as [number, number]);
  for (const held of [...new Set(kept.map((e) => e.set))]) {
    const rest = kept.filter((e) => e.set !== held);
    const model = dequantize(quantize(train([...rest, ...sentenceExamples(rest), ...breadth])));
    const test = kept.filter((e) => e.set === held);
    const attacks = test.filter((e) => e.attack);
    const benign = test.filter((e) => !e.attack);
    const patterns = (e: Example) => scanPatterns(e.text, e.scope).blocked;
    console.log(`\nleft out ${held} (train half): ${attacks.length} attacks, ${benign.length} benign; patterns alone ${attacks.filter(patterns).length} blocked, ${benign.filter((e) => !patterns(e)).length} passed`);
    for (const [threshold, veto] of grid) {
      const blocked = attacks.filter((e) => scanTextWith(e.text, e.scope, model, { threshold, veto }).blocked).length;
      const passed = benign.filter((e) => !scanTextWith(e.text, e.scope, model, { threshold, veto }).blocked).length;
      console.log(`  threshold ${threshold}, veto ${veto}: whole scan ${blocked}/${attacks.length} blocked, ${passed}/${benign.length} passed`);
    }
  }
  return 0;
}

function write(): number {
  const t = trainFromRepository();
  writeFileSync(join(DATA_DIR, 'model.bin'), t.bytes);
  writeFileSync(join(DATA_DIR, 'model.json'), metaJson(t.meta));
  const figures = holdoutFigures(t.model, { threshold: t.meta.threshold, veto: t.meta.veto });
  writeFileSync(join(DATA_DIR, 'MODEL-CARD.md'), card(t, figures));
  console.log(`wrote ${relative(root, DATA_DIR)}/model.bin (${t.bytes.length} weights), model.json, MODEL-CARD.md`);
  for (const line of figureLines(figures)) console.log(line);
  return 0;
}

/** The command line: one mode. */
export function main(argv: readonly string[]): number {
  if (argv.includes('--check')) return check();
  if (argv.includes('--holdout')) return holdout();
  if (argv.includes('--eval')) return evaluate();
  return write();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));

