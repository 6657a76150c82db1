/**
 * Context compression (ARCHITECTURE.md §5, §7) as the agent's SessionMaintainer. Before a turn, when the
 * session's prompt and stored history pass `sessions.compress_at` × `model.context_window`:
 *
 * 1. memory flush — the model may save durable facts with the `memory` tool (nothing stored in history);
 * 2. the older turns are summarised into one message; the last `keep_recent_turns` user turns stay
 *    verbatim (older rows stay in the database, searchable);
 * 3. the session's prompt is rebuilt, so the new memory shows — a recorded prefix-cache break.
 *
 * Forced (`ctx.force`: the provider refused the last request as longer than its context, issue 38):
 * whatever the estimate, step 1 is skipped (it would send the same overflowing history) and only the
 * last turn stays verbatim.
 *
 * A failure of the model in steps 1–2 leaves the session as it was (the turn still runs; compression
 * is tried again next turn); a stopped turn stops here too.
 */
import type { SessionMaintainer } from '../agent.js';
import type { Settings } from '../settings.js';
import type { SessionRecord, Store } from '../store/types.js';
import type { Address } from '../../platform/address.js';
import type { Logger } from '../logger.js';
import type { Provider } from '../providers/provider.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { addUsage, ZERO_USAGE, type ChatMessage, type Usage } from '../messages.js';
import { ModelError, oneLine } from '../errors.js';
import { estimateMessageTokens, estimateTextTokens, planCompression } from './plan.js';
import { flushMemory } from './flush.js';
import { summariseOlderTurns } from './summary.js';

export { estimateMessageTokens, estimateTextTokens, planCompression } from './plan.js';
export { FLUSH_INSTRUCTION, MEMORY_TOOL } from './flush.js';
export { SUMMARY_HEADER } from './summary.js';

export interface CompressionDeps {
  settings: Settings;
  store: Store;
  provider: Provider;
  logger: Logger;
  /**
   * The agent's tools (the same list given to `new Agent`). The flush request offers the list a turn
   * of this session offers, so it shares the cached prefix; only `memory` calls are run.
   */
  tools: readonly Tool[];
  /** Rebuilds and stores the session's prompt, counting a prefix-cache break: `(s) => prompts.rebuild(s)` (SessionPrompts). */
  rebuildPrompt: (session: SessionRecord) => Promise<void>;
  now?: () => Date;
}

export interface CompressionOutcome {
  compressed: boolean;
  /** Estimated tokens of prompt + history before and after. */
  beforeTokens: number;
  afterTokens: number;
  memorySaves: number;
}

/** Estimated tokens a session's next request starts with: its prompt and its stored history. */
export function sessionTokens(prompt: string, history: readonly ChatMessage[]): number {
  return estimateTextTokens(prompt) + estimateMessageTokens(history);
}

/** The token count past which a session is compressed. */
export function compressionThreshold(settings: Settings): number {
  return Math.floor(settings.config.sessions.compress_at * settings.config.model.context_window);
}

/**
 * Compresses the session if it is over the threshold. Exposed for tests and the benchmark; the
 * maintainer below is what the agent runs.
 */
export async function compressIfNeeded(
  deps: CompressionDeps,
  session: SessionRecord,
  ctx: { signal: AbortSignal; replyAddress: Address; force?: boolean },
): Promise<{ session: SessionRecord; outcome: CompressionOutcome; history: ChatMessage[] }> {
  const { settings, store, provider, logger } = deps;
  const history = await store.messages.history(session.id);
  const beforeTokens = sessionTokens(session.prompt, history);
  const threshold = compressionThreshold(settings);
  const unchanged = { session, history, outcome: { compressed: false, beforeTokens, afterTokens: beforeTokens, memorySaves: 0 } };
  // Forced: the provider refused the last request as too long for its context, whatever the estimate said.
  if (beforeTokens <= threshold && !ctx.force) return unchanged;

  const rows = await store.messages.historyRows(session.id);
  // Forced (the context overflowed): only the last turn stays verbatim.
  const plan = planCompression(rows, ctx.force ? 1 : settings.config.sessions.keep_recent_turns, threshold / 2);
  if (!plan) return unchanged;

  const now = deps.now ?? (() => new Date());
  const toolCtx: ToolContext = {
    settings,
    store,
    logger,
    provider,
    platform: session.platform,
    session: session.address,
    sessionKey: session.key,
    sessionId: session.id,
    personKey: session.personKey,
    replyAddress: ctx.replyAddress,
    signal: ctx.signal,
    now,
  };
  const maxOutputTokens = settings.config.model.max_output_tokens;
  let usage: Usage = ZERO_USAGE;
  let requests = 0;
  let memorySaves = 0;
  try {
    // The flush sends the whole history: after a context-length error it would fail the same way.
    if (!ctx.force) {
      const flush = await flushMemory({ provider, model: settings.model.name, maxOutputTokens, session, history, tools: deps.tools, ctx: toolCtx });
      usage = flush.usage;
      requests += flush.requests;
      memorySaves = flush.saved.length;
    }
    const { summary, usage: summaryUsage } = await summariseOlderTurns({
      provider,
      model: settings.config.model.summary_name ?? settings.model.name,
      maxOutputTokens,
      previousSummary: await store.messages.summary(session.id),
      messages: plan.older.map((r) => r.message),
      signal: ctx.signal,
    });
    usage = addUsage(usage, summaryUsage);
    requests++;
    await store.transaction(async (tx) => {
      await tx.messages.compress(
        session.id,
        plan.older.map((r) => r.id),
        summary,
      );
      await tx.sessions.addUsage(session.id, usage, requests);
    });
  } catch (error) {
    if (ctx.signal.aborted) throw new ModelError('the turn was stopped');
    if (requests) await store.sessions.addUsage(session.id, usage, requests);
    logger.warn('compression', `session ${session.id}: compression skipped this turn (${oneLine(error)})`);
    return unchanged;
  }
  await deps.rebuildPrompt(session);
  const refreshed = (await store.sessions.get(session.id))!;
  const kept = await store.messages.history(session.id);
  const afterTokens = sessionTokens(refreshed.prompt, kept);
  logger.info(
    'compression',
    `session ${session.id}: ${plan.older.length} older message(s) summarised, ${plan.recent.length} kept, ${memorySaves} memory save(s); ~${beforeTokens} → ~${afterTokens} tokens`,
  );
  return { session: refreshed, history: kept, outcome: { compressed: true, beforeTokens, afterTokens, memorySaves } };
}

/**
 * The agent's SessionMaintainer: `new Agent({ …, maintainSession: createCompressionMaintainer(deps) })`.
 * `deps` may be a function, read at each turn, for wiring where the agent is created after the
 * maintainer (its `rebuildPrompt` is needed here).
 */
export function createCompressionMaintainer(deps: CompressionDeps): SessionMaintainer {
  // The history read for the threshold check is the one the turn sends: handed on, not read again.
  return async (session, ctx) => {
    const { session: kept, history } = await compressIfNeeded(deps, session, ctx);
    return { session: kept, history };
  };
}
