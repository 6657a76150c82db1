/**
 * Approvals (ARCHITECTURE.md §16): button press to tool call. `switchboard start` with the Telegram fake and
 * the model fake; each round a tainted turn (a session_search hit from an earlier session, then a memory
 * write) pauses and posts its prompt; the bench presses Approve (a callback_query the long poll picks up at
 * once) and takes the time until the model request that carries the memory tool's result arrives — an
 * upper bound on press → tool call, since the call ran before that request was sent. Goal p95 ≤ 500 ms.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startModelFake } from '../test/fakes/model.js';
import { startTelegramFake } from '../test/fakes/telegram.js';
import { cleanEnv, startCli } from '../test/helpers/cli.js';
import { approvalScript, lastMessage } from '../test/helpers/approvals.js';
import { percentile, round } from './util.js';

const ROUNDS = 30;

export interface ApprovalsBench {
  rounds: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export async function benchApprovals(log: (line: string) => void): Promise<ApprovalsBench> {
  const toolRequests: number[] = [];
  const model = await startModelFake({
    script: (req, i) => {
      const last = lastMessage(req);
      if (last.role === 'tool' && last.tool === 'memory') toolRequests.push(performance.now());
      return approvalScript(req, i);
    },
  });
  const tg = await startTelegramFake({ maxPollHoldMs: 30_000 });
  const home = mkdtempSync(join(tmpdir(), 'sb-bench-approvals-'));
  writeFileSync(join(home, 'config.yaml'), 'streaming:\n  telegram: off\n');
  const gw = startCli(['start'], {
    env: cleanEnv({
      SWITCHBOARD_HOME: home,
      OPENAI_BASE_URL: model.openaiUrl,
      OPENAI_API_KEY: 'sk-bench',
      MODEL: 'fake-model',
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.url,
      TELEGRAM_ALLOWED_USERS: '1001',
    }),
  });
  const say = async (text: string) => {
    const n = tg.sent.length;
    tg.pushText({ text, userId: 1001 });
    return (await tg.waitForMessages(n + 1, 20_000))[n];
  };
  try {
    await gw.waitFor(/ready \(telegram/, 60_000);
    await say('the code word is zebra');
    await say('/new');
    const times: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const prompt = await say(`SAVE w${r}`);
      const data = (prompt.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard[0][0].callback_data;
      const seen = toolRequests.length;
      const n = tg.sent.length;
      const pressed = performance.now();
      tg.pushCallback({ userId: 1001, data, messageId: prompt.messageId });
      await tg.waitForMessages(n + 1, 20_000);
      if (toolRequests.length <= seen) throw new Error('the approved call did not reach the model');
      times.push(toolRequests[seen] - pressed);
    }
    const result = { rounds: ROUNDS, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)), maxMs: round(Math.max(...times)) };
    log(`approvals: press → tool call p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms over ${ROUNDS} presses`);
    return result;
  } finally {
    await gw.stop('SIGTERM');
    await tg.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
}
