/**
 * The chunker: packs a token stream into messages of at most `limit` units.
 *
 * Where it cuts, best first: between blocks, between lines, between words; inside a link or inline
 * code, or between two pieces of markup without a space, only when nothing better fits; inside a
 * word only when the word alone is longer than a message (then after punctuation if possible,
 * else between graphemes, so never inside a surrogate pair, an entity or a backslash escape).
 * Markup open at a cut is closed at the end of the chunk and reopened at the start of the next
 * (a code block with its language, a quote with its marker). No chunk is empty; every token is
 * written exactly once.
 */
import type { AtomToken, OpenToken, Token, WordToken } from './tokens.js';

/** What the chunker needs to know about a format besides its tokens. */
export interface ChunkFormat {
  /**
   * The indivisible units of an escaped text raw (entities, escapes, graphemes), in order. Lazy: a
   * cut reads only as many units as fit a message, so an unbreakable run (a base64 blob, a minified
   * line) costs time linear in its length, and no array of all its graphemes is ever built.
   */
  units(raw: string): Iterable<string>;
  /** Cost of a text raw, as in the serializer's Measure. */
  cost(raw: string): number;
}

/** Below this, reopened markup alone could fill a message; callers get a RangeError instead of a loop. */
export const MIN_CHUNK_LIMIT = 64;

interface Candidate {
  pos: number;
  stack: OpenToken[];
}

const LEVELS = 4; // -1, 0, 1, 2

function isContent(t: Token): boolean {
  return (t.t === 'word' || t.t === 'atom') && t.content;
}

/** Packs tokens into chunk strings; `limit` null means one chunk. Never returns an empty chunk. */
export function chunkTokens(input: readonly Token[], limit: number | null, format: ChunkFormat): string[] {
  if (!input.some(isContent)) return [];
  if (limit === null) return [emit(input, 0, input.length, [], [])];
  if (limit < MIN_CHUNK_LIMIT) throw new RangeError(`render: chunk limit ${limit} is below ${MIN_CHUNK_LIMIT}`);
  const tokens = input.slice();
  const out: string[] = [];
  let s = 0;
  let stack: OpenToken[] = [];
  while (s < tokens.length) {
    while (s < tokens.length && tokens[s].t === 'break') s++;
    if (s >= tokens.length || !hasContentFrom(tokens, s)) break;
    let cost = 0;
    for (const o of stack) cost += o.reopenCost;
    let cur = stack;
    let closeSum = sumClose(cur);
    let atomicDepth = cur.filter((o) => o.atomic).length;
    let seenContent = false;
    let lastWs = false;
    const best: (Candidate | null)[] = new Array(LEVELS).fill(null);
    let i = s;
    for (; i < tokens.length; i++) {
      const tk = tokens[i];
      if (seenContent) {
        let level = tk.t === 'break' ? tk.level : lastWs || /^[ \t]/.test(tk.raw) ? 0 : -1;
        if (atomicDepth > 0) level = -1;
        best[level + 1] = { pos: i, stack: cur };
      }
      let next = cur;
      let nextClose = closeSum;
      if (tk.t === 'open') {
        next = [...cur, tk];
        nextClose += tk.closeCost;
      } else if (tk.t === 'close') {
        next = cur.slice(0, -1);
        nextClose -= cur[cur.length - 1]?.closeCost ?? 0;
      }
      if (cost + tk.cost + nextClose > limit) break;
      cost += tk.cost;
      if (tk.t === 'open' && tk.atomic) atomicDepth++;
      if (tk.t === 'close' && cur[cur.length - 1]?.atomic) atomicDepth--;
      cur = next;
      closeSum = nextClose;
      if (isContent(tk)) seenContent = true;
      if (tk.t === 'word' || tk.t === 'atom') lastWs = /[ \t]$/.test(tk.raw);
      else if (tk.t === 'break') lastWs = false;
    }
    if (i >= tokens.length) {
      out.push(emit(tokens, s, tokens.length, stack, cur));
      break;
    }
    const pick = [...best].reverse().find((c) => c !== null) ?? null;
    if (!pick) {
      // Nothing with content fits before token i: token i alone is too big for what is left.
      const tk = tokens[i];
      if (tk.t === 'atom') {
        tokens.splice(i, 1, ...atomFallback(tk));
      } else if (tk.t === 'word') {
        const pieces = splitWord(tk, limit - cost - closeSum, format);
        if (!pieces || pieces.length < 2) throw new RangeError(`render: chunk limit ${limit} is too small for the markup`);
        tokens.splice(i, 1, ...pieces);
      } else {
        throw new RangeError(`render: chunk limit ${limit} is too small for the markup`);
      }
      continue;
    }
    let c = pick.pos;
    let st = pick.stack;
    // Markup opened right before the cut belongs to the next chunk (no empty <b></b> here).
    while (c - 1 > s && tokens[c - 1].t === 'open' && hasContentBetween(tokens, s, c - 1)) {
      c--;
      st = st.slice(0, -1);
    }
    // Markup closed right after the cut belongs to this chunk (no empty reopen there).
    while (c < i && tokens[c].t === 'close') {
      c++;
      st = st.slice(0, -1);
    }
    out.push(emit(tokens, s, c, stack, st));
    s = c;
    stack = st;
  }
  return out;
}

