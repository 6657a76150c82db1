/**
 * Footprint of the real `switchboard start` (bin/switchboard.js — the compiled dist/ — spawned): cold
 * start to the "ready (" log line with Telegram, Slack (Socket Mode) and Discord configured against
 * their loopback fakes, and resident memory (VmRSS from /proc) once every adapter is connected, after
 * 10,000 and after 20,000 messages driven through the Telegram fake (100 users, one message in flight
 * each), so the growth from 10k to 20k shows whether the curve is flat; and the same process idle
 * 30 s after start and after the last message, once V8's memory reducer has run (what is kept, not
 * the heap's headroom under load). Then one more start with the same load in a 512 MiB memory
 * cgroup, as on a small VPS (skipped, with the reason, where no cgroup can be made).
 *
 * Standalone: `node --import tsx bench/footprint.ts` prints the result as JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startTelegramFake } from '../test/fakes/telegram.js';
import { startSlackFake } from '../test/fakes/slack.js';
import { startDiscordFake } from '../test/fakes/discord.js';
import { cleanEnv, COMPILED_BIN, startCli } from '../test/helpers/cli.js';
import { startInstantModel } from './instant-model.js';
import { closedLoop } from './drive.js';
import { percentile, round, rssMiB, sleep } from './util.js';
import { createMemoryCgroup } from './memory-limit.js';
import type { Running } from '../test/helpers/cli.js';
import type { TelegramFake } from '../test/fakes/telegram.js';

export interface FootprintBench {
  /** Spawn → "ready (" on stderr, ms (median of the starts). */
  coldStartMs: number;
  starts: number;
  /** RSS after start with Telegram, Slack and Discord connected (0.5 s after the ready line), MiB, median of the starts. */
  rssReadyMiB: number;
  /** The same idle process SETTLE_MS later, once V8's memory reducer has run, MiB. */
  rssIdleMiB: number;
  /** RSS after `messages` messages answered, MiB. */
  rssAfterMiB: number;
  messages: number;
  /** RSS after each 10,000 messages, and the rate of those 10,000 (a rate that falls as sessions grow is work that grows with them). */
  checkpoints: Checkpoint[];
  /** RSS growth over the last 10,000 messages, MiB. */
  growthLast10kMiB: number;
  /** RSS SETTLE_MS after the last message, the process idle again: what the messages left behind, MiB. */
  rssAfterIdleMiB: number;
  /** The same LONG_SETTLE_MS after the last message (V8's memory reducer waits until the allocation rate it last saw has fallen far enough), MiB. */
  rssAfterLongIdleMiB: number;
  /** Rate of that run, messages/s (the spawned process, Telegram fake and model fake on this machine). */
  perSec: number;
  /**
   * The same start and load in a memory cgroup of SMALL_BOX_MIB (as on a 512 MB VPS: Node sizes V8's
   * heap to the limit it finds), or why it could not be run here.
   */
  smallBox: SmallBox | { skipped: string };
}

export interface Checkpoint {
  messages: number;
  rssMiB: number;
  perSec: number;
}

export interface SmallBox {
  limitMiB: number;
  rssReadyMiB: number;
  checkpoints: Checkpoint[];
  growthLast10kMiB: number;
}

const MESSAGES = 20_000;
/** The small box's memory, MiB. */
const SMALL_BOX_MIB = 512;
const CHECKPOINT = 10_000;
const STARTS = 3;
/**
 * How long an idle process is left before its settled RSS is read: V8's memory reducer shrinks the
 * heap (the young generation the start-up burst grew, the old-space headroom of a load) only after
 * some seconds without allocation (about 20 s on this machine kind).
 */
const SETTLE_MS = 30_000;
/**
 * After a load the reducer can wait longer: it starts only once the allocation rate it measures over
 * the last ten collections (the load's) and the idle time since has fallen far enough — after 30 to
 * 90 s here, depending on how much the load allocated.
 */
const LONG_SETTLE_MS = 90_000;

