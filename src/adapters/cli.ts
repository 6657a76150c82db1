import { createInterface, type Interface } from 'node:readline';
import type { Adapter, Delivery, InboundHandler } from '../core/types.js';
import { PLATFORM_HINTS } from '../core/prompt/hints.js';
import { pipedLines } from './cli-lines.js';
import { PASTE_OFF, PASTE_ON, PasteFilter } from './cli-paste.js';

export interface CliAdapterOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  output: NodeJS.WritableStream;
  /** Show a `you>` prompt (only when both ends are a terminal). */
  interactive: boolean;
  /** Printed once when the channel starts (interactive only): how to talk, /help, how to quit. */
  welcome?: string;
  /** Called once input has ended and the last line has been answered. */
  onEnd?: () => void;
  /** Ctrl-C at an idle prompt, or a second one while an answer is being stopped (interactive only): quit. */
  onInterrupt?: () => void;
}

export const CLI_CHAT_ID = 'local';
export const CLI_USER_ID = 'local';

/** Pasted text up to this long, on one line, goes into the line being typed; longer pastes wait whole. */
const INLINE_PASTE_CHARS = 1000;
const CLEAR_LINE = '\r\x1b[2K';
const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;
const n = (value: number) => value.toLocaleString('en-US');

/**
 * The terminal channel (platform `cli`, user `local`): each input line is its own turn, answered on
 * the output before the next line is read. Piped input is read as bytes: a line that is not UTF-8
 * text is refused with one line and never sent (cli-lines.ts). At a terminal the channel reads in raw
 * mode, so a paste arrives whole (cli-paste.ts); while a turn runs a `thinking…` line shows, Ctrl-C
 * stops the turn (a `/stop`) and a second Ctrl-C quits.
 */
