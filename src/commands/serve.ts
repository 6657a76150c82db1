import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureHome, loadSettings, type Settings } from '../core/settings.js';
import { createLogger } from '../core/logger.js';
import { createApp, openStoreFor, type App } from '../app.js';
import { createAdapters, configuredPlatforms } from '../adapters/registry.js';
import { createCliAdapter } from '../adapters/cli.js';
import { heldDoorLogs } from './door-logs.js';
import type { Adapter } from '../core/types.js';
import type { PlatformId } from '../platform/ids.js';
import { NO_MODEL, oneLine, SwitchboardError } from '../core/errors.js';
import { HOW_TO_CONFIGURE_MODEL } from '../core/providers/index.js';
import type { CommandIO } from './io.js';
import { validateCronJobs } from '../core/cron/scheduler.js';
import { checkConsoleSettings } from '../console/settings.js';
import { prepareThreatScan } from '../guard/index.js';
import { graphemeSplit } from '../render/text.js';
import type { DoorStatus, RunningConsole } from '../console/index.js';

export interface ServeOptions {
  mode: 'start' | 'chat';
  io: CommandIO;
  cwd: string;
}

/** Hard limit between a stop signal and exit (DESIGN §4b: exit 0 within 10 s). */
const EXIT_DEADLINE_MS = 9_500;

/**
 * Runs the gateway: the configured platforms (start) or the terminal only (chat), the cron
 * scheduler (start), the outbox, and a clean stop on SIGTERM/SIGINT.
 */
