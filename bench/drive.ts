/** Load drivers on the Telegram fake: simulated users and their answers. */
import { performance } from 'node:perf_hooks';
import type { SentMessage, TelegramFake } from '../test/fakes/telegram.js';

/** Waits until the fake accepted at least one sendMessage, then hands over (and forgets) all it has. */
export async function takeSent(tg: TelegramFake, timeoutMs: number): Promise<SentMessage[]> {
  await tg.waitForMessages(1, timeoutMs);
  return tg.sent.splice(0);
}

/**
 * `users` users (ids from `firstUser`) each send a message, and their next one as soon as the previous
 * is answered, until `total` are answered: one message in flight per user, so nothing is batched.
 * Returns the elapsed time, ms.
 */
export async function closedLoop(tg: TelegramFake, users: number, total: number, firstUser: number): Promise<number> {
  tg.sent.splice(0);
  let pushed = 0;
  let answered = 0;
  const push = (user: number) => {
    pushed++;
    tg.pushText({ text: `message ${pushed} from ${user}`, userId: user });
  };
  const start = performance.now();
  for (let i = 0; i < Math.min(users, total); i++) push(firstUser + i);
  while (answered < total) {
    for (const m of await takeSent(tg, 60_000)) {
      answered++;
      if (pushed < total) push(Number(m.chatId));
    }
    // The fake records every request; keep long runs from growing it without bound.
    if (tg.requests.length > 5000) tg.requests.splice(0);
  }
  return performance.now() - start;
}
