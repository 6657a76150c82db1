/**
 * Piped input of the terminal channel as lines of bytes (issue 38, point 10): a line that is not
 * UTF-8 text — invalid UTF-8, or control characters other than tab (a NUL, a bell, an escape) — is
 * refused and never reaches the model. Random bytes split at their `\n` bytes give now and then a
 * short run that happens to be printable ("k]"): a short text line between two refused lines is
 * taken as part of the same binary data and refused with them.
 */

export type PipedLine = { kind: 'text'; line: number; text: string } | { kind: 'binary'; line: number };

/** Below this many bytes, a text line sitting between two binary lines counts as binary too. */
const SANDWICH_BYTES = 16;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The line as text, or null when it is not UTF-8 text. */
export function textOf(bytes: Buffer): string | null {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  // C0 controls but tab (and the CR of a CRLF line end), DEL, and C1 controls: binary data, not text.
  return /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/.test(text.replace(/\r$/, '')) ? null : text.replace(/\r$/, '');
}

/** Splits a byte stream into lines at `\n` (the last one may lack it). */
async function* byteLines(input: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of input) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let buf = rest.length ? Buffer.concat([rest, data]) : data;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10)) {
      yield buf.subarray(0, nl);
      buf = buf.subarray(nl + 1);
    }
    rest = Buffer.from(buf);
  }
  if (rest.length) yield rest;
}

/**
 * The lines of `input`, each either text or refused as binary. A short text line right after a
 * binary one waits for the next line before it is given out (a pipe's writer sends on anyway).
 */
export async function* pipedLines(input: AsyncIterable<Buffer | string>): AsyncGenerator<PipedLine> {
  let n = 0;
  let previousBinary = false;
  let held: { line: number; text: string } | null = null;
  for await (const bytes of byteLines(input)) {
    const line = ++n;
    const text = textOf(bytes);
    if (held) {
      // Between two binary lines: part of the same data.
      yield text === null ? { kind: 'binary', line: held.line } : { kind: 'text', ...held };
      if (text !== null) previousBinary = false;
      held = null;
    }
    if (text === null) {
      previousBinary = true;
      yield { kind: 'binary', line };
      continue;
    }
    if (previousBinary && text.trim() && bytes.length < SANDWICH_BYTES) {
      held = { line, text };
      continue;
    }
    previousBinary = false;
    yield { kind: 'text', line, text };
  }
  // The last line, after binary data: the benefit of the doubt (real text matters more than a stray tail).
  if (held) yield { kind: 'text', ...held };
}
