/**
 * Scheduled reports end to end through the real `switchboard` command (ARCHITECTURE.md §3, §4, §4b, §6):
 * `cron list`, `cron run ID` (and `start` refusing a bad schedule) against a loopback SMTP server and a
 * model fake. The scheduler's timing under `start` is in cron-start.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { simpleParser } from 'mailparser';
import { startModelFake, systemText, type ModelFake, type RecordedRequest } from '../fakes/model.js';
import { startSmtpFake, type ReceivedMail, type SmtpFake } from '../fakes/smtp.js';
import { startTelegramFake } from '../fakes/telegram.js';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';
import { cronEntry, messagesOf, sleep, tailOf } from './cron-helpers.js';

let model: ModelFake;
let smtp: SmtpFake;
let root: string;

const REPORT = [
  '# Daily **report**',
  '',
  'All *good* today, see [the board](https://example.com/board).',
  '',
  '| issue | state |',
  '|---|---|',
  '| #12 | open |',
  '',
  '- fix `parser`',
  '- ship __release__',
].join('\n');

/** Answers by the job prompt in the tail, as a real model would follow it. */
function reply(req: RecordedRequest): { text: string } {
  const tail = tailOf(req);
  if (tail.includes('SILENT-JOB')) return { text: '[SILENT]' };
  if (tail.includes('ASK-JOB')) {
    const insisted = /do not ask|don't ask|never ask|no questions/i.test(tail);
    return { text: insisted ? '## Repo summary\n\nAssumed the main repository: 3 issues are open.' : 'Which repository should I look at?' };
  }
  return { text: REPORT };
}

beforeAll(async () => {
  model = await startModelFake({ script: reply });
  smtp = await startSmtpFake();
  root = mkdtempSync(join(tmpdir(), 'sb-cron-e2e-'));
});
afterAll(() => cleanUp(() => model?.close(), () => smtp?.close(), () => removeDir(root)));

interface Setup {
  home: string;
  env: NodeJS.ProcessEnv;
}

let homes = 0;
function setup(config: string, extra: Record<string, string> = {}, smtpOn = true): Setup {
  const home = join(root, `home-${++homes}`);
  const cfg = join(root, `config-${homes}.yaml`);
  writeFileSync(cfg, config);
  const env = cleanEnv({
    SWITCHBOARD_HOME: home,
    SWITCHBOARD_CONFIG: cfg,
    OPENAI_BASE_URL: model.openaiUrl,
    OPENAI_API_KEY: 'sk-cron-e2e',
    MODEL: 'fake-model',
    EMAIL_FROM: 'Switchboard <bot@example.com>',
    ...(smtpOn ? { SMTP_URL: smtp.url } : {}),
    ...extra,
  });
  return { home, env };
}

function mailsTo(address: string): ReceivedMail[] {
  return smtp.messages.filter((m) => m.envelope.to.includes(address));
}

function requestsFor(marker: string, from = 0): RecordedRequest[] {
  return model.completions().slice(from).filter((r) => tailOf(r).includes(marker));
}

function listRow(stdout: string, id: string): string {
  return stdout.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';
}

