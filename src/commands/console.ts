import { parseCommandLine, workspace, type CommandIO } from './io.js';
import { ensureHome, loadSettings } from '../core/settings.js';
import { createLogger } from '../core/logger.js';
import { ConfigError } from '../core/errors.js';
import { openApp } from '../app-open.js';
import { checkConsoleSettings } from '../console/settings.js';
import type { DoorStatus } from '../console/types.js';
import type { Adapter } from '../core/types.js';
import type { Store } from '../core/store/types.js';
import { doorLease } from '../core/doors.js';

export const usage = `usage: switchboard console [--cwd DIR]

Serves the web console alone (start serves it too), on the store the settings name, taking no
messages in; "run now" and "retry" deliver through the platforms whose credentials are set.
Its address: console.port and console.host in the config, or SWITCHBOARD_CONSOLE_PORT and
SWITCHBOARD_CONSOLE_HOST (see README).

options:
  --cwd DIR    the workspace folder (default: the current folder)
  -h, --help   show this help`;

/**
 * `switchboard console`: the web console alone (ARCHITECTURE.md §12), on the store the settings name, with no
 * door taking messages in. The platforms with credentials are made for sending only, so "run now"
 * and "retry" deliver as `switchboard cron run` does; delivery starts at the first such action.
 */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandLine('console', usage, { args: argv, options: { cwd: { type: 'string' } }, strict: true });
  const settings = loadSettings(io.env);
  const consoleSettings = settings.console ?? { port: 8787, host: '127.0.0.1' };
  if (consoleSettings.port === 0) throw new ConfigError('the console is off (console.port or SWITCHBOARD_CONSOLE_PORT is 0): set a port to serve it');
  checkConsoleSettings(consoleSettings);
  ensureHome(settings.home);
  const logger = createLogger({ secrets: settings.secrets });
  const app = await openApp(settings, { logger, cwd: workspace(values.cwd, io.cwd), doors: 'send' });
  let delivering = false;
  const startDelivery = () => {
    if (!delivering) app.delivery.start();
    delivering = true;
  };
  try {
    const { serveConsole } = await import('../console/index.js');
    const model = await app.agent.modelStatus();
    const web = await serveConsole(app, {
      doors: () => gatewayDoors(app.store, app.adapters, Date.now()),
      model: () => model.label,
      terminal: io.stdout,
      beforeSend: startDelivery,
    });
    if (!web) return 1; // the busy port was logged (the finally below closes what was opened)
    const signal = await new Promise<string>((resolve) => {
      const keepAlive = setInterval(() => undefined, 1 << 30);
      const done = (s: string) => {
        clearInterval(keepAlive);
        resolve(s);
      };
      process.once('SIGTERM', () => done('SIGTERM'));
      process.once('SIGINT', () => done('SIGINT'));
    });
    await web.close();
    logger.info('console', `stopped (${signal})`);
  } finally {
    await app.close(); // the doors hold sockets (SMTP pool, SDK clients) until closed
  }
  return 0;
}

/**
 * The doors as the gateway instances on this database run them (this process takes nothing in): an
 * exclusive door (Telegram polling, Discord, IMAP) runs where its lease is held; the others run on
 * every live instance.
 */
export async function gatewayDoors(store: Store, adapters: readonly Adapter[], now: number): Promise<DoorStatus[]> {
  const live = (await store.instances.list()).filter((i) => i.expiresAt > now);
  const none = 'no gateway instance is running on this database';
  const out: DoorStatus[] = [];
  for (const a of adapters) {
    if (!a.exclusiveIntake) {
      out.push(live.length ? { platform: a.platform, state: 'running', detail: `on ${live.length} gateway instance(s)` } : { platform: a.platform, state: 'stopped', detail: none });
      continue;
    }
    const lease = await store.leases.get(doorLease(a.platform));
    if (lease && lease.expiresAt > now) out.push({ platform: a.platform, state: 'running', detail: `held by ${lease.holder}` });
    else out.push({ platform: a.platform, state: live.length ? 'standby' : 'stopped', detail: live.length ? 'no instance holds it right now' : none });
  }
  return out;
}
