import { parseCommandLine, type CommandIO } from './io.js';
import { ensureHome, loadSettings, type Settings } from '../core/settings.js';
import { silentLogger } from '../core/logger.js';
import { oneLine } from '../core/errors.js';
import { configuredDoors, openData, openDoors, storeLocation } from '../app-open.js';
import type { OutboxStatus } from '../core/store/types.js';
import { transcriberFor, transcriptionMissing } from '../media/index.js';
import { createProvider, HOW_TO_CONFIGURE_MODEL } from '../core/providers/index.js';
import { formatTableSizes } from '../core/retention.js';
import { instancesReport } from '../core/instances-report.js';
import { startupProblems } from './startup-checks.js';

export const usage = `usage: switchboard doctor

Checks the config, each platform's credentials, the database and the model, and says how to fix
each problem; exits 1 when there is one.

options:
  -h, --help   show this help`;

/** An unreachable model (a dropped packet, a dead host) is reported within this, not after the SDK's own timeouts. */
const MODEL_CHECK_SECONDS = 2;

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** `switchboard doctor`: config, credentials per platform, database, model — each problem with its fix. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  parseCommandLine('doctor', usage, { args: argv, options: {}, strict: true });
  const checks: Check[] = [];
  let settings: Settings;
  let homeOk = false;
  try {
    settings = loadSettings(io.env);
    checks.push({ name: 'config', ok: true, detail: settings.configPath });
    // Everything start would stop on before opening anything (startup-checks.ts), each on its line.
    for (const p of startupProblems(settings, 'start')) checks.push({ name: p.name, ok: false, detail: p.line });
  } catch (error) {
    const line = oneLine(error);
    // A bad environment variable (DATABASE_URL, IMAP_URL, …) is fixed there, not in the file.
    const variable = /\b(?!SWITCHBOARD_CONFIG\b)[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/.exec(line)?.[0];
    const fix = variable ? `correct ${variable} in the environment or .env (see .env.example)` : 'correct the file or point SWITCHBOARD_CONFIG at a valid one (see config/default.yaml)';
    io.stdout.write(`✗ config: ${line}\n  fix: ${fix}\n`);
    return 1;
  }
  // The model check runs while the others do: with start-up, the whole report stays within 5 s.
  const modelCheck = createProvider(settings, silentLogger).check({ timeoutMs: MODEL_CHECK_SECONDS * 1000 });
  const transcriber = transcriberFor(settings);
  // The openai backend on the model's own endpoint is what the model check reaches already.
  const sameAsModel = settings.config.transcription.backend === 'openai' && 'baseURL' in settings.model && settings.transcription?.baseURL === (settings.model.baseURL ?? 'https://api.openai.com/v1');
  const transcriptionCheck = transcriber && !sameAsModel ? transcriber.check() : Promise.resolve(null);
  // Database
  try {
    ensureHome(settings.home);
    homeOk = true;
    const store = await openData(settings);
    let counts: Record<OutboxStatus, number>;
    let sizes = '';
    let version: number;
    let instances: string[] = [];
    try {
      counts = await store.outbox.counts();
      version = await store.schemaVersion();
      sizes = formatTableSizes(await store.retention.tableSizes());
      // Many instances share PostgreSQL (ARCHITECTURE.md §9): who is running, and who holds what.
      if (store.engine === 'postgres') instances = instancesReport(await store.instances.list(), await store.leases.list(), Date.now()).lines;
    } finally {
      await store.close();
    }
    const waiting = counts.pending ? `, ${counts.pending} repl${counts.pending === 1 ? 'y' : 'ies'} waiting in the outbox` : '';
    const failed = counts.failed ? `, ${counts.failed} undeliverable` : '';
    checks.push({ name: 'database', ok: true, detail: `${store.engine} schema ${version} at ${storeLocation(settings)}${settings.databaseUrl ? `, this instance ${settings.instanceId}` : ''}${waiting}${failed}` });
    checks.push({ name: 'tables', ok: true, detail: sizes });
    if (instances.length) checks.push({ name: 'instances', ok: true, detail: instances.join('\n  ') });
  } catch (error) {
    // The error already says what to do (move a damaged file aside, free a lock, pick a writable
    // folder, check DATABASE_URL and the server).
    checks.push({ name: 'database', ok: false, detail: oneLine(error) });
  }

  // Model
  const modelProblem = await modelCheck;
  checks.push(
    modelProblem
      ? { name: 'model', ok: false, detail: modelProblem === HOW_TO_CONFIGURE_MODEL ? modelProblem : `${modelProblem} — fix: check OPENAI_API_KEY / OPENAI_BASE_URL / ANTHROPIC_API_KEY and MODEL` }
      : { name: 'model', ok: true, detail: `${settings.model.name} via ${settings.model.provider}${'baseURL' in settings.model && settings.model.baseURL ? ` at ${settings.model.baseURL}` : ''}` },
  );

  // Transcription of voice notes (ARCHITECTURE.md §15)
  const transcriptionProblem = await transcriptionCheck;
  if (settings.config.transcription.backend === 'off') checks.push({ name: 'transcription', ok: true, detail: 'off: voice notes are not transcribed (transcription.backend)' });
  else if (!transcriber) checks.push({ name: 'transcription', ok: true, detail: `voice notes are not transcribed: ${transcriptionMissing(settings) ?? 'no backend'}` });
  else if (transcriptionProblem) checks.push({ name: 'transcription', ok: false, detail: transcriptionProblem });
  else checks.push({ name: 'transcription', ok: true, detail: sameAsModel ? 'openai backend on the model endpoint' : `${transcriber.name} backend ready` });

  // Platforms
  const platforms = configuredDoors(settings);
  if (!platforms.length) {
    checks.push({ name: 'platforms', ok: true, detail: 'none configured: `switchboard start` runs the terminal channel (set TELEGRAM_BOT_TOKEN, SLACK_BOT_TOKEN, DISCORD_BOT_TOKEN or IMAP_URL to add one)' });
  }
  for (const adapter of await openDoors(settings, { logger: silentLogger })) {
    try {
      if (!adapter.diagnose) continue;
      if (adapter.platform === 'email' && !settings.email.smtpUrl && !homeOk) {
        checks.push({ name: 'email', ok: false, detail: `no SMTP_URL, and mail cannot be written to ${settings.home}/outbox (see database above)` });
        continue;
      }
      let problems: string[];
      try {
        problems = await adapter.diagnose();
      } catch (error) {
        problems = [oneLine(error)];
      }
      const fine = adapter.platform === 'email' ? emailFine(settings) : 'credentials accepted';
      checks.push({ name: adapter.platform, ok: problems.length === 0, detail: problems.length ? problems.join('; ') : fine });
    } finally {
      await adapter.close().catch(() => undefined);
    }
  }
  for (const p of ['telegram', 'slack', 'discord'] as const) {
    const s = settings[p];
    if (s && !s.allowed.everyone && s.allowed.ids.size === 0) {
      checks.push({ name: `${p} access`, ok: false, detail: `${p.toUpperCase()}_ALLOWED_USERS is empty, so nobody may talk to the bot — fix: set it to a comma list of user ids, or *` });
    }
  }
  const mail = settings.email;
  if (mail.imap && !mail.allowed.everyone && mail.allowed.ids.size === 0) {
    checks.push({ name: 'email access', ok: false, detail: 'EMAIL_ALLOWED_SENDERS is empty, so no mail in the IMAP_URL mailbox is answered — fix: set it to a comma list of sender addresses, or *' });
  }

  // MCP servers (ARCHITECTURE.md §16): each started once, its state and its tools.
  if (Object.keys(settings.config.mcp_servers).length) {
    const { mcpDoctorChecks } = await import('../mcp/doctor.js');
    checks.push(...(await mcpDoctorChecks(settings.config.mcp_servers, io.env)));
  }

  for (const c of checks) io.stdout.write(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}\n`);
  const bad = checks.filter((c) => !c.ok).length;
  io.stdout.write(bad ? `${bad} problem${bad === 1 ? '' : 's'} found.\n` : 'All checks passed.\n');
  return bad ? 1 : 0;
}

/** What the e-mail door does when its checks pass: where mail goes, and the mailbox it reads. */
function emailFine(settings: Settings): string {
  const out = settings.email.smtpUrl ? 'SMTP login accepted' : `no SMTP_URL: mail is written as .eml files to ${settings.home}/outbox`;
  const imap = settings.email.imap;
  return imap ? `${out}; mailbox ${imap.mailbox} on ${imap.host}:${imap.port} opened as ${imap.user} (IMAP_URL)` : out;
}
