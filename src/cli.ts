/**
 * The `switchboard` command. Every failure a user can cause ends in one line on stderr and a
 * non-zero exit; stack traces only with SWITCHBOARD_DEBUG=1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { SwitchboardError, UsageError } from './core/errors.js';
import { CommandLineError, type CommandIO, type CommandModule } from './commands/io.js';

/**
 * Every command: what it does in a few words (the list `switchboard --help` prints) and its module,
 * loaded when it is used. A module's own `usage` is the rest: `switchboard <command> --help`.
 */
const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  start: { summary: 'run the gateway (every platform with credentials, cron; terminal when interactive)', load: () => import('./commands/start.js') },
  chat: { summary: 'chat in the terminal (platform cli, user local)', load: () => import('./commands/chat.js') },
  prompt: { summary: 'print the system prompt of a session (or a preview)', load: () => import('./commands/prompt.js') },
  render: { summary: 'Markdown on stdin → the chunks a platform would be sent', load: () => import('./commands/render.js') },
  cron: { summary: 'list the scheduled jobs, or run one now', load: () => import('./commands/cron-cli.js') },
  sessions: { summary: 'list the stored sessions with their usage, or search them', load: () => import('./commands/sessions.js') },
  pairing: { summary: 'list, approve or deny pairing requests', load: () => import('./commands/pairing.js') },
  memory: { summary: "show or replace a person's memory and profile", load: () => import('./commands/memory.js') },
  migrate: { summary: 'create or upgrade the database schema (SQLite, or PostgreSQL with DATABASE_URL)', load: () => import('./commands/migrate.js') },
  console: { summary: 'serve the web console alone (start serves it too)', load: () => import('./commands/console.js') },
  doctor: { summary: 'check config, credentials, database and model', load: () => import('./commands/doctor.js') },
};

const USAGE = `usage: switchboard <command> [options]
       switchboard <command> --help    that command's usage
       switchboard --version           the version

commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`)
  .join('\n')}`;

const HELP = new Set(['--help', '-h']);

/** `--help` or `-h` anywhere before a `--` (after it, arguments are the command's, as typed). */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => HELP.has(arg));
}

/** The package's version: package.json sits one folder above this file, in src/ and in dist/ alike. */
function version(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name) {
    io.stderr.write(USAGE + '\n');
    return 2;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(version() + '\n');
    return 0;
  }
  // `switchboard help` is the list; `switchboard help <command>` is that command's usage.
  const helpFor = name === 'help' ? rest[0] : HELP.has(name) ? undefined : name;
  if (helpFor === undefined) {
    io.stdout.write(USAGE + '\n');
    return 0;
  }
  const command = COMMANDS[helpFor];
  if (!command) {
    if (helpFor.startsWith('-')) throw new CommandLineError('', `unknown option '${helpFor}'`, USAGE);
    throw new UsageError(`unknown command '${helpFor}' (try: ${Object.keys(COMMANDS).join(', ')})`);
  }
  const { run, usage } = await command.load();
  if (name === 'help' || asksForHelp(rest)) {
    io.stdout.write(usage + '\n');
    return 0;
  }
  return run(rest, io);
}

function report(error: unknown): number {
  if (error instanceof CommandLineError) {
    process.stderr.write(error.text());
    return 2;
  }
  if (error instanceof SwitchboardError) {
    process.stderr.write(`switchboard: ${error.message.split('\n')[0]}\n`);
    if (process.env.SWITCHBOARD_DEBUG === '1') process.stderr.write(`${error.stack}\n`);
    return error.code === 'usage' ? 2 : 1;
  }
  const e = error as { code?: string; message?: string };
  // parseArgs errors (unknown option, missing value) are usage errors.
  if (typeof e?.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`switchboard: ${(e.message ?? '').split('\n')[0]}\n`);
    return 2;
  }
  process.stderr.write(`switchboard: unexpected error: ${(e?.message ?? String(error)).split('\n')[0]}\n`);
  if (process.env.SWITCHBOARD_DEBUG === '1' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return 1;
}

// A reader that went away (`switchboard … | head`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

process.on('unhandledRejection', (reason) => {
  process.exitCode = report(reason);
});

/** Variables from `./.env` fill in what the environment does not set (the environment wins). */
function withDotEnv(env: NodeJS.ProcessEnv, cwd: string): NodeJS.ProcessEnv {
  const file = join(cwd, '.env');
  if (!existsSync(file)) return env;
  let parsed: Record<string, string>;
  try {
    parsed = parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch {
    throw new UsageError(`cannot read ${file}: fix or remove it`);
  }
  const merged = { ...env };
  for (const [key, value] of Object.entries(parsed)) if (merged[key] === undefined && value !== '') merged[key] = value;
  return merged;
}

let io: CommandIO;
try {
  io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: withDotEnv(process.env, process.cwd()), cwd: process.cwd() };
  const code = await main(process.argv.slice(2), io);
  process.exitCode = code;
} catch (error) {
  process.exitCode = report(error);
}
// The command is done: a connection that never answered (a door still connecting when the start
// failed or was stopped) must not keep the process alive. Unref'd, so a clean exit is not delayed.
setTimeout(() => process.exit(), 2_000).unref();