/** Markdown punctuation that must not survive into a text/plain body. */
function expectPlain(text: string): void {
  expect(text).not.toContain('**');
  expect(text).not.toContain('__');
  expect(text).not.toContain('`');
  expect(text).not.toMatch(/^\s*#{1,6}\s/m);
  expect(text).not.toMatch(/\|\s*:?-{3,}/);
  expect(text).not.toMatch(/\]\(/);
}

describe('cron run without a model', () => {
  it('says how to configure a model once (the exit line), not in every log line too', async () => {
    const home = join(root, 'home-nomodel');
    const cfg = join(root, 'config-nomodel.yaml');
    writeFileSync(cfg, ['cron:', cronEntry('daily-report', 'email:alice@example.com', 'REPORT-JOB: summarise.')].join('\n'));
    const res = await runCli(['cron', 'run', 'daily-report'], { env: cleanEnv({ SWITCHBOARD_HOME: home, SWITCHBOARD_CONFIG: cfg }) });
    expect(res.code).toBe(1);
    expect(res.stderr.match(/set OPENAI_API_KEY/g)).toHaveLength(1);
    expect(res.stderr.trimEnd().split('\n').at(-1)).toMatch(/^switchboard: No model is configured: set OPENAI_API_KEY/);
    expect(res.stderr).toMatch(/job 'daily-report': no model configured or reachable/);
  });
});

describe('cron list and cron run', () => {
  const config = [
    'system_message: "Team conventions: be brief and factual."',
    'cron:',
    cronEntry('daily-report', 'email:alice@example.com', 'REPORT-JOB: summarise open issues as a short report.'),
    cronEntry('ask-job', 'email:asker@example.com', 'ASK-JOB: summarise the repository.'),
    cronEntry('silent-job', 'email:quiet@example.com', 'SILENT-JOB: report only if something broke.', '*/5 * * * *', null),
  ].join('\n');
  let s: Setup;
  beforeAll(() => {
    s = setup(config);
  });

  it('lists id, schedule, zone and next run; runs a job now and mails a plain-text + HTML report; lists its last run', async () => {
    const before = await runCli(['cron', 'list'], { env: s.env, cwd: root });
    expect(before.code).toBe(0);
    expect(before.stdout.split('\n')[0]).toMatch(/ID\s+SCHEDULE\s+ZONE\s+NEXT RUN\s+LAST RUN\s+RESULT/);
    const row = listRow(before.stdout, 'daily-report');
    expect(row).toContain('0 9 * * 1-5');
    expect(row).toContain('Europe/Berlin');
    expect(row).toMatch(/\d{4}-\d\d-\d\d 09:00:00\s+never/);
    expect(listRow(before.stdout, 'silent-job')).toMatch(/\*\/5 \* \* \* \*\s+\S+\s+\d{4}-\d\d-\d\d \d\d:\d[05]:00\s+never/);

    const from = model.completions().length;
    const run = await runCli(['cron', 'run', 'daily-report'], { env: s.env, cwd: root });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/delivered/);
    const [mail] = mailsTo('alice@example.com');
    expect(mailsTo('alice@example.com')).toHaveLength(1);
    expect(mail.parsed.subject).toBe('Daily report');
    expect(mail.parsed.messageId).toMatch(/^<[^<>\s]+@example\.com>$/);
    expect(mail.parsed.headers.get('date')).toBeInstanceOf(Date);
    expect(mail.parsed.from?.value[0].address).toBe('bot@example.com');
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/i);
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);
    const text = mail.parsed.text ?? '';
    expectPlain(text);
    for (const visible of ['Daily report', 'All good today', 'https://example.com/board', '#12', 'open', 'parser', 'release']) expect(text).toContain(visible);
    expect(mail.parsed.html).toMatch(/<strong>report<\/strong>/);
    expect(mail.parsed.html).toMatch(/<table>/);

    // The request: the cron hint in the system prompt, the job prompt as the trailing system message.
    const reqs = requestsFor('REPORT-JOB', from);
    expect(reqs).toHaveLength(1);
    const sys = systemText(reqs[0]);
    expect(sys).toMatch(/scheduled/i);
    expect(sys).toMatch(/nobody is present/i);
    expect(sys).toMatch(/never ask/i);
    expect(sys).not.toContain('REPORT-JOB');
    const msgs = messagesOf(reqs[0]);
    expect(msgs[0].role).toBe('system');
    expect(msgs.at(-1)!.role).toBe('system');
    expect(msgs.at(-1)!.content).toContain('REPORT-JOB: summarise open issues');
    expect(msgs.at(-2)!.role).toBe('user');

    const after = await runCli(['cron', 'list'], { env: s.env, cwd: root });
    expect(after.code).toBe(0);
    const done = listRow(after.stdout, 'daily-report');
    expect(done).toMatch(/09:00:00\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+ok: Daily report\s/);
  });

  it('replays the history byte for byte and keeps the job prompt out of it on the next run', async () => {
    const from = model.completions().length;
    const run = await runCli(['cron', 'run', 'daily-report'], { env: s.env, cwd: root });
    expect(run.code).toBe(0);
    const [first] = requestsFor('REPORT-JOB', 0);
    const [second] = requestsFor('REPORT-JOB', from);
    const prev = messagesOf(first);
    const next = messagesOf(second);
    // cached prompt + earlier history unchanged, then the earlier answer, the new turn, the tail
    expect(next.slice(0, prev.length - 1)).toEqual(prev.slice(0, -1));
    expect(next[prev.length - 1]).toMatchObject({ role: 'assistant', content: REPORT });
    expect(next.at(-1)!.role).toBe('system');
    expect(next.filter((m) => (m.content ?? '').includes('REPORT-JOB'))).toHaveLength(1);
    expect(mailsTo('alice@example.com')).toHaveLength(2);
  });

  it('shares the system prompt prefix up to the platform hint with a telegram session', async () => {
    const res = await runCli(['prompt', '--platform', 'telegram', '--user', '1001', '--json'], { env: s.env, cwd: root });
    expect(res.code).toBe(0);
    const tg = JSON.parse(res.stdout) as { layers: Array<{ name: string; text: string }>; system: string };
    const names = tg.layers.map((l) => l.name);
    expect(names).toContain('identity');
    expect(names).toContain('tool_guidance');
    const hint = tg.layers.find((l) => l.name === 'platform_hint')!;
    const prefix = tg.system.slice(0, tg.system.indexOf(hint.text));
    for (const name of ['identity', 'tool_guidance', 'system_message']) expect(prefix).toContain(tg.layers.find((l) => l.name === name)!.text);
    expect(prefix).toContain('Team conventions');
    const cronSystem = systemText(requestsFor('REPORT-JOB')[0]);
    expect(cronSystem.startsWith(prefix)).toBe(true);
    expect(cronSystem.slice(prefix.length)).toMatch(/^\s*This is a scheduled cron run/);
  });

  it('retries an answer that is only a question once, with an instruction, and mails the retry', async () => {
    const from = model.completions().length;
    const run = await runCli(['cron', 'run', 'ask-job'], { env: s.env, cwd: root });
    expect(run.code).toBe(0);
    const reqs = requestsFor('ASK-JOB', from);
    expect(reqs).toHaveLength(2);
    expect(tailOf(reqs[0])).toContain('ASK-JOB');
    expect(tailOf(reqs[1])).toContain('ASK-JOB');
    expect(tailOf(reqs[1]).length).toBeGreaterThan(tailOf(reqs[0]).length);
    expect(systemText(reqs[1])).toBe(systemText(reqs[0]));
    // the question was not kept as history for the retry
    expect(JSON.stringify(messagesOf(reqs[1]))).not.toContain('Which repository');
    const mails = mailsTo('asker@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].parsed.subject).toBe('Repo summary');
    expect(mails[0].parsed.text).toContain('3 issues are open');
    expect(mails[0].parsed.text).not.toContain('Which repository');
  });

  it('delivers nothing for [SILENT] and exits 0', async () => {
    const from = model.completions().length;
    const run = await runCli(['cron', 'run', 'silent-job'], { env: s.env, cwd: root });
    expect(run.code).toBe(0);
    expect(requestsFor('SILENT-JOB', from)).toHaveLength(1);
    await sleep(200);
    expect(mailsTo('quiet@example.com')).toHaveLength(0);
    expect(run.stdout).toMatch(/SILENT/);
  });

  it('answers an unknown job id with one line and exit 1', async () => {
    const run = await runCli(['cron', 'run', 'no-such-job'], { env: s.env, cwd: root });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/no-such-job/);
  });
});

