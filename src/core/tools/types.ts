import type { PlatformId } from '../../platform/ids.js';
import type { Address, SessionAddress } from '../../platform/address.js';
import type { Store } from '../store/types.js';
import type { Settings } from '../settings.js';
import type { Logger } from '../logger.js';
import type { Provider } from '../providers/provider.js';

/** What a tool knows about the turn that called it. */
export interface ToolContext {
  settings: Settings;
  store: Store;
  logger: Logger;
  provider: Provider;
  platform: PlatformId;
  /** Where the session is (platform, chat, thread, user); its opaque key; the session's id. */
  session: SessionAddress;
  sessionKey: string;
  sessionId: string;
  /** Memory/search owner: `<platform>-<user id>` or the person's name from config `people:`. */
  personKey: string;
  /** The chat (and thread) the turn came from; default `deliver` for the cron tool. */
  replyAddress: Address;
  /** Aborted when the turn is cancelled (/stop, shutdown). */
  signal: AbortSignal;
  now: () => Date;
}

/** A tool the agent may call. `parameters` is the JSON schema sent to the model. */
export interface Tool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** True if the tool waits for a human; such tools are never offered to cron runs. */
  waitsForHuman?: boolean;
  /** Returns the text given back to the model. Throwing is reported to the model as an error result. */
  run(args: unknown, ctx: ToolContext): Promise<string>;
}
