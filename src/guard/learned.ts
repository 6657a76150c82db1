/**
 * Learned layer of the threat scan (ARCHITECTURE.md §5): a logistic regression over hashed character
 * 3–5-grams and words / word pairs of the normalised text. Character n-grams need no tokeniser, so one model reads all
 * 14 languages of the pattern tables. It is trained offline by scripts/train-guard.ts on the
 * labelled corpora under test/guard/ (never their holdout halves) plus READMEs kept in
 * test/guard/data as benign breadth; the weights are data (data/model.bin, data/model.json, card:
 * data/MODEL-CARD.md), so nothing is downloaded at run time.
 *
 * A file is scored chunk by chunk (paragraphs, merged up to a few hundred characters; long ones
 * cut at line breaks) and, when it is small, as a whole; chunks too short to judge (MIN_FEATURES)
 * are left to the patterns. In the scan (scan.ts) the model does two things: it blocks a
 * file the patterns pass when a chunk scores LEARNED_THRESHOLD or more, and it overrules hits of
 * the broad pattern layers (other languages, co-occurring signals) in chunks it scores below
 * LEARNED_VETO. Both thresholds were chosen leaving each red-team set out of training in turn
 * (`npm run train:guard -- --eval`).
 */
import { lineAt, lineStarts } from './lines.js';
import { normalizeForScan } from './normalize.js';
import { readModelMeta, readModelWeights } from './data-files.js';

/** Hash buckets: 2^18 (256 KiB of int8 weights). */
export const FEATURE_BITS = 18;
const MASK = (1 << FEATURE_BITS) - 1;
/** Paragraphs shorter than this are scored together with the next one. */
const MIN_CHUNK = 300;
/** Longer paragraphs are cut at a line break near this length. */
const MAX_CHUNK = 2000;
/** A file up to this length is also scored as a whole. */
const WHOLE_FILE = 4000;

/** The model as committed: int8 weights, one scale. */
export interface LearnedModel {
  bias: number;
  scale: number;
  weights: Int8Array;
}

/** Text as the model reads it: the scan's normalised view, lower case, whitespace runs as one space, long runs of one character cut to three. */
export function modelText(text: string): string {
  return cutRuns(normalizeForScan(text).toLowerCase().replace(/\s+/g, ' ')).trim();
}

/** `text` with every run of one character longer than three cut to three ("!!!!!!", a rule of dashes, padding). */
function cutRuns(text: string): string {
  let out = '';
  let kept = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = i > 0 && text.charCodeAt(i) === text.charCodeAt(i - 1) ? run + 1 : 1;
    if (run === 4) {
      out += text.slice(kept, i);
      kept = i;
    }
    if (run >= 4) kept = i + 1;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/** Which pass last saw each bucket (16-bit). */
const stamp = new Uint16Array(1 << FEATURE_BITS);
let epoch = 0;

/**
 * Goes once over every distinct hashed feature of `text` (already in model form): character
 * 3–5-grams (FNV-1a) and words (runs of letters, digits and non-ASCII) with word pairs, in the one
 * hash space. Returns the sum of their weights (or, without weights, 0, collecting the buckets in
 * `collect`) and how many distinct features there were.
 */
function features(text: string, weights: Int8Array | null, collect: number[] | null): { sum: number; distinct: number } {
  if (++epoch === 0x10000) {
    stamp.fill(0);
    epoch = 1;
  }
  const seen = stamp;
  const mark = epoch;
  let sum = 0;
  let distinct = 0;
  const take = (b: number): void => {
    seen[b] = mark;
    distinct++;
    if (weights) sum += weights[b];
    else collect!.push(b);
  };
  const n = text.length;
  // the 3-, 4- and 5-grams starting at i, hashed incrementally from the first character
  for (let i = 0; i + 2 < n; i++) {
    let h = Math.imul(0x811c9dc5 ^ text.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ text.charCodeAt(i + 1), 0x01000193);
    h = Math.imul(h ^ text.charCodeAt(i + 2), 0x01000193);
    let b = (h ^ (h >>> 16)) & MASK;
    if (seen[b] !== mark) take(b);
    if (i + 3 >= n) continue;
    h = Math.imul(h ^ text.charCodeAt(i + 3), 0x01000193);
    b = (h ^ (h >>> 16)) & MASK;
    if (seen[b] !== mark) take(b);
    if (i + 4 >= n) continue;
    h = Math.imul(h ^ text.charCodeAt(i + 4), 0x01000193);
    b = (h ^ (h >>> 16)) & MASK;
    if (seen[b] !== mark) take(b);
  }
  let prev = 0;
  let h = 0x811c9dc5;
  let inWord = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if (c === 32 || (c < 128 && !((c >= 97 && c <= 122) || (c >= 48 && c <= 57)))) {
      if (!inWord) continue;
      const w = (h ^ (h >>> 16)) >>> 0;
      let b = (Math.imul(w ^ 0x27d4eb2d, 0x01000193) >>> 16) & MASK;
      if (seen[b] !== mark) take(b);
      b = (Math.imul((Math.imul(prev ^ 0x5bd1e995, 31) ^ w) ^ 0x27d4eb2d, 0x01000193) >>> 16) & MASK;
      if (seen[b] !== mark) take(b);
      prev = w;
      h = 0x811c9dc5;
      inWord = false;
    } else {
      h = Math.imul(h ^ c, 0x01000193);
      inWord = true;
    }
  }
  return { sum, distinct };
}

/** The distinct buckets of `text` (model form), for training. */
export function featuresOf(text: string): Uint32Array {
  const out: number[] = [];
  features(text, null, out);
  return Uint32Array.from(out);
}

