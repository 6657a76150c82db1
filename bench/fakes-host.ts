/**
 * Child process of the gateway benchmark: hosts the Telegram Bot API fake and the model fake and drives
 * the load (the simulated users), so that the process under test — Switchboard, or the bare grammY
 * echo bot — spends its CPU on its own work only, as it would against the real, remote services.
 *
 * Protocol (IPC): on start it sends `{ ready, telegram: {url, token}, modelUrl }`; every request
 * `{ id, cmd, ... }` gets `{ id, result }` or `{ id, error }`.
 */
import { performance } from 'node:perf_hooks';
import { startTelegramFake, type TelegramFake } from '../test/fakes/telegram.js';
import { closedLoop, takeSent } from './drive.js';
import { startModelFake, lastUserText, type RecordedRequest } from '../test/fakes/model.js';
import { prefixRatios } from './prefix.js';
import { startInstantModel } from './instant-model.js';

export type HostCommand =
  | { cmd: 'closedLoop'; users: number; total: number; firstUser: number }
  | { cmd: 'sequential'; messages: number; userId: number }
  | { cmd: 'burst'; sessions: number; perSession: number; firstUser: number }
  | { cmd: 'prefix'; turns: number; userId: number }
  | { cmd: 'close' };

export interface HostReady {
  ready: true;
  telegram: { url: string; token: string };
  /** The instant model (throughput runs). */
  modelUrl: string;
  /** The recording model fake (prefix run). */
  recordingModelUrl: string;
}

export interface BurstResult {
  elapsedMs: number;
  answers: number;
  messages: number;
  sessionsInOrder: number;
}

export interface PrefixRun {
  turns: number;
  ratios: number[];
}

/** One message at a time: round-trip times (pushed → answer accepted), ms. */
async function sequential(tg: TelegramFake, messages: number, userId: number): Promise<number[]> {
  tg.sent.splice(0);
  const out: number[] = [];
  for (let i = 0; i < messages; i++) {
    const t0 = performance.now();
    tg.pushText({ text: `question ${i}`, userId });
    await takeSent(tg, 10_000);
    out.push(performance.now() - t0);
  }
  return out;
}

/** `sessions` users send `perSession` messages each, all at once; checks each session's order. */
async function burst(tg: TelegramFake, sessions: number, perSession: number, firstUser: number): Promise<BurstResult> {
  tg.sent.splice(0);
  const seen = new Map<number, number[]>();
  let tokens = 0;
  let answers = 0;
  const start = performance.now();
  for (let k = 1; k <= perSession; k++) {
    for (let s = 0; s < sessions; s++) tg.pushText({ text: `c${firstUser + s}-m${k}`, userId: firstUser + s });
  }
  const expected = sessions * perSession;
  while (tokens < expected) {
    for (const m of await takeSent(tg, 60_000)) {
      answers++;
      for (const t of m.plain.matchAll(/c(\d+)-m(\d+)/g)) {
        const list = seen.get(Number(t[1])) ?? [];
        list.push(Number(t[2]));
        seen.set(Number(t[1]), list);
        tokens++;
      }
    }
  }
  const elapsedMs = performance.now() - start;
  const want = Array.from({ length: perSession }, (_, i) => i + 1).join(',');
  let inOrder = 0;
  for (let s = 0; s < sessions; s++) if ((seen.get(firstUser + s) ?? []).join(',') === want) inOrder++;
  return { elapsedMs, answers, messages: expected, sessionsInOrder: inOrder };
}

const answers = new WeakMap<RecordedRequest, string>();
const tg = await startTelegramFake({ maxPollHoldMs: 1000 });
const model = await startModelFake({
  script: (req) => {
    const user = lastUserText(req);
    // Markdown with a list and a table, so rendering and storage of a real-looking answer are exercised.
    const text = user.startsWith('turn ')
      ? `Answer to _${user}_:\n\n- **point** one\n- point \`two\`\n\n| a | b |\n|---|---|\n| 1 | 2 |`
      : `Echo: ${user}`;
    answers.set(req, text);
    return { text };
  },
});
const instant = await startInstantModel();

async function prefix(turns: number, userId: number): Promise<PrefixRun> {
  tg.sent.splice(0);
  for (let t = 0; t < turns; t++) {
    tg.pushText({ text: `turn ${t}: tell me about topic ${t}`, userId });
    await takeSent(tg, 10_000);
  }
  const requests = model.completions();
  return { turns: requests.length, ratios: prefixRatios(requests, requests.map((r) => answers.get(r) ?? '')) };
}

async function run(c: HostCommand): Promise<unknown> {
  // The model fake keeps every request; each run starts afresh.
  model.requests.splice(0);
  switch (c.cmd) {
    case 'closedLoop':
      return closedLoop(tg, c.users, c.total, c.firstUser);
    case 'sequential':
      return sequential(tg, c.messages, c.userId);
    case 'burst':
      return burst(tg, c.sessions, c.perSession, c.firstUser);
    case 'prefix':
      return prefix(c.turns, c.userId);
    case 'close':
      await model.close();
      await instant.close();
      await tg.close();
      setImmediate(() => process.exit(0));
      return true;
  }
}

process.on('message', (m: { id: number } & HostCommand) => {
  run(m).then(
    (result) => process.send?.({ id: m.id, result }),
    (error: unknown) => process.send?.({ id: m.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
const ready: HostReady = { ready: true, telegram: { url: tg.url, token: tg.token }, modelUrl: instant.url, recordingModelUrl: model.openaiUrl };
process.send?.(ready);
