/**
 * The cron scheduler inside `switchboard start` (ARCHITECTURE.md §4b): a job every two seconds fires once per
 * slot, each run is mailed once, a restart refires nothing, and two gateways on one data folder
 * still run each slot once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, type ModelFake, type RecordedRequest } from '../fakes/model.js';
import { startSmtpFake, type SmtpFake } from '../fakes/smtp.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, startCli } from '../helpers/cli.js';
import { claimsOf, cronEntry, sleep, type Claim } from './cron-helpers.js';

let model: ModelFake;
let smtp: SmtpFake;
let root: string;

beforeAll(async () => {
  model = await startModelFake({ script: () => ({ text: '# Tick\n\nAll **fine**.' }) });
  smtp = await startSmtpFake();
  root = mkdtempSync(join(tmpdir(), 'sb-cron-start-'));
});
afterAll(() => cleanUp(() => model?.close(), () => smtp?.close(), () => removeDir(root)));

interface Phase {
  /** Slots claimed in SQLite during this phase. */
  claims: Claim[];
  requests: RecordedRequest[];
  mails: number;
  exitCodes: Array<number | null>;
}

/** Runs `gateways` copies of `start` on one data folder for `ms` after they are ready, then SIGTERM. */
async function phase(env: NodeJS.ProcessEnv, home: string, gateways: number, ms: number): Promise<Phase> {
  const before = {
    claims: existsSync(join(home, 'state.db')) ? claimsOf(home, 'ticker').length : 0,
    requests: model.completions().length,
    mails: smtp.messages.length,
  };
  const running = Array.from({ length: gateways }, () => startCli(['start'], { env, cwd: root }));
  let exitCodes: Array<number | null>;
  try {
    await Promise.all(running.map((g) => g.waitFor(/ready \(/, 20_000)));
    await sleep(ms);
  } finally {
    // SIGTERM as systemd sends it; SIGKILL whatever did not exit within 15 s, so no gateway outlives the test
    const killer = setTimeout(() => void Promise.all(running.map((g) => killIfRunning(g))), 15_000);
    exitCodes = await Promise.all(running.map((g) => g.stop('SIGTERM')));
    clearTimeout(killer);
  }
  await sleep(100);
  return {
    claims: claimsOf(home, 'ticker').slice(before.claims),
    requests: model.completions().slice(before.requests),
    mails: smtp.messages.length - before.mails,
    exitCodes,
  };
}

describe('switchboard start with a second-level schedule', () => {
  it('fires once per slot, mails each run once, refires nothing after a restart, and never doubles with two gateways', { timeout: 90_000 }, async () => {
    const home = join(root, 'home');
    const config = join(root, 'config.yaml');
    writeFileSync(config, `cron:\n${cronEntry('ticker', 'email:ticker@example.com', 'One line, please.', '*/2 * * * * *', 'UTC')}\n`);
    const env = cleanEnv({
      SWITCHBOARD_HOME: home,
      SWITCHBOARD_CONFIG: config,
      OPENAI_BASE_URL: model.openaiUrl,
      OPENAI_API_KEY: 'sk-cron-start',
      MODEL: 'fake-model',
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'Switchboard <bot@example.com>',
    });
    // ~5 s, then a restart for ~2.5 s, then two gateways at once for ~3 s
    const phases = [await phase(env, home, 1, 5200), await phase(env, home, 1, 2500), await phase(env, home, 2, 3000)];

    const slotOf = (r: RecordedRequest) => /\(([^)]+)\)/.exec(lastUserText(r))?.[1];
    const iso = (ms: number) => new Date(ms).toISOString();
    let last = -Infinity;
    for (const [n, p] of phases.entries()) {
      const what = `phase ${n + 1}: ${JSON.stringify(p.claims)}`;
      expect(p.exitCodes, what).toEqual(p.exitCodes.map(() => 0));
      expect(p.claims.length, what).toBeGreaterThanOrEqual(1);
      for (const c of p.claims) {
        expect(c.slot % 2000, what).toBe(0);
        // later than every slot of the earlier phases: a restart refires nothing
        expect(c.slot, what).toBeGreaterThan(last);
        last = c.slot;
      }
      // consecutive even seconds: none skipped by drift, none doubled
      for (let i = 1; i < p.claims.length; i++) expect(p.claims[i].slot - p.claims[i - 1].slot, what).toBe(2000);
      // one model call and one mail per run that went ahead (a slot whose previous run is still going is skipped)
      const ran = p.claims.filter((c) => c.status !== 'skipped');
      expect(ran.every((c) => c.status === 'ok'), what).toBe(true);
      expect(p.requests.map(slotOf).sort(), what).toEqual(ran.map((c) => iso(c.slot)));
      expect(p.mails, what).toBe(ran.length);
    }
    // ~5 s at one slot per 2 s
    expect(phases[0].claims.length).toBeGreaterThanOrEqual(2);
    expect(phases[0].claims.length).toBeLessThanOrEqual(4);
    expect(new Set(smtp.messages.map((m) => m.parsed.messageId)).size).toBe(smtp.messages.length);
    for (const m of smtp.messages) {
      expect(m.envelope.to).toEqual(['ticker@example.com']);
      expect(m.parsed.subject).toBe('Tick');
      expect(m.parsed.text).toContain('All fine.');
    }
  });
});
