import type { PlatformId } from '../../platform/ids.js';
import type { Address, SessionAddress } from '../../platform/address.js';
import type { Store } from '../store/types.js';
import type { Settings } from '../settings.js';
import type { Logger } from '../logger.js';
import type { Provider } from '../providers/provider.js';
import type { TurnTaint } from '../taint.js';

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
  /** The turn's taint (§17): a tool that reads untrusted text marks it; the approval policy reads it. */
  taint?: TurnTaint;
  /**
   * Sends a real file to this chat (in a cron run, to the job's target) through the outbox (§15):
   * durable, resumed, never sent twice. Set by the gateway; used by `send_file` and MCP image results.
   */
  attach?: (file: OutboundFile) => Promise<void>;
}

/** A file the agent sends (§15). The type is sniffed from the bytes when `mime` is absent. */
export interface OutboundFile {
  data: Uint8Array;
  name: string;
  mime?: string;
  caption?: string;
}

/** A tool the agent may call. `parameters` is the JSON schema sent to the model. */
export interface Tool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** True if the tool waits for a human; such tools are never offered to cron runs. */
  waitsForHuman?: boolean;
  /**
   * A call changes something outside the conversation (sends mail, creates or changes a cron job, writes
   * memory, an MCP tool not declared `read_only`, `send_file` to another chat). In a tainted turn such a
   * call needs a person's yes (§17). A function decides per call from the arguments.
   */
  actsOutside?: boolean | ((args: unknown, ctx: ToolContext) => boolean);
  /** Its result is text neither the operator nor the person wrote (a web page, an MCP result): it taints the turn. */
  untrustedResult?: boolean;
  /** The operator asked for a person's yes before every call (`approve:` of an MCP server, §16). */
  needsApproval?: boolean;
  /** Returns the text given back to the model. Throwing is reported to the model as an error result. */
  run(args: unknown, ctx: ToolContext): Promise<string>;
}