function sumClose(stack: readonly OpenToken[]): number {
  let n = 0;
  for (const o of stack) n += o.closeCost;
  return n;
}

function hasContentFrom(tokens: readonly Token[], from: number): boolean {
  for (let k = from; k < tokens.length; k++) if (isContent(tokens[k])) return true;
  return false;
}

function hasContentBetween(tokens: readonly Token[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (isContent(tokens[k])) return true;
  return false;
}

function atomFallback(tk: AtomToken): Token[] {
  return tk.fallback.length > 0 ? tk.fallback : [{ t: 'word', raw: tk.raw, cost: tk.cost, content: tk.content }];
}

/**
 * Splits an over-long word into a head that fits `room` and the rest. Prefers a cut after
 * punctuation in the second half (CJK text has no spaces but has 。，、), else the last unit that
 * fits; a single unit bigger than the room (a grapheme with thousands of combining marks) is cut
 * between code points. Returns null when not even one code point fits. Reads units only up to the
 * first that does not fit and slices the rest off the raw, so each cut costs what its head costs.
 */
function splitWord(tk: WordToken, room: number, format: ChunkFormat): WordToken[] | null {
  let used = 0;
  let headEnd = 0; // code units of raw in the head so far
  let punctEnd = 0;
  let punctUsed = 0;
  let first = true;
  for (const unit of format.units(tk.raw)) {
    const c = format.cost(unit);
    if (used + c > room) {
      // One unit bigger than the whole room: cut it between code points.
      if (first) headEnd = codePointsFitting(unit, room, format);
      break;
    }
    first = false;
    used += c;
    headEnd += unit.length;
    if (PUNCT_END.test(unit)) {
      punctEnd = headEnd;
      punctUsed = used;
    }
  }
  if (headEnd === 0) return null;
  if (headEnd >= tk.raw.length) return [tk];
  if (punctEnd > 0 && punctUsed >= room / 2) headEnd = punctEnd;
  // Costs add up over units (a cut never falls inside an entity, an escape or a code point), so the
  // rest's cost is the word's less the head's: no second pass over the rest at every cut.
  const head = tk.raw.slice(0, headEnd);
  const rest = tk.raw.slice(headEnd);
  const headCost = format.cost(head);
  return [
    { t: 'word', raw: head, cost: headCost, content: /\S/.test(head) },
    { t: 'word', raw: rest, cost: tk.cost - headCost, content: tk.content && /\S/.test(rest) },
  ];
}

const PUNCT_END = /[\p{P}\p{Zs}]$/u;

/** Code units of the longest run of whole code points at the start of `unit` whose cost fits `room`. */
function codePointsFitting(unit: string, room: number, format: ChunkFormat): number {
  let used = 0;
  let end = 0;
  for (const cp of unit) {
    const c = format.cost(cp);
    if (used + c > room) break;
    used += c;
    end += cp.length;
  }
  return end;
}

/**
 * Writes tokens [from, to) as one chunk: reopen what `startStack` had open, close what `endStack`
 * still has open. Open/close pairs with nothing between are dropped. Whitespace at the edges is
 * trimmed, except whitespace that is part of code.
 */
function emit(tokens: readonly Token[], from: number, to: number, startStack: readonly OpenToken[], endStack: readonly OpenToken[]): string {
  const parts: { raw: string; open: boolean }[] = [];
  for (const o of startStack) parts.push({ raw: o.reopen, open: true });
  for (let k = from; k < to; k++) {
    const tk = tokens[k];
    if (tk.t === 'close' && parts.length > 0 && parts[parts.length - 1].open) {
      parts.pop();
      continue;
    }
    parts.push({ raw: tk.raw, open: tk.t === 'open' });
  }
  const verbatim = endStack.some((o) => o.verbatim);
  if (endStack.length > 0 && !verbatim) trimTrailing(parts);
  for (let k = endStack.length - 1; k >= 0; k--) {
    if (parts.length > 0 && parts[parts.length - 1].open) {
      parts.pop();
      continue;
    }
    parts.push({ raw: endStack[k].close, open: false });
  }
  let raw = parts.map((p) => p.raw).join('');
  // Leading/trailing blank space outside markup is invisible on every platform.
  raw = raw.replace(/^(?:[ \t]*\n)+/, '');
  if (!verbatim) raw = raw.replace(/[ \t\n]+$/, '');
  return raw;
}

/** Strips trailing spaces/newlines before closing markers: Slack and Discord ignore `*bold *`. */
function trimTrailing(parts: { raw: string; open: boolean }[]): void {
  for (let k = parts.length - 1; k >= 0; k--) {
    if (parts[k].open) return;
    const trimmed = parts[k].raw.replace(/[ \t\n]+$/, '');
    if (trimmed !== '' || parts[k].raw === '') {
      parts[k].raw = trimmed;
      return;
    }
    parts[k].raw = '';
  }
}