/**
 * Fewer distinct features than this (a text under about 150 characters, one sentence) and the model's score is
 * not used: a few strong n-grams then decide alone, and a heading like "root rules" could score
 * as high as an attack. Short texts are left to the pattern layers.
 */
export const MIN_FEATURES = 450;

/** Probability that `text` (model form) is an injection, and how many distinct features it has; features are binary, L2-normalised. */
export function score(model: LearnedModel, text: string): { probability: number; distinct: number } {
  const { sum, distinct } = features(text, model.weights, null);
  const z = model.bias + (distinct > 0 ? (sum * model.scale) / Math.sqrt(distinct) : 0);
  return { probability: 1 / (1 + Math.exp(-z)), distinct };
}

export interface Chunk {
  /** Offset of the chunk in the scanned text. */
  index: number;
  text: string;
}

/** Paragraph chunks of `text` (see the module comment), plus the whole text when it is small. */
export function chunksOf(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  const paragraphs: Chunk[] = [];
  const re = /\n[ \t]*\n\s*/g;
  let at = 0;
  for (let m = re.exec(text); ; m = re.exec(text)) {
    const end = m ? m.index : text.length;
    let from = at;
    while (end - from > MAX_CHUNK) {
      const cut = text.lastIndexOf('\n', from + MAX_CHUNK);
      const to = cut > from + MAX_CHUNK / 2 ? cut : from + MAX_CHUNK;
      paragraphs.push({ index: from, text: text.slice(from, to) });
      from = to;
    }
    if (end > from) paragraphs.push({ index: from, text: text.slice(from, end) });
    if (!m) break;
    at = m.index + m[0].length;
  }
  let open: Chunk | undefined;
  for (const p of paragraphs) {
    if (open && open.text.length < MIN_CHUNK) {
      open = { index: open.index, text: text.slice(open.index, p.index + p.text.length) };
    } else {
      if (open) chunks.push(open);
      open = p;
    }
  }
  if (open) chunks.push(open);
  if (text.length <= WHOLE_FILE && chunks.length > 1) chunks.push({ index: 0, text });
  return chunks;
}

/** A chunk the model judged: its span in the scanned text and its score. */
export interface ScoredChunk {
  /** Offset of the chunk in the scanned text, and of its end. */
  from: number;
  to: number;
  probability: number;
}

export interface LearnedVerdict {
  /** The highest chunk probability (0 when no chunk was long enough to judge). */
  probability: number;
  /** 1-based line where the most suspicious chunk starts. */
  line: number;
  /** The start of that chunk. */
  excerpt: string;
  /** Every chunk long enough to judge (MIN_FEATURES), in order. */
  chunks: ScoredChunk[];
}

/** The committed model's scalars and thresholds (data/model.json, a few hundred bytes). */
const META = readModelMeta();

let loaded: LearnedModel | undefined;

/** The committed model (data/model.bin), read and checked on first use. */
export function committedModel(): LearnedModel {
  if (loaded) return loaded;
  if (META.features !== 1 << FEATURE_BITS) throw new Error(`guard model: ${META.features} weights, expected ${1 << FEATURE_BITS}`);
  loaded = { bias: META.bias, scale: META.scale, weights: readModelWeights(META) };
  return loaded;
}

/** Score at or above which the scan blocks on the model alone (how it was chosen: data/MODEL-CARD.md). */
export const LEARNED_THRESHOLD: number = META.threshold;
/** Score below which the model overrules the pattern layers' wording hits in a chunk (scan.ts). */
export const LEARNED_VETO: number = META.veto;

/**
 * The model reads at most this many characters at each end of a file (the patterns read all of it).
 * More than the prompt ever holds of one file — a context file enters it as at most 20,000
 * characters of head and tail, a memory as a few thousand — and it bounds the model's cost on a
 * huge file to that of 128 KB.
 */
export const MODEL_WINDOW = 64_000;

/** The chunks of `body`, or of its first and last MODEL_WINDOW characters (cut at a line break) when it is longer than both. */
function windowChunks(body: string): Chunk[] {
  if (body.length <= 2 * MODEL_WINDOW) return chunksOf(body);
  const headEnd = Math.max(body.lastIndexOf('\n', MODEL_WINDOW), MODEL_WINDOW / 2);
  const tailStart = Math.min(body.indexOf('\n', body.length - MODEL_WINDOW) + 1 || body.length - MODEL_WINDOW, body.length - MODEL_WINDOW / 2);
  const tail = chunksOf(body.slice(tailStart)).map((c) => ({ index: c.index + tailStart, text: c.text }));
  return [...chunksOf(body.slice(0, headEnd)), ...tail];
}

/** Scores every chunk of `body` long enough to judge (within MODEL_WINDOW of either end) and returns them with the most suspicious one. */
export function learnedVerdict(body: string, model: LearnedModel = committedModel()): LearnedVerdict {
  const verdict: LearnedVerdict = { probability: 0, line: 1, excerpt: '', chunks: [] };
  let bestIndex = 0;
  for (const chunk of windowChunks(body)) {
    const { probability: p, distinct } = score(model, modelText(chunk.text));
    if (distinct < MIN_FEATURES) continue;
    verdict.chunks.push({ from: chunk.index, to: chunk.index + chunk.text.length, probability: p });
    if (p > verdict.probability) {
      verdict.probability = p;
      verdict.excerpt = chunk.text;
      bestIndex = chunk.index;
    }
  }
  if (verdict.excerpt) verdict.line = lineAt(lineStarts(body), bestIndex);
  return verdict;
}
