import type { AppConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { MediaStore } from '../core/media/types.js';

/** What every adapter factory receives besides its own settings. Adapters never read process.env. */
export interface AdapterDeps {
  config: AppConfig;
  logger: Logger;
  /** Switchboard's data folder (e.g. for the e-mail file outbox). */
  home: string;
  /**
   * The media store, once the store is open (doors are made before it): where a door whose messages
   * bring their files' bytes along (e-mail) keeps them for the core (ARCHITECTURE.md §15).
   */
  media?: () => MediaStore | undefined;
  /** Clock, replaceable in tests. */
  now?: () => Date;
}
