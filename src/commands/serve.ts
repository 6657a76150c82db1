import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureHome, loadSettings } from '../core/settings.js';
import { createLogger } from '../core/logger.js';
import { exitDeadlineMs, type App, type Ready, type StopOptions } from '../app.js';
import { openHealth, type RunningHealth } from '../ops/index.js';
import { configuredDoors, openApp } from '../app-open.js';
import { createCliAdapter, type CliAdapterOptions } from '../adapters/cli.js';
import { NO_MODEL, oneLine } from '../core/errors.js';
import { HOW_TO_CONFIGURE_MODEL } from '../core/providers/index.js';
import type { CommandIO } from './io.js';
import { assertStartable } from './startup-checks.js';
import type { DoorStatus, RunningConsole } from '../console/index.js';

export interface ServeOptions {
  mode: 'start' | 'chat';
  io: CommandIO;
  cwd: string;
}

/**
 * Runs the app (app.start(), app.stop(): the order is the app's) for `start` — the configured
 * platforms and the cron scheduler — or `chat` — the terminal only. What stays here is the
 * process's: the signals, the terminal (its door, welcome and log file), the web console and the
 * exit deadline.
 */
export async function serve(options: ServeOptions): Promise<number> {
  const { io, mode } = options;
  const settings = loadSettings(io.env);
  // The same checks doctor reports (startup-checks.ts): what start refuses, doctor names.
  assertStartable(settings, mode);
  ensureHome(settings.home);
  const platforms = configuredDoors(settings);
  const wantCli = mode === 'chat' || Boolean(io.stdin.isTTY) || platforms.length === 0;
  const interactive = wantCli && Boolean(io.stdin.isTTY && io.stdout.isTTY);
  // Someone types at a `you>` prompt: log lines would land in the middle of it, so they go to a file.
  const logFile = interactive ? join(settings.home, 'logs', 'switchboard.log') : null;
  const logger = createLogger({ secrets: settings.secrets, write: logFile ? fileWriter(logFile) : undefined });
  // Terminal only: end of input (Ctrl-D) ends the run, as in `chat`.
  const terminalOnly = mode === 'chat' || platforms.length === 0;
  // The welcome is written once the model's state is known (below), before the terminal starts.
  const cliOptions: CliAdapterOptions = {
    input: io.stdin,
    output: io.stdout,
    interactive,
    // Raw mode: Ctrl-C reaches the channel as a key; at an idle prompt (or twice) it quits, as the signal would.
    onInterrupt: () => process.kill(process.pid, 'SIGINT'),
  };
  const cli = wantCli ? createCliAdapter(cliOptions) : null;
  // Health, readiness and metrics (ARCHITECTURE.md §18) for the gateway process; their telemetry goes into the app.
  const ops = mode === 'start' && settings.health && settings.health.port !== 0 ? await openHealth(settings, logger) : null;
  const app = await openApp(settings, {
    logger,
    cwd: options.cwd,
    doors: mode === 'start' ? 'serve' : 'terminal',
    terminal: cli ?? undefined,
    terminalColor: Boolean(io.stdout.isTTY) && !io.env.NO_COLOR,
    telemetry: ops?.telemetry,
  });
  let health: RunningHealth | null = null;

  let stopping: Promise<number> | null = null;
  let webConsole: RunningConsole | null = null;
  const stop = (reason: string, stopOptions: StopOptions = {}): Promise<number> => {
    stopping ??= (async () => {
      const deadline = setTimeout(() => {
        logger.warn('switchboard', 'shutdown took too long; exiting');
        process.exit(0);
      }, exitDeadlineMs(settings.config.gateway.shutdown_grace_seconds));
      deadline.unref();
      // The console goes first: no page reads a store that is being closed. /readyz says "stopping" meanwhile.
      await webConsole?.close();
      await app.stop(reason, stopOptions);
      await health?.close();
      clearTimeout(deadline);
      return 0;
    })();
    return stopping;
  };

  // The console comes up before the doors, so its line is printed before the terminal's prompt (the
  // doors show as starting until they run). Loaded only when wanted: off, Hono costs nothing.
  let modelLabel = 'checking…';
  if (mode === 'start' && settings.console && settings.console.port !== 0) {
    try {
      const { serveConsole } = await import('../console/index.js');
      webConsole = await serveConsole(app, { doors: () => doorStates(app), model: () => modelLabel, terminal: io.stdout });
    } catch (error) {
      logger.warn('console', `the web console is off: ${oneLine(error)}`);
    }
  }

  // Up before the doors: a probe sees "starting" (503) until the app runs.
  if (ops) health = await ops.serve(app);

  // One listener for SIGTERM/SIGINT from here to the end, so no signal ever meets Node's default
  // (the process killed on the spot). While the app is still starting it stops the start cleanly
  // (the doors that are up are stopped, what they took in stays journaled for the next start); once
  // it runs it ends the run. (Handing over to a second listener after the ready line left a moment
  // without one: a SIGTERM sent on seeing "ready" killed the process.)
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = resolve;
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  });
  const offSignal = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
  // The terminal's welcome says when no model is configured, as the ready line does (issue 38).
  if (interactive) cliOptions.welcome = welcome(terminalOnly, logFile, await app.agent.modelStatus().catch(() => null));
  let ready: Ready | null;
  try {
    const starting = app.start();
    const first = await Promise.race([starting.then((r) => ({ ready: r })), signalled.then((signal) => ({ signal }))]);
    if ('signal' in first) {
      offSignal();
      starting.catch(() => undefined); // whatever a door does now is part of this stop
      return await stop(first.signal);
    }
    ready = first.ready;
  } catch (error) {
    offSignal();
    // The app has stopped what came up; the console is this command's to close.
    await stop('start failed').catch(() => undefined);
    throw error;
  }
  if (!ready) {
    // Stopped from elsewhere while starting (this command stops it only after the race above).
    offSignal();
    return stop('stopped while starting');
  }
  modelLabel = ready.model.label;
  logger.info('switchboard', readyLine(ready, settings.home));
  // How to configure a model, once: the terminal says it in its answer, the log says it for other doors.
  if (!ready.model.ok && ready.doors.some((d) => d.platform !== 'cli' && d.platform !== 'email')) logger.warn('model', HOW_TO_CONFIGURE_MODEL);

  const done = async (reason: string): Promise<number> => {
    offSignal();
    // The `you>` prompt (and a ^C the terminal echoed) stays on its line; the goodbye gets its own.
    if (interactive) io.stdout.write(`\n${reason === 'end of input' ? 'Bye.' : `Stopped (${reason === 'SIGINT' ? 'Ctrl-C' : reason}).`}\n`);
    // At end of input the turns still running are the answers the user is waiting for.
    const code = await stop(reason, { finishTurns: reason === 'end of input' });
    // `chat` fed by a pipe whose every turn failed (no model, a model error, binary input) is a failed run.
    const turns = app.gateway.turnOutcomes();
    const failed = turns.failed + (cli?.refusedLines() ?? 0);
    if (mode === 'chat' && !interactive && failed > 0 && turns.answered === 0) return 1;
    return code;
  };

  if (cli && (mode === 'chat' || (interactive && terminalOnly))) {
    return done(await Promise.race([cli.finished.then(() => 'end of input'), signalled]));
  }
  if (cli && mode === 'start') {
    void cli.finished.then(() => logger.info('switchboard', 'terminal input ended; still running until SIGTERM/SIGINT'));
  }
  // Headless (no terminal, maybe no platform): nothing else may hold the event loop open.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    return await done(await signalled);
  } finally {
    clearInterval(keepAlive);
  }
}

