/**
 * Pastes in the interactive terminal (issue 38, point 2). In the terminal's line mode a line is cut
 * at 4,095 characters; the channel reads in raw mode instead and asks for bracketed paste
 * (`ESC[?2004h`): the terminal wraps what is pasted in `ESC[200~` … `ESC[201~`, and this filter takes
 * it out of the keystrokes whole, however long, to be sent as one message. A terminal without
 * bracketed paste: a read that holds a line end followed by more text is no typing (keystrokes come
 * one read each) and is taken as a paste too, with the reads that follow within 40 ms.
 */
import { Transform, type TransformCallback } from 'node:stream';

export const PASTE_ON = '\x1b[?2004h';
export const PASTE_OFF = '\x1b[?2004l';
const START = '\x1b[200~';
const END = '\x1b[201~';
const QUIET_MS = 40;

/** Keystrokes pass through to readline; each paste is emitted whole as `paste` (line ends as `\n`). */
export class PasteFilter extends Transform {
  private pasting: 'bracketed' | 'burst' | null = null;
  private pasted = '';
  private pending = '';
  private quiet: NodeJS.Timeout | null = null;

  constructor() {
    super({ decodeStrings: false });
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    let data = this.pending + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    this.pending = '';
    if (this.pasting === 'burst') {
      this.pasted += data;
      this.armQuiet();
      return done();
    }
    while (data) {
      if (this.pasting === 'bracketed') {
        const end = data.indexOf(END);
        if (end === -1) {
          // The end marker may be split across reads: keep a possible start of it back.
          const keep = partialSuffix(data, END);
          this.pasted += data.slice(0, data.length - keep);
          this.pending = data.slice(data.length - keep);
          return done();
        }
        this.pasted += data.slice(0, end);
        data = data.slice(end + END.length);
        this.finish();
        continue;
      }
      const start = data.indexOf(START);
      const typed = start === -1 ? data : data.slice(0, start);
      const burst = /[\r\n][^\r\n]/.test(typed) && start === -1;
      if (burst) {
        this.pasting = 'burst';
        this.pasted = typed;
        this.armQuiet();
        return done();
      }
      if (start === -1) {
        const keep = partialSuffix(typed, START);
        if (typed.length > keep) this.push(typed.slice(0, typed.length - keep));
        this.pending = typed.slice(typed.length - keep);
        return done();
      }
      if (typed) this.push(typed);
      this.pasting = 'bracketed';
      this.pasted = '';
      data = data.slice(start + START.length);
    }
    done();
  }

  private armQuiet(): void {
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = setTimeout(() => this.finish(), QUIET_MS);
  }

  private finish(): void {
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = null;
    const text = this.pasted.replace(/\r\n?/g, '\n');
    this.pasting = null;
    this.pasted = '';
    // A trailing line end is the paste's, not an Enter: the user sends it with Enter.
    this.emit('paste', text.replace(/\n+$/, ''));
  }

  override _flush(done: TransformCallback): void {
    if (this.pasting) this.finish();
    if (this.pending) this.push(this.pending);
    done();
  }
}

/** How many characters at the end of `text` could begin `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) if (marker.startsWith(text.slice(text.length - n))) return n;
  return 0;
}