export async function benchFootprint(log: (line: string) => void = () => undefined, messages = MESSAGES): Promise<FootprintBench> {
  const tg = await startTelegramFake({ maxPollHoldMs: 1000 });
  const slack = await startSlackFake();
  const discord = await startDiscordFake();
  const model = await startInstantModel();
  const homes: string[] = [];
  const env = (home: string) =>
    cleanEnv({
      SWITCHBOARD_HOME: home,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'sk-bench',
      MODEL: 'fake-model',
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.url,
      TELEGRAM_ALLOWED_USERS: '*',
      SLACK_BOT_TOKEN: slack.token,
      SLACK_APP_TOKEN: slack.appToken,
      SLACK_API_URL: slack.apiUrl,
      SLACK_ALLOWED_USERS: '*',
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_ALLOWED_USERS: '*',
    });
  try {
    const startTimes: number[] = [];
    // Each start's: the figure is bimodal (whether start-up grew the young generation to its largest), so one start is a coin toss.
    const readyRss: number[] = [];
    let rssAfter = 0;
    let rssIdle = 0;
    let rssAfterIdle = 0;
    let rssAfterLongIdle = 0;
    let perSec = 0;
    const checkpoints: Checkpoint[] = [];
    for (let i = 0; i < STARTS; i++) {
      const home = mkdtempSync(join(tmpdir(), 'sb-bench-footprint-'));
      homes.push(home);
      const t0 = performance.now();
      const gw = startCli(['start'], { env: env(home), bin: COMPILED_BIN });
      try {
        await gw.waitFor(/ready \(telegram, slack, discord/, 30_000);
        startTimes.push(performance.now() - t0);
        await sleep(500); // let the connection handshakes settle
        readyRss.push(rssMiB(gw.child.pid!));
        if (i < STARTS - 1) continue;
        await sleep(SETTLE_MS);
        rssIdle = rssMiB(gw.child.pid!);
        log(`footprint: ${messages.toLocaleString('en')} messages through the Telegram fake…`);
        const ms = await load(tg, gw, messages, 900_000, checkpoints, log);
        perSec = messages / (ms / 1000);
        rssAfter = checkpoints.at(-1)!.rssMiB;
        await sleep(SETTLE_MS);
        rssAfterIdle = rssMiB(gw.child.pid!);
        await sleep(LONG_SETTLE_MS - SETTLE_MS);
        rssAfterLongIdle = rssMiB(gw.child.pid!);
      } finally {
        const code = await gw.stop('SIGTERM');
        // eslint-disable-next-line no-unsafe-finally -- a start that does not exit 0 fails the run, even after a good measurement
        if (code !== 0) throw new Error(`switchboard start exited ${code}\n${gw.stderr().slice(-2000)}`);
      }
    }
    const smallBox = await runSmallBox(tg, env, homes, messages, log);
    return {
      smallBox,
      coldStartMs: round(percentile(startTimes, 50), 0),
      starts: STARTS,
      rssReadyMiB: percentile(readyRss, 50),
      rssIdleMiB: rssIdle,
      rssAfterMiB: rssAfter,
      messages,
      checkpoints,
      growthLast10kMiB: growthOfLast(checkpoints),
      rssAfterIdleMiB: rssAfterIdle,
      rssAfterLongIdleMiB: rssAfterLongIdle,
      perSec: round(perSec, 0),
    };
  } finally {
    await Promise.allSettled([tg.close(), slack.close(), discord.close(), model.close()]);
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  }
}

/** RSS growth from the next-to-last checkpoint to the last, MiB (0 with one checkpoint). */
const growthOfLast = (checkpoints: readonly Checkpoint[]): number =>
  checkpoints.length > 1 ? round(checkpoints.at(-1)!.rssMiB - checkpoints.at(-2)!.rssMiB, 1) : 0;

/** Drives `messages` through the Telegram fake (100 users), RSS into `checkpoints` after each CHECKPOINT; ms taken. */
async function load(tg: TelegramFake, gw: Running, messages: number, firstUser: number, checkpoints: Checkpoint[], log: (line: string) => void): Promise<number> {
  let ms = 0;
  for (let done = 0; done < messages; ) {
    const step = Math.min(CHECKPOINT, messages - done);
    const stepMs = await closedLoop(tg, 100, step, firstUser);
    ms += stepMs;
    done += step;
    await sleep(500);
    checkpoints.push({ messages: done, rssMiB: rssMiB(gw.child.pid!), perSec: round(step / (stepMs / 1000), 0) });
    log(`footprint: ${done.toLocaleString('en')} messages, ${checkpoints.at(-1)!.rssMiB} MiB, ${checkpoints.at(-1)!.perSec} messages/s`);
  }
  return ms;
}

/** One more start, in a memory cgroup of SMALL_BOX_MIB, with the same load (fresh home, other users). */
async function runSmallBox(
  tg: TelegramFake,
  env: (home: string) => NodeJS.ProcessEnv,
  homes: string[],
  messages: number,
  log: (line: string) => void,
): Promise<FootprintBench['smallBox']> {
  const group = createMemoryCgroup(SMALL_BOX_MIB);
  if ('skipped' in group) {
    log(`footprint: the ${SMALL_BOX_MIB} MiB run is skipped: ${group.skipped}`);
    return group;
  }
  const home = mkdtempSync(join(tmpdir(), 'sb-bench-footprint-'));
  homes.push(home);
  log(`footprint: the same in a ${SMALL_BOX_MIB} MiB memory cgroup…`);
  const gw = startCli(['start'], { env: env(home), bin: COMPILED_BIN, cgroup: group.dir });
  try {
    await gw.waitFor(/ready \(telegram, slack, discord/, 30_000);
    await sleep(500);
    const rssReadyMiB = rssMiB(gw.child.pid!);
    const checkpoints: Checkpoint[] = [];
    await load(tg, gw, messages, 1_900_000, checkpoints, log);
    return {
      limitMiB: SMALL_BOX_MIB,
      rssReadyMiB,
      checkpoints,
      growthLast10kMiB: growthOfLast(checkpoints),
    };
  } finally {
    const code = await gw.stop('SIGTERM');
    group.remove();
    // eslint-disable-next-line no-unsafe-finally -- as above: a start that does not exit 0 fails the run
    if (code !== 0) throw new Error(`switchboard start (${SMALL_BOX_MIB} MiB cgroup) exited ${code}\n${gw.stderr().slice(-2000)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchFootprint((l) => process.stderr.write(`${l}\n`));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
