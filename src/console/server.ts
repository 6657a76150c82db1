/**
 * Serves the console on `console.host:console.port` (ARCHITECTURE.md §12). Loaded lazily by `start` and
 * `console`, so a gateway with the console off never loads Hono.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { ConsoleSettings } from '../core/settings.js';
import type { Logger } from '../core/logger.js';
import { checkConsoleSettings } from './settings.js';
import { consoleToken, type TokenSource } from './auth.js';
import { createConsoleApp } from './app.js';
import type { ConsoleDeps } from './types.js';

export interface RunningConsole {
  /** `http://host:port` as bound (the real port when 0 was not asked but a free one was). */
  readonly url: string;
  close(): Promise<void>;
}

export interface ConsoleServerOptions {
  settings: ConsoleSettings;
  home: string;
  logger: Logger;
  /** Where the login link goes when stdout is a terminal; else only the token's location is logged. */
  terminal?: NodeJS.WritableStream & { isTTY?: boolean };
  deps: Omit<ConsoleDeps, 'token'>;
}


function tokenWhere(source: TokenSource): string {
  return source.kind === 'env' ? 'the token is SWITCHBOARD_CONSOLE_TOKEN' : `the token is in ${source.path}`;
}

/** Why the console could not listen, in a few words naming the setting. */
function consoleBusyReason(host: string, port: number, code: string): string {
  if (code === 'EADDRINUSE') return `port ${port} is in use (SWITCHBOARD_CONSOLE_PORT)`;
  if (code === 'EACCES') return `port ${port} needs privileges this user lacks (SWITCHBOARD_CONSOLE_PORT)`;
  return `${host} is not an address of this machine (SWITCHBOARD_CONSOLE_HOST)`;
}

/** Starts the console; null when it is off (port 0) or its port is busy (a warning, not a stop). */
export async function startConsole(options: ConsoleServerOptions): Promise<RunningConsole | null> {
  const { settings, logger } = options;
  if (settings.port === 0) return null;
  checkConsoleSettings(settings);
  const { token, source } = consoleToken(options.home, settings.token);
  const app = createConsoleApp({ ...options.deps, token });
  const server: Server = createServer(getRequestListener(app.fetch));
  server.keepAliveTimeout = 5_000;
  const bound = await new Promise<AddressInfo | null>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL') {
        logger.warn(
          'console',
          `cannot listen on ${settings.host}:${settings.port} (${error.code}); the console is off — choose another console.port or SWITCHBOARD_CONSOLE_PORT (0 = off)`,
        );
        // The terminal that shows the console's link when it runs says, in its place, why there is none (issue 38).
        if (options.terminal?.isTTY) options.terminal.write(`Console: not started — ${consoleBusyReason(settings.host, settings.port, error.code)}\n`);
        resolve(null);
      } else reject(error);
    };
    server.once('error', onError);
    server.listen(settings.port, settings.host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
  if (!bound) return null;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  const url = `http://${host}:${bound.port}`;
  if (options.terminal?.isTTY) {
    options.terminal.write(`Console: ${url}/login?token=${encodeURIComponent(token)}\n`);
  }
  logger.info('console', `web console on ${url} (${tokenWhere(source)}; open ${url}/login?token=…)`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
