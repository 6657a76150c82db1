/** Console settings checks that `start` makes before anything runs (no Hono loaded for them). */
import type { ConsoleSettings } from '../core/settings.js';
import { ConfigError } from '../core/errors.js';

import { isLoopback } from '../core/loopback.js';

export { isLoopback };

/**
 * A host other than loopback needs the token set explicitly (a generated one sits in a file that
 * the people who can reach that host may not be meant to have). One ConfigError line naming
 * SWITCHBOARD_CONSOLE_TOKEN.
 */
export function checkConsoleSettings(settings: ConsoleSettings): void {
  if (settings.port !== 0 && !isLoopback(settings.host) && !settings.token) {
    throw new ConfigError(
      `console host '${settings.host}' is not loopback: set SWITCHBOARD_CONSOLE_TOKEN to a long random secret to serve the console there (or keep 127.0.0.1 and use an SSH tunnel)`,
    );
  }
}
