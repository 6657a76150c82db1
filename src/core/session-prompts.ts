import type { Logger } from './logger.js';
import type { SessionRecord, Store } from './store/types.js';
import type { PromptLayer } from './providers/provider.js';
import type { SessionAddress } from '../platform/address.js';

/** The prompt builder seam (src/core/prompt/builder.ts): the layers of a new session's prompt. */
export type PromptFactory = (input: { address: SessionAddress; personKey: string; sessionId: string; startedAt: Date }) => Promise<{
  layers: PromptLayer[];
  text: string;
  sha256: string;
}>;

/**
 * A session's cached system prompt: built once when the session starts, rebuilt only on context
 * compression, a change of the enabled tools or `/new` (ARCHITECTURE.md §5). Shared by the agent and
 * compression, so neither needs the other.
 */
export class SessionPrompts {
  constructor(
    private readonly store: Store,
    readonly build: PromptFactory,
    private readonly logger: Logger,
  ) {}

  /** Rebuilds and stores a session's prompt (a fresh memory snapshot); a recorded prefix-cache break. */
  async rebuild(session: SessionRecord, toolsSignature = session.toolsSignature): Promise<void> {
    const built = await this.build({ address: session.address, personKey: session.personKey, sessionId: session.id, startedAt: new Date(session.startedAt) });
    await this.store.sessions.replacePrompt(session.id, built.layers, built.text, built.sha256, toolsSignature);
    this.logger.info('sessions', `session ${session.id}: system prompt rebuilt (prefix cache break)`);
  }
}
