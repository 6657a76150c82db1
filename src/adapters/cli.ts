import { createInterface } from 'node:readline';
import type { Adapter, Delivery, InboundHandler } from '../core/types.js';
import { PLATFORM_HINTS } from '../core/prompt/hints.js';

export interface CliAdapterOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Show a `you>` prompt (only when both ends are a terminal). */
  interactive: boolean;
  /** Printed once when the channel starts (interactive only): how to talk, /help, how to quit. */
  welcome?: string;
  /** Called once input has ended and the last line has been answered. */
  onEnd?: () => void;
}

export const CLI_CHAT_ID = 'local';
export const CLI_USER_ID = 'local';

/**
 * The terminal channel (platform `cli`, user `local`): each input line is its own turn, answered on
 * the output before the next line is read.
 */
export function createCliAdapter(options: CliAdapterOptions): Adapter & { finished: Promise<void> } {
  let seq = 0;
  let pendingReply: (() => void) | null = null;
  let rl: ReturnType<typeof createInterface> | null = null;
  let stopped = false;
  let resolveFinished!: () => void;
  const finished = new Promise<void>((r) => (resolveFinished = r));
  const runId = `${process.pid}-${Date.now()}`;
  /** An approval prompt was printed (ARCHITECTURE.md §16): the next line is its y/N answer. */
  let awaitingApproval: string | null = null;

  const prompt = () => {
    if (options.interactive) options.output.write('you> ');
  };

  async function stop(): Promise<void> {
    stopped = true;
    rl?.close();
    // The line being answered still gets its reply (deliver keeps printing); intake need not wait for it.
    const r = pendingReply;
    pendingReply = null;
    r?.();
  }

  return {
    platform: 'cli',
    profile: PLATFORM_HINTS.cli,
    finished,
    async start(handler: InboundHandler): Promise<void> {
      stopped = false;
      rl = createInterface({ input: options.input, terminal: false });
      const lines = rl[Symbol.asyncIterator]();
      if (options.welcome) options.output.write(`${options.welcome}\n`);
      prompt();
      void (async () => {
        for (;;) {
          const next = await lines.next();
          // Lines readline had buffered before stop() are not handed over.
          if (next.done || stopped) break;
          const text = next.value.trim();
          if (awaitingApproval) {
            const approvalId = awaitingApproval;
            awaitingApproval = null;
            const replied = new Promise<void>((r) => (pendingReply = r));
            const decision = /^y(es)?$/i.test(text) ? 'approve' : 'deny';
            const outcome = handler.action
              ? await handler.action({ platform: 'cli', approvalId, decision, userId: CLI_USER_ID, chatId: CLI_CHAT_ID, actionId: `${runId}-y${seq}` })
              : { status: 'unknown' as const, text: 'Approvals are not answered here.' };
            options.output.write(`${outcome.text}\n`);
            // A decided approval resumes the turn: its answer comes next.
            if (outcome.resolved) await replied;
            else pendingReply = null;
            if (stopped) break;
            prompt();
            continue;
          }
          if (!text) {
            prompt();
            continue;
          }
          const replied = new Promise<void>((r) => (pendingReply = r));
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
          await replied;
          if (stopped) break;
          if (!awaitingApproval) prompt();
        }
        resolveFinished();
        options.onEnd?.();
      })();
    },
    stop,
    async close(): Promise<void> {
      // The output stream is the caller's and stays open; only intake is left to end.
      await stop();
    },
    async deliver(delivery: Delivery): Promise<void> {
      const { chunks } = delivery.message;
      for (let i = delivery.firstChunk; i < chunks.length; i++) {
        options.output.write(chunks[i].replace(/\n*$/, '\n'));
        delivery.onChunkSent(i);
      }
      if (delivery.target.approvalId) {
        awaitingApproval = delivery.target.approvalId;
        options.output.write('Approve? [y/N] ');
      }
      const r = pendingReply;
      pendingReply = null;
      r?.();
    },
  };
}