export async function serve(options: ServeOptions): Promise<number> {
  const { io, mode } = options;
  const settings = loadSettings(io.env);
  validateCronJobs(settings.config.cron);
  if (mode === 'start' && settings.console) checkConsoleSettings(settings.console);
  ensureHome(settings.home);
  const platforms = configuredPlatforms(settings);
  const wantCli = mode === 'chat' || Boolean(io.stdin.isTTY) || platforms.length === 0;
  const interactive = wantCli && Boolean(io.stdin.isTTY && io.stdout.isTTY);
  // Someone types at a `you>` prompt: log lines would land in the middle of it, so they go to a file.
  const logFile = interactive ? join(settings.home, 'logs', 'switchboard.log') : null;
  const logger = createLogger({ secrets: settings.secrets, write: logFile ? fileWriter(logFile) : undefined });
  const deps = { config: settings.config, logger, home: settings.home };
  const doorLogs = heldDoorLogs(logger);
  const adapters: Adapter[] = mode === 'start' ? await createAdapters(settings, deps, doorLogs.loggerFor) : await createAdapters({ ...settings, telegram: undefined, slack: undefined, discord: undefined, email: { ...settings.email, imap: undefined } }, deps, doorLogs.loggerFor);
  // Terminal only: end of input (Ctrl-D) ends the run, as in `chat`.
  const terminalOnly = mode === 'chat' || platforms.length === 0;
  const cli = wantCli
    ? createCliAdapter({ input: io.stdin, output: io.stdout, interactive, welcome: interactive ? welcome(terminalOnly, logFile) : undefined })
    : null;
  if (cli) adapters.push(cli);
  const store = await openStoreFor(settings, adapters, logger).catch((error: unknown) => {
    for (const a of adapters) doorLogs.release(a.platform); // what the doors said before the database failed
    throw error;
  });
  const app = createApp({ settings, logger, cwd: options.cwd, store, adapters, terminalColor: Boolean(io.stdout.isTTY) && !io.env.NO_COLOR });

  const started: Adapter[] = adapters;
  let stopping: Promise<number> | null = null;
  let webConsole: RunningConsole | null = null;
  let stopSweeping: () => void = () => undefined;
  let opened = false;
  const stop = (reason: string): Promise<number> => {
    stopSweeping();
    // The console goes first: no page reads a store that is being closed.
    stopping ??= (webConsole?.close() ?? Promise.resolve()).then(() => shutdown(app, { all: adapters }, mode, reason));
    return stopping;
  };
  // What the console shows of each door: starting until the doors are opened, then the door keeper's
  // state (an exclusive door this instance does not hold stands by; its detail names the holder).
  const doors = async (): Promise<DoorStatus[]> => {
    if (!opened) return adapters.map((a) => ({ platform: a.platform, state: stopping ? 'stopped' : 'starting' }));
    return (await app.doors.status()).map((d) => ({
      platform: d.platform,
      state: stopping ? 'stopped' : d.state,
      ...(d.exclusive ? { detail: d.state === 'standby' ? `held by ${d.holder ?? 'nobody yet'}` : `lease held by this instance (${d.instance})` } : {}),
    }));
  };

  // The console comes up before the doors, so its line is printed before the terminal's prompt (the
  // doors show as starting until they run). Loaded only when wanted: off, Hono costs nothing.
  let modelLabel = 'checking…';
  if (mode === 'start' && settings.console && settings.console.port !== 0) {
    try {
      const { serveConsole } = await import('../console/index.js');
      webConsole = await serveConsole(app, { doors, model: () => modelLabel, terminal: io.stdout });
    } catch (error) {
      logger.warn('console', `the web console is off: ${oneLine(error)}`);
    }
  }

  // One listener for SIGTERM/SIGINT from here to the end, so no signal ever meets Node's default
  // (the process killed on the spot). While the doors are still connecting it stops the start cleanly
  // (the doors that are up are stopped, what they took in stays journaled for the next start); once
  // they are open it ends the run. (Handing over to a second listener after the ready line left a
  // moment without one: a SIGTERM sent on seeing "ready" killed the process.)
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
  try {
    // This instance on the database (heartbeat, leases), then the doors: an exclusive one (Telegram
    // long polling, the Discord gateway, IMAP) only when its lease is free, else it stands by.
    await app.presence.start();
    const opening = app.doors.open(adapters, app.gateway.handle, doorLogs);
    const signal = await Promise.race([opening.then(() => null), signalled]);
    if (signal) {
      offSignal();
      opening.catch(() => undefined);
      for (const a of adapters) doorLogs.release(a.platform);
      return await stop(signal);
    }
    opened = true;
  } catch (error) {
    offSignal();
    // Doors the door keeper never told about (the database failed first) log as they come from now on.
    for (const a of adapters) doorLogs.release(a.platform);
    await stop('start failed').catch(() => undefined);
    throw error instanceof SwitchboardError ? error : new SwitchboardError('platform_api', oneLine(error));
  }
  app.delivery.start();
  // Pending messages nobody answers (kept from before a stop, or of an instance that died) are taken
  // up now and at every heartbeat, under their session's lease.
  const journaled: PlatformId[] = adapters.map((a) => a.platform).filter((p): p is PlatformId => p !== 'cli');
  const sweep = (first = false) =>
    app.gateway.sweep(journaled).then(
      (n) =>
        n ? logger.info('gateway', first ? `answering ${n} message(s) kept from before the last stop` : `took up ${n} pending message(s) nobody was answering`) : undefined,
      (error: unknown) => logger.warn('gateway', `sweep failed: ${oneLine(error)}`),
    );
  await sweep(true);
  stopSweeping = app.presence.onTick(() => void sweep());
  void app.retention.start(); // prunes in the background, then every retention.interval_minutes
  if (mode === 'start') app.scheduler.start().catch((error: unknown) => logger.error('cron', `scheduler failed to start: ${oneLine(error)}`));
  const model = await app.agent.modelStatus();
  modelLabel = model.label;
  const standby = new Set((await app.doors.status()).filter((d) => d.state === 'standby').map((d) => d.platform));
  logger.info('switchboard', readyLine(settings, started, standby, app, mode, model.label));
  // What the injection defence and the renderer make on first use (the scan's keyword automaton,
  // about 90 Unicode-aware patterns and the confusables table; ICU's grapheme rules: some 50 ms in
  // all) is made now, once the doors are connected and before a first message is likely; a scan or a
  // render that comes first makes it itself.
  setImmediate(() => {
    prepareThreatScan();
    graphemeSplit('');
  });
  // How to configure a model, once: the terminal says it in its answer, the log says it for other doors.
  if (!model.ok && started.some((a) => a.platform !== 'cli' && a.platform !== 'email')) logger.warn('model', HOW_TO_CONFIGURE_MODEL);

  const done = async (reason: string): Promise<number> => {
    offSignal();
    // The `you>` prompt (and a ^C the terminal echoed) stays on its line; the goodbye gets its own.
    if (interactive) io.stdout.write(`\n${reason === 'end of input' ? 'Bye.' : `Stopped (${reason === 'SIGINT' ? 'Ctrl-C' : reason}).`}\n`);
    return stop(reason);
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

/** The terminal's first lines: how to talk, where the commands are, how to quit, where the log is. */
export function welcome(terminalOnly: boolean, logFile: string | null): string {
  const quit = terminalOnly ? 'Quit with Ctrl-D or Ctrl-C.' : 'Ctrl-D closes this terminal (the other doors keep running); Ctrl-C stops the gateway.';
  return [`Switchboard: type a message and press Enter; /help lists the commands. ${quit}`, ...(logFile ? [`Log: ${logFile}`] : [])].join('\n');
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

function readyLine(settings: Settings, started: Adapter[], standby: ReadonlySet<PlatformId>, app: App, mode: string, model: string): string {
  const doors = started.map((a) => (standby.has(a.platform) ? `${a.platform} (standby)` : a.platform)).join(', ');
  const jobs = mode === 'start' ? `, cron: ${app.scheduler.nextRuns().size || settings.config.cron.length} job(s)` : '';
  return `ready (${doors}${jobs}; ${model === NO_MODEL ? model : `model ${model}`}; data in ${settings.home})`;
}

async function shutdown(app: App, doors: { all: Adapter[] }, mode: string, reason: string): Promise<number> {
  const { logger } = app;
  const deadline = setTimeout(() => {
    logger.warn('switchboard', 'shutdown took too long; exiting');
    process.exit(0);
  }, EXIT_DEADLINE_MS);
  deadline.unref();
  // A failed start is reported by its one error line; the stop around it is not news.
  const note = reason === 'start failed' ? logger.debug : logger.info;
  logger.debug('switchboard', `stopping (${reason})`);
  const grace = app.settings.config.gateway.shutdown_grace_seconds * 1000;
  const schedulerStopped = mode === 'start' ? app.scheduler.stop(grace) : Promise.resolve();
  const began = Date.now();
  // 1. stop intake on every door (nothing new is confirmed to a platform); sending keeps working.
  //    An exclusive door's lease goes only after its last poll, so a standby never polls alongside.
  await app.doors.close().catch(() => undefined);
  // 2. let running turns finish for a while; the rest stays journaled for the next start
  await Promise.all([app.gateway.shutdown(reason === 'end of input' ? 60 * 60_000 : grace), schedulerStopped]);
  // 3. send what is ready, within the exit deadline; undelivered replies stay in the outbox
  app.delivery.kick();
  const flushMs = Math.max(500, Math.min(3000, EXIT_DEADLINE_MS - 1000 - (Date.now() - began)));
  await Promise.race([app.delivery.idle(), new Promise((r) => setTimeout(r, flushMs).unref())]);
  // 4. release what sending holds (SMTP pool, SDK clients, sockets) on every door, started or not
  await Promise.allSettled(doors.all.map((a) => a.close()));
  await app.close(); // also: this instance's remaining leases released, its row removed
  clearTimeout(deadline);
  note('switchboard', `stopped (${reason})`);
  return 0;
}
