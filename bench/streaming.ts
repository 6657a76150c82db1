/**
 * Streaming benchmark (ARCHITECTURE.md §10): the whole pipeline in this process (createApp + the real Telegram
 * adapter) against the Telegram fake and a model fake that streams at 50 tokens/s. Half the chats are
 * private (drafts), half groups (a message edited as it grows). Per answer:
 * - time from the model's first token to the first visible update at the platform fake (goal ≤ 1.2 s);
 * - updates per second per chat: the most in any rolling second while streaming (limit 1, the final
 *   delivery not counted);
 * - time from the model's last token to the finished answer at the platform fake (goal p95 ≤ 300 ms).
 *
 * Standalone: `node --import tsx bench/streaming.ts` prints the result as JSON.
 */
import { pathToFileURL } from 'node:url';
import { startModelFake, lastUserText } from '../test/fakes/model.js';
import { startTelegramFake, type VisibleUpdate } from '../test/fakes/telegram.js';
import { startPipeline } from './pipeline.js';
import { percentile, round, sleep } from './util.js';

export interface StreamingBench {
  tokensPerSecond: number;
  answers: number;
  chats: number;
  /** Model's first token → first visible update, ms. */
  firstUpdateP50Ms: number;
  firstUpdateP95Ms: number;
  /** Shortest gap between two streamed updates of one chat, as the platform fake received them, ms. */
  minGapMs: number;
  /** Updates per second per chat at that shortest gap (1000 / minGapMs; the limit is 1). */
  maxUpdatesPerSecond: number;
  /** Streamed updates per answer, mean. */
  updatesPerAnswer: number;
  /** Model's last token → finished answer visible, ms. */
  finalP50Ms: number;
  finalP95Ms: number;
}

const TOKENS_PER_SECOND = 50;
const CHATS = 8;
const ROUNDS = 3;

function answerFor(chat: number, round: number): string {
  const words = Array.from({ length: 110 }, (_, i) => (i % 17 === 5 ? `**word${i}**` : `word${i}`)).join(' ');
  return `Answer ${round} for chat ${chat}: ${words}.`;
}

/** Shortest gap between consecutive times (Infinity for fewer than two). */
function minGap(times: number[]): number {
  let best = Infinity;
  for (let i = 1; i < times.length; i++) best = Math.min(best, times[i] - times[i - 1]);
  return best;
}

export async function benchStreaming(log: (line: string) => void = () => undefined): Promise<StreamingBench> {
  const model = await startModelFake({
    tokensPerSecond: TOKENS_PER_SECOND,
    script: (req) => {
      const m = /chat (\d+) round (\d+)/.exec(lastUserText(req));
      return { text: m ? answerFor(Number(m[1]), Number(m[2])) : 'ok' };
    },
  });
  const tg = await startTelegramFake({ maxPollHoldMs: 200 });
  const pipeline = await startPipeline({ telegram: { url: tg.url, token: tg.token }, modelUrl: model.openaiUrl });
  const chatIds = Array.from({ length: CHATS }, (_, i) => (i % 2 === 0 ? 5000 + i : -1005000 - i));
  const firsts: number[] = [];
  const finals: number[] = [];
  const gaps: number[] = [];
  let updates = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      log(`streaming: round ${round + 1} of ${ROUNDS} (${CHATS} chats at ${TOKENS_PER_SECOND} tokens/s)…`);
      const since = Date.now();
      const streamsBefore = model.streams.length;
      chatIds.forEach((chatId, i) => {
        const text = `chat ${i} round ${round}`;
        if (chatId > 0) tg.pushText({ text, userId: chatId });
        else tg.pushText({ text: `@${tg.bot.username} ${text}`, userId: 4000 + i, chatId, chatType: 'supergroup', chatTitle: 'Bench' });
      });
      // Every chat has its finished answer as a real message when a send or edit shows the last word.
      const done = () => chatIds.every((chatId) => tg.sent.some((m) => m.chatId === String(chatId) && m.plain.includes('word109.') && m.plain.includes(`Answer ${round}`)));
      const deadline = Date.now() + 60_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error('streaming bench: answers did not arrive within 60 s');
        await sleep(20);
      }
      await sleep(300);
      const streams = model.streams.slice(streamsBefore);
      chatIds.forEach((chatId, i) => {
        const timing = streams.find((s) => lastUserText(s.request).includes(`chat ${i} round ${round}`));
        if (!timing) throw new Error(`streaming bench: no streamed answer for chat ${i}`);
        const seen: VisibleUpdate[] = tg.visible.filter((u) => u.chatId === String(chatId) && u.at >= since);
        const finalAt = seen.find((u) => u.plain.includes('word109.') && (u.kind !== 'draft'))!.at;
        const streamed = seen.filter((u) => u.at < finalAt);
        if (streamed.length) firsts.push(streamed[0].at - timing.firstTokenAt);
        finals.push(finalAt - timing.lastTokenAt);
        gaps.push(minGap(streamed.map((u) => u.at)));
        updates += streamed.length;
      });
    }
  } finally {
    await pipeline.stop();
    await tg.close();
    await model.close();
  }
  return {
    tokensPerSecond: TOKENS_PER_SECOND,
    answers: CHATS * ROUNDS,
    chats: CHATS,
    firstUpdateP50Ms: round(percentile(firsts, 50), 0),
    firstUpdateP95Ms: round(percentile(firsts, 95), 0),
    minGapMs: Math.min(...gaps),
    maxUpdatesPerSecond: round(1000 / Math.min(...gaps), 2),
    updatesPerAnswer: round(updates / (CHATS * ROUNDS), 1),
    finalP50Ms: round(percentile(finals, 50), 0),
    finalP95Ms: round(percentile(finals, 95), 0),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchStreaming((line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
