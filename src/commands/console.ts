import { parseArgs } from 'node:util';
import { workspace, type CommandIO } from './io.js';
import { ensureHome, loadSettings } from '../core/settings.js';
import { createLogger } from '../core/logger.js';
import { ConfigError } from '../core/errors.js';
import { createApp, openStoreFor } from '../app.js';
import { createAdapters } from '../adapters/registry.js';
import { checkConsoleSettings } from '../console/settings.js';

/**
 * `switchboard console`: the web console alone (DESIGN §12), on the store the settings name, with no
 * door taking messages in. The platforms with credentials are made for sending only, so "run now"
 * and "retry" deliver as `switchboard cron run` does; delivery starts at the first such action.
 */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { cwd: { type: 'string' } }, strict: true });
  const settings = loadSettings(io.env);
  const consoleSettings = settings.console ?? { port: 8787, host: '127.0.0.1' };
  if (consoleSettings.port === 0) throw new ConfigError('the console is off (console.port or SWITCHBOARD_CONSOLE_PORT is 0): set a port to serve it');
  checkConsoleSettings(consoleSettings);
  ensureHome(settings.home);
  const logger = createLogger({ secrets: settings.secrets });
  const adapters = await createAdapters(settings, { config: settings.config, logger, home: settings.home });
  const store = await openStoreFor(settings, adapters);
  const app = createApp({ settings, logger, cwd: workspace(values.cwd, io.cwd), store, adapters });
  let delivering = false;
  const startDelivery = () => {
    if (!delivering) app.delivery.start();
    delivering = true;
  };
  const close = async () => {
    await Promise.allSettled(adapters.map((a) => a.close()));
    await app.close();
  };
  try {
    const { serveConsole } = await import('../console/index.js');
    const model = await app.agent.modelStatus();
    const web = await serveConsole(app, {
      doors: () => adapters.map((a) => ({ platform: a.platform, state: 'stopped', detail: 'send only: this process (switchboard console) takes no messages in' })),
      model: () => model.label,
      terminal: io.stdout,
      beforeSend: startDelivery,
    });
    if (!web) {
      await close();
      return 1; // the busy port was logged
    }
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
    await close();
  }
  return 0;
}
