/**
 * The guard's data files (src/guard/data): the learned layer's weights (model.json holds the
 * scalars and the thresholds, model.bin the int8 weights, one byte per hashed feature; written by
 * scripts/train-guard.ts, card MODEL-CARD.md) and the lexicons (card LEXICONS.md).
 *
 * Where the folder is: beside this file in the sources (src/guard/data, run through tsx), and
 * dist/guard/data in the bundle, which scripts/build.mjs fills; the bundled code sits in dist/ or
 * dist/chunks/ depending on how esbuild splits it, so both are looked for.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** model.json: everything but the weights. */
export interface ModelMeta {
  /** Number of weights (2^FEATURE_BITS); model.bin has one byte each. */
  features: number;
  bias: number;
  /** A weight is its int8 byte times `scale`. */
  scale: number;
  /** Probability at or above which the model blocks a file alone. */
  threshold: number;
  /** Probability below which the model overrules the pattern layers' fuzzy hits. */
  veto: number;
  /** SHA-256 (hex) of model.bin, checked when it is read. */
  weightsSha256: string;
  /** SHA-256 (hex) of the training data, as the trainer serialised it. */
  dataSha256: string;
}

const CANDIDATES = ['./data/', '../guard/data/', './guard/data/'];

/** The folder that holds the data files (see the module comment). */
export function dataFolder(): string {
  for (const rel of CANDIDATES) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}model.json`)) return dir;
  }
  throw new Error(`guard data: no model.json in ${CANDIDATES.map((c) => fileURLToPath(new URL(c, import.meta.url))).join(', ')}`);
}

export function readModelMeta(dir = dataFolder()): ModelMeta {
  return JSON.parse(readFileSync(`${dir}model.json`, 'utf8')) as ModelMeta;
}

/** The int8 weights, checked against the hash and size model.json states. */
export function readModelWeights(meta: ModelMeta, dir = dataFolder()): Int8Array {
  const bytes = readFileSync(`${dir}model.bin`);
  if (bytes.length !== meta.features) throw new Error(`guard model: ${bytes.length} weights in model.bin, model.json says ${meta.features}`);
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (sha !== meta.weightsSha256) throw new Error(`guard model: model.bin has SHA-256 ${sha}, model.json says ${meta.weightsSha256}`);
  return new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** A JSON data file of the guard (a lexicon), parsed. */
export function readDataJson<T>(file: string, dir = dataFolder()): T {
  return JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as T;
}
