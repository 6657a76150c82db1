/**
 * The learning half of the guard's trainer (scripts/train-guard.ts): examples → logistic regression
 * by SGD over the hashed features of src/guard/learned.ts → int8 weights. Deterministic: the same
 * examples give the same bytes (a fixed order and fixed permutations, no randomness).
 */
import { chunksOf, featuresOf, FEATURE_BITS, learnedVerdict, modelText, type LearnedModel } from '../src/guard/learned.js';
import { fnv, type Example, type Readme } from './guard-data.js';

/** Benign training examples: chunks of the training half of the READMEs. */
export function readmeExamples(files: readonly Readme[]): Example[] {
  const out: Example[] = [];
  for (const f of files) {
    if (f.half !== 'train') continue;
    for (const c of chunksOf(f.text)) if (c.text.trim().length >= 40) out.push({ set: 'readme', attack: false, text: c.text, scope: 'context', half: 'train' });
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
    if (e.attack || e.set === 'readme' || e.half !== 'train') continue;
    for (const piece of e.text.split(/\n+|(?<=[.!?。！？])\s+/)) if (piece.trim().length >= 60) out.push({ set: 'sentence', attack: false, text: piece.trim(), scope: e.scope, half: 'train' });
  }
  return out;
}

/** Each benign sentence counts this much (a file's sentences would otherwise outweigh the file). */
const SENTENCE_WEIGHT = 0.3;

/**
 * Passes over the data. 40 (30 until the holdout halves left training): at 30 an ordinary project
 * file (test/guard/learned.test.ts) scored 0.47, above the veto.
 */
export const EPOCHS = 40;

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
  const held = examples.find((e) => e.half !== 'train');
  if (held) throw new Error(`training on a holdout example (set ${held.set}): the holdout halves are never trained on`);
  const epochs = options.epochs ?? EPOCHS;
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