export function createCliAdapter(options: CliAdapterOptions): Adapter & { finished: Promise<void>; refusedLines(): number } {
  let seq = 0;
  let refused = 0;
  let pendingReply: (() => void) | null = null;
  let rl: Interface | null = null;
  let stopped = false;
  let resolveFinished!: () => void;
  const finished = new Promise<void>((r) => (resolveFinished = r));
  const runId = `${process.pid}-${Date.now()}`;
  const out = options.output;
  let indicator: NodeJS.Timeout | null = null;
  /** A status line (`thinking…`, `stopping…`) is on screen, to be cleared before the answer. */
  let status = false;
  let restoreTerminal = () => undefined as void;
  /** An approval prompt was printed (ARCHITECTURE.md §16): the next line is its y/N answer. */
  let awaitingApproval: string | null = null;
  /** The `you>` prompt, shown again once the answer of a turn resumed from elsewhere (an expiry) arrives. */
  let promptAgain: (() => void) | null = null;
  let reprompt = false;

  const clearIndicator = () => {
    if (indicator) clearInterval(indicator);
    indicator = null;
    if (status) out.write(CLEAR_LINE);
    status = false;
  };

  async function stop(): Promise<void> {
    stopped = true;
    clearIndicator();
    rl?.close();
    restoreTerminal();
    // The line being answered still gets its reply (deliver keeps printing); intake need not wait for it.
    const r = pendingReply;
    pendingReply = null;
    r?.();
  }

  /** Hands one message to the gateway; resolves once its reply is delivered. */
  const send = async (handler: InboundHandler, text: string): Promise<void> => {
    const replied = new Promise<void>((r) => (pendingReply = r));
    await dispatch(handler, text);
    await replied;
  };

  const dispatch = async (handler: InboundHandler, text: string): Promise<void> => {
    seq++;
    await handler({
      platform: 'cli',
      chatId: CLI_CHAT_ID,
      userId: CLI_USER_ID,
      text,
      isDirect: true,
      mentionsBot: false,
      isReplyToBot: false,
      messageId: String(seq),
      updateId: `${runId}-${seq}`,
      receivedAt: new Date(),
      replyTarget: { platform: 'cli', chatId: CLI_CHAT_ID },
    });
  };

  /** The line after an approval prompt: `y`/`yes` approves, anything else denies; a decided approval's turn answers next. */
  const answerApproval = async (handler: InboundHandler, text: string): Promise<void> => {
    const approvalId = awaitingApproval!;
    awaitingApproval = null;
    const replied = new Promise<void>((r) => (pendingReply = r));
    const decision = /^y(es)?$/i.test(text.trim()) ? 'approve' : 'deny';
    const outcome = handler.action
      ? await handler.action({ platform: 'cli', approvalId, decision, userId: CLI_USER_ID, chatId: CLI_CHAT_ID, actionId: `${runId}-y${seq}` })
      : { status: 'unknown' as const, text: 'Approvals are not answered here.', resolved: false };
    out.write(`${outcome.text}\n`);
    if (outcome.resolved) await replied;
    else pendingReply = null;
  };

  const end = () => {
    restoreTerminal();
    resolveFinished();
    options.onEnd?.();
  };

  /** Piped input: each text line its own turn, one after the other; binary lines refused. */
  const runPiped = async (handler: InboundHandler) => {
    for await (const line of pipedLines(options.input as AsyncIterable<Buffer>)) {
      if (stopped) break;
      if (line.kind === 'binary') {
        refused++;
        out.write(`Line ${line.line} is not text (binary data or not UTF-8); it was not sent to the model.\n`);
        continue;
      }
      const text = line.text.trim();
      if (awaitingApproval) {
        await answerApproval(handler, text);
        if (stopped) break;
        continue;
      }
      if (!text) continue;
      await send(handler, text);
      if (stopped) break;
    }
    end();
  };

  /** A terminal: raw mode, bracketed paste, a `thinking…` line while a turn runs, Ctrl-C to stop it. */
  const runTerminal = (handler: InboundHandler) => {
    const input = options.input;
    const filter = new PasteFilter();
    input.setRawMode?.(true);
    out.write(PASTE_ON);
    let restored = false;
    restoreTerminal = () => {
      if (restored) return;
      restored = true;
      out.write(PASTE_OFF);
      input.unpipe(filter);
      input.setRawMode?.(false);
      input.pause();
    };
    input.pipe(filter);
    const terminal = createInterface({ input: filter, output: out, terminal: true, prompt: 'you> ' });
    rl = terminal;
    let busy = false;
    promptAgain = () => {
      if (!busy && !stopped && !awaitingApproval) terminal.prompt(true);
    };
    let stopping = false;
    let pasted = '';
    const waiting: string[] = [];

    const showThinking = () => {
      const started = Date.now();
      const draw = () => {
        const s = Math.floor((Date.now() - started) / 1000);
        out.write(`${CLEAR_LINE}${dim(`thinking…${s >= 2 ? ` ${s} s` : ''} (Ctrl-C stops)`)}`);
        status = true;
      };
      draw();
      indicator = setInterval(draw, 1000);
      indicator.unref();
    };

    const next = async () => {
      while (!busy && waiting.length && !stopped) {
        const text = waiting.shift()!;
        busy = true;
        stopping = false;
        showThinking();
        await send(handler, text);
        busy = false;
      }
      if (!stopped && !awaitingApproval) terminal.prompt(true);
    };

    terminal.on('line', (line) => {
      if (awaitingApproval && !busy) {
        busy = true;
        void answerApproval(handler, line).then(() => {
          busy = false;
          void next();
        });
        return;
      }
      const text = [pasted, line.trim()].filter(Boolean).join('\n');
      pasted = '';
      if (!text.trim()) return void (busy || terminal.prompt());
      waiting.push(text);
      void next();
    });
    filter.on('paste', (text: string) => {
      if (!text.includes('\n') && text.length <= INLINE_PASTE_CHARS) return void terminal.write(text);
      pasted = pasted ? `${pasted}\n${text}` : text;
      const lines = pasted.split('\n').length;
      out.write(`${CLEAR_LINE}${dim(`[pasted ${n(pasted.length)} characters, ${n(lines)} line${lines === 1 ? '' : 's'}: Enter sends it (with anything you type), Ctrl-C drops it]`)}\n`);
      terminal.prompt(true);
    });
    terminal.on('SIGINT', () => {
      if (busy && !stopping) {
        // The gateway stops the running turn; it answers "Stopped."
        stopping = true;
        clearIndicator();
        out.write(dim('stopping… (Ctrl-C again quits)'));
        status = true;
        void dispatch(handler, '/stop');
        return;
      }
      if (!busy && pasted) {
        pasted = '';
        out.write(`\n${dim('[paste dropped]')}\n`);
        terminal.prompt();
        return;
      }
      clearIndicator();
      // The run ends as on SIGINT (the caller's stop closes this channel); without a caller, intake just ends.
      if (options.onInterrupt) options.onInterrupt();
      else void stop();
    });
    terminal.on('close', () => {
      // Ctrl-D: what is typed ahead is still answered, then the run ends.
      void (async () => {
        while (busy || waiting.length) {
          if (!busy) await next();
          else await new Promise((r) => setTimeout(r, 20));
          if (stopped) break;
        }
        end();
      })();
    });
    terminal.prompt();
  };

  return {
    platform: 'cli',
    profile: PLATFORM_HINTS.cli,
    finished,
    refusedLines: () => refused,
    async start(handler: InboundHandler): Promise<void> {
      stopped = false;
      if (options.welcome) out.write(`${options.welcome}\n`);
      if (options.interactive) runTerminal(handler);
      else void runPiped(handler);
    },
    stop,
    async close(): Promise<void> {
      // The output stream is the caller's and stays open; only intake is left to end.
      await stop();
    },
    async deliver(delivery: Delivery): Promise<void> {
      clearIndicator();
      const { chunks } = delivery.message;
      for (let i = delivery.firstChunk; i < chunks.length; i++) {
        out.write(chunks[i].replace(/\n*$/, '\n'));
        delivery.onChunkSent(i);
      }
      if (delivery.target.approvalId) {
        awaitingApproval = delivery.target.approvalId;
        out.write('Approve? [y/N] ');
      }
      const r = pendingReply;
      pendingReply = null;
      r?.();
      if (reprompt && !r) {
        reprompt = false;
        promptAgain?.();
      }
    },
    /** The y/N question was closed without a y or N (it expired; the console answered): it says why, and the next line is a message again. */
    async closeApprovalPrompt(approvalId: string, text: string): Promise<void> {
      if (awaitingApproval !== approvalId) return;
      awaitingApproval = null;
      out.write(`${text}\n`);
      reprompt = true;
    },
  };
}