/**
 * What the console shows of each door: starting until the app runs, then the door keeper's state
 * (an exclusive door this instance does not hold stands by; its detail names the holder).
 */
async function doorStates(app: App): Promise<DoorStatus[]> {
  const state = app.state;
  if (state === 'new' || state === 'starting') return app.adapters.map((a) => ({ platform: a.platform, state: 'starting' }));
  return (await app.doors.status()).map((d) => ({
    platform: d.platform,
    state: state === 'running' ? d.state : 'stopped',
    ...(d.exclusive ? { detail: d.state === 'standby' ? `held by ${d.holder ?? 'nobody yet'}` : `lease held by this instance (${d.instance})` } : {}),
  }));
}

/** The terminal's first lines: how to talk, where the commands are, how to quit, where the log is. */
export function welcome(terminalOnly: boolean, logFile: string | null, model: { ok: boolean; label: string } | null = null): string {
  const quit = terminalOnly ? 'Quit with Ctrl-D or Ctrl-C.' : 'Ctrl-D closes this terminal (the other doors keep running); Ctrl-C stops the gateway.';
  const modelLine = model === null ? [] : [model.ok ? `Model: ${model.label}` : `Model: ${NO_MODEL} — ${HOW_TO_CONFIGURE_MODEL}`];
  return [`Switchboard: type a message and press Enter; /help lists the commands. ${quit}`, ...modelLine, ...(logFile ? [`Log: ${logFile}`] : [])].join('\n');
}

/** Appends log lines to a file (its folder made on first use); a line that cannot be written goes to stderr. */
function fileWriter(path: string): (line: string) => void {
  let ready = false;
  return (line) => {
    try {
      if (!ready) mkdirSync(dirname(path), { recursive: true });
      ready = true;
      appendFileSync(path, line + '\n');
    } catch {
      process.stderr.write(line + '\n');
    }
  };
}

function readyLine(ready: Ready, home: string): string {
  const doors = ready.doors.map((d) => (d.standby ? `${d.platform} (standby)` : d.platform)).join(', ');
  const jobs = ready.cronJobs === null ? '' : `, cron: ${ready.cronJobs} job(s)`;
  return `ready (${doors}${jobs}; ${ready.model.label === NO_MODEL ? ready.model.label : `model ${ready.model.label}`}; data in ${home})`;
}
