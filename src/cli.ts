/**
 * The `switchboard` command. Every failure a user can cause ends in one line on stderr and a
 * non-zero exit; stack traces only with SWITCHBOARD_DEBUG=1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { SwitchboardError, UsageError } from './core/errors.js';
import type { Command, CommandIO } from './commands/io.js';

const USAGE = `usage: switchboard <command>

  start                         run the gateway (every platform with credentials, cron; terminal when interactive)
  chat                          chat in the terminal (platform cli, user local)
  prompt --platform P --user U [--chat C] [--cwd DIR] [--ignore-rules] [--json]
                                print the system prompt of that session (or a preview)
  render --platform P [--jsonl] [--html]
                                Markdown on stdin → rendered chunks
  cron list | cron run ID       scheduled jobs
  sessions list | sessions search QUERY
  pairing list | pairing approve CODE | pairing deny CODE
  memory show PERSON [--target memory|user] | memory edit PERSON --target memory|user [--file F]
                                a person's memory and profile (edit: the new text from --file or stdin)
  migrate                       create or upgrade the database schema (SQLite, or PostgreSQL with DATABASE_URL)
  console                       serve the web console alone (start serves it too; see README)
  doctor                        check config, credentials, database and model`;

const COMMANDS: Record<string, () => Promise<{ run: Command }>> = {
  start: () => import('./commands/start.js'),
  chat: () => import('./commands/chat.js'),
  prompt: () => import('./commands/prompt.js'),
  render: () => import('./commands/render.js'),
  cron: () => import('./commands/cron-cli.js'),
  sessions: () => import('./commands/sessions.js'),
  pairing: () => import('./commands/pairing.js'),
  memory: () => import('./commands/memory.js'),
  migrate: () => import('./commands/migrate.js'),
  console: () => import('./commands/console.js'),
  doctor: () => import('./commands/doctor.js'),
};

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    (name ? io.stdout : io.stderr).write(USAGE + '\n');
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) throw new UsageError(`unknown command '${name}' (try: ${Object.keys(COMMANDS).join(', ')})`);
  const { run } = await load();
  return run(rest, io);
}

function report(error: unknown): number {
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