describe('mail delivery failures and the file outbox', () => {
  const config = ['cron:', cronEntry('greylisted', 'email:grey@example.com', 'GREY-JOB: report.'), cronEntry('bounced', 'email:nobody@example.com', 'BOUNCE-JOB: report.')].join('\n');
  let s: Setup;
  beforeAll(() => {
    s = setup(config);
  });

  it('retries a temporary failure (421 greeting, 451 at MAIL, RCPT or DATA) and delivers exactly once, well within 30 s', async () => {
    const phases = [['connect', 421], ['mail', 451], ['rcpt', 451], ['data', 451]] as const;
    // One SMTP server and data folder per case, so the four runs can go side by side.
    const results = await Promise.all(
      phases.map(async ([phase, code]) => {
        const server = await startSmtpFake();
        try {
          const g = setup(config, { SMTP_URL: server.url });
          server.failNext({ phase, code });
          const t0 = Date.now();
          const run = await runCli(['cron', 'run', 'greylisted'], { env: g.env, cwd: root, timeoutMs: 35_000 });
          const ms = Date.now() - t0;
          await sleep(100);
          return { phase, run, ms, refusals: server.refusals.length, mails: server.messages.map((m) => m.envelope.to.join(',')) };
        } finally {
          await server.close();
        }
      }),
    );
    for (const r of results) {
      expect(r.run.code, `${r.phase}: ${r.run.stderr}`).toBe(0);
      expect(r.ms, r.phase).toBeLessThan(30_000);
      expect(r.refusals, r.phase).toBe(1);
      expect(r.mails, r.phase).toEqual(['grey@example.com']);
    }
  });

  it('fails a permanent 550 with the reason, exit 1, and keeps the reply in the outbox as failed', async () => {
    smtp.failNext({ phase: 'rcpt', code: 550 });
    const refusals = smtp.refusals.length;
    const run = await runCli(['cron', 'run', 'bounced'], { env: s.env, cwd: root });
    expect(run.code).toBe(1);
    const errors = run.stderr.split('\n').filter((l) => l.startsWith('switchboard:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/550/);
    expect(errors[0]).toMatch(/No such user/);
    expect(smtp.refusals.length).toBe(refusals + 1); // permanent: not retried
    expect(mailsTo('nobody@example.com')).toHaveLength(0);
    const db = new Database(join(s.home, 'state.db'), { readonly: true });
    try {
      // The address is kept as columns (platform, chat_id, thread_id); `target` holds only delivery details.
      const rows = db.prepare("SELECT status, last_error FROM outbox WHERE platform = 'email' AND chat_id = ?").all('nobody@example.com') as Array<{ status: string; last_error: string }>;
      expect(rows).toHaveLength(1);
      expect(rows[0].status).toBe('failed');
      expect(rows[0].last_error).toMatch(/550/);
    } finally {
      db.close();
    }
    const list = await runCli(['cron', 'list'], { env: s.env, cwd: root });
    expect(listRow(list.stdout, 'bounced')).toMatch(/error: delivery failed/);
  });

  it('writes an .eml file to $SWITCHBOARD_HOME/outbox/ without SMTP_URL', async () => {
    const f = setup(['cron:', cronEntry('to-file', 'email:carol@example.com', 'FILE-JOB: report.')].join('\n'), {}, false);
    const smtpBefore = smtp.messages.length;
    const run = await runCli(['cron', 'run', 'to-file'], { env: f.env, cwd: root });
    expect(run.code, run.stderr).toBe(0);
    const dir = join(f.home, 'outbox');
    expect(existsSync(dir)).toBe(true);
    const files = readdirSync(dir).filter((n) => n.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const parsed = await simpleParser(readFileSync(join(dir, files[0])));
    expect(parsed.subject).toBe('Daily report');
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0].address : '').toBe('carol@example.com');
    expect(parsed.messageId).toBeTruthy();
    expectPlain(parsed.text ?? '');
    expect(parsed.html).toMatch(/<h1>/);
    expect(smtp.messages.length).toBe(smtpBefore);
  });
});

describe('delivery to a chat platform', () => {
  it('sends the report through the Telegram adapter in its HTML, and says so at once when the platform is not configured', async () => {
    const tg = await startTelegramFake();
    try {
      const config = [
        'cron:',
        cronEntry('to-telegram', 'telegram:1001', 'TG-JOB: report.'),
        cronEntry('to-discord', 'discord:123456789012345678', 'DC-JOB: report.'),
      ].join('\n');
      const s = setup(config, { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.url, TELEGRAM_ALLOWED_USERS: '1001' });
      const run = await runCli(['cron', 'run', 'to-telegram'], { env: s.env, cwd: root });
      expect(run.code, run.stderr).toBe(0);
      expect(tg.sent).toHaveLength(1);
      expect(tg.sent[0].chatId).toBe('1001');
      expect(tg.sent[0].parseMode).toBe('HTML');
      expect(tg.sent[0].text).toContain('<i>good</i>');
      expect(tg.sent[0].text).toContain('<a href="https://example.com/board">');
      expect(tg.sent[0].plain).not.toContain('**');
      expect(tg.callsOf('getUpdates')).toHaveLength(0); // `cron run` sends; it does not take the bot's updates

      const t0 = Date.now();
      const other = await runCli(['cron', 'run', 'to-discord'], { env: s.env, cwd: root });
      expect(other.code).toBe(1);
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(other.stderr).toMatch(/switchboard: .*discord is not configured.*outbox/);
    } finally {
      await tg.close();
    }
  });
});

describe('bad schedules', () => {
  it('names the job in one line and exits non-zero for start, cron run and cron list', async () => {
    const cases = [
      { id: 'bad-minute', entry: cronEntry('bad-minute', 'email:x@example.com', 'BAD-JOB', '61 * * * *', null), needle: /61/ },
      { id: 'bad-zone', entry: cronEntry('bad-zone', 'email:x@example.com', 'BAD-JOB', '0 9 * * *', 'Mars/Olympus'), needle: /Mars\/Olympus/ },
    ];
    const runs = cases.flatMap((c) => {
      const s = setup(`cron:\n${c.entry}\n`);
      return [['cron', 'list'], ['cron', 'run', c.id], ['start']].map(async (args) => ({ c, args, res: await runCli(args, { env: s.env, cwd: root }) }));
    });
    const results = await Promise.all(runs);
    for (const { c, args, res } of results) {
      const what = `${args.join(' ')} (${c.id}): ${res.stderr}`;
      expect(res.code, what).not.toBe(0);
      expect(res.code, what).not.toBeNull();
      const lines = res.stderr.trim().split('\n');
      expect(lines, what).toHaveLength(1);
      expect(lines[0], what).toContain(c.id);
      expect(lines[0], what).toMatch(c.needle);
      expect(res.stderr, what).not.toMatch(/\n\s+at /);
    }
    expect(requestsFor('BAD-JOB')).toHaveLength(0);
  });
});
