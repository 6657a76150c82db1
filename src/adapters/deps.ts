import type { AppConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';

/** What every adapter factory receives besides its own settings. Adapters never read process.env. */
export interface AdapterDeps {
  config: AppConfig;
  logger: Logger;
  /** Switchboard's data folder (e.g. for the e-mail file outbox). */
  home: string;
  /** Clock, replaceable in tests. */
  now?: () => Date;
}
