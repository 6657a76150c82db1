import { randomBytes, createHash } from 'node:crypto';
import type { Settings } from './settings.js';
import type { Store } from './store/store.js';
import type { SessionRecord } from './store/sessions.js';
import type { Logger } from './logger.js';
import type { Provider, PromptLayer } from './providers/provider.js';
import type { PlatformId } from '../platform/ids.js';
import { addUsage, ZERO_USAGE, type ChatMessage, type Usage } from './messages.js';
import { ToolRegistry } from './tools/registry.js';
import type { Tool, ToolContext } from './tools/types.js';
import { ModelError } from './errors.js';

/** The prompt builder seam (src/core/prompt/builder.ts): layers for a new session. */
export type PromptFactory = (input: { platform: PlatformId; personKey: string; sessionId: string; startedAt: Date }) => {
  layers: PromptLayer[];
  text: string;
  sha256: string;
};

/** Runs before a turn, may rewrite the session (context compression). Returns the session to use. */
export type SessionMaintainer = (session: SessionRecord, ctx: { signal: AbortSignal; replyAddress: string }) => Promise<SessionRecord>;

export interface TurnInput {
  sessionKey: string;
  platform: PlatformId;
  personKey: string;
  /** The new user message, stored byte for byte. */
  userContent: string;
  /** Per-call instruction after the history; never stored. */
  tail?: string;
  /** `platform:chat[:thread]` the turn came from (default delivery for the cron tool). */
  replyAddress: string;
  signal: AbortSignal;
  /** Nobody is present (cron): no tool that waits for a human. */
  unattended?: boolean;
}

export interface TurnResult {
  answer: string;
  session: SessionRecord;
  /** Messages of this turn to append to the history (user, tool round-trips, final answer). */
  newMessages: ChatMessage[];
  usage: Usage;
  requests: number;
}

export interface AgentDeps {
  settings: Settings;
  store: Store;
  provider: Provider;
  tools: readonly Tool[];
  buildPrompt: PromptFactory;
  logger: Logger;
  now?: () => Date;
  maintainSession?: SessionMaintainer;
}

export function newSessionId(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `${day}-${randomBytes(4).toString('hex')}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const TOOL_BUDGET_TAIL =
  'You have used all tool calls available for this turn. Answer the user now with what you have, without calling tools.';

/**
 * The agent loop: cached system prompt + stored history + new user turn (+ ephemeral tail) → provider
 * → tools → final Markdown. Each request's messages extend the previous request's messages plus its
 * answer, so the provider's prefix cache hits. Storing the turn is the caller's job (one transaction
 * with the outbox).
 */
export class Agent {
  readonly registry: ToolRegistry;
  private readonly now: () => Date;

  constructor(private readonly deps: AgentDeps) {
    this.registry = new ToolRegistry(deps.tools);
    this.now = deps.now ?? (() => new Date());
  }

  get settings(): Settings {
    return this.deps.settings;
  }

  /** The open session for a key, started (with its prompt built and stored) when there is none or it expired. */
  ensureSession(key: string, platform: PlatformId, personKey: string, tools: readonly Tool[]): SessionRecord {
    const { store } = this.deps;
    const now = this.now();
    const toolsSignature = ToolRegistry.signature(tools);
    let session = store.sessions.findOpen(key);
    if (session) {
      const reason = this.expiry(session, now);
      if (reason) {
        store.sessions.end(session.id, reason, now.getTime());
        this.deps.logger.info('sessions', `session ${session.id} ended (${reason})`);
        session = undefined;
      }
    }
    if (!session) {
      const id = newSessionId(now);
      const built = this.deps.buildPrompt({ platform, personKey, sessionId: id, startedAt: now });
      return store.sessions.create({
        id,
        key,
        platform,
        personKey,
        startedAt: now.getTime(),
        promptLayers: built.layers,
        prompt: built.text,
        promptSha256: built.sha256,
        toolsSignature,
      });
    }
    if (session.toolsSignature !== toolsSignature) {
      this.rebuildPrompt(session, toolsSignature);
      return store.sessions.get(session.id)!;
    }
    return session;
  }

  /** Rebuilds a session's stored prompt (fresh memory snapshot); a recorded prefix-cache break. */
  rebuildPrompt(session: SessionRecord, toolsSignature = session.toolsSignature): void {
    const built = this.deps.buildPrompt({
      platform: session.platform,
      personKey: session.personKey,
      sessionId: session.id,
      startedAt: new Date(session.startedAt),
    });
    this.deps.store.sessions.replacePrompt(session.id, built.layers, built.text, built.sha256, toolsSignature);
    this.deps.logger.info('sessions', `session ${session.id}: system prompt rebuilt (prefix cache break)`);
  }

  private expiry(session: SessionRecord, now: Date): string | null {
    const { idle_reset_minutes, daily_reset_hour } = this.deps.settings.config.sessions;
    if (session.platform === 'cron') return null;
    if (idle_reset_minutes > 0 && now.getTime() - session.lastActiveAt > idle_reset_minutes * 60_000) return 'idle';
    if (daily_reset_hour !== null) {
      const boundary = new Date(now);
      boundary.setHours(daily_reset_hour, 0, 0, 0);
      if (boundary.getTime() > now.getTime()) boundary.setDate(boundary.getDate() - 1);
      if (session.startedAt < boundary.getTime()) return 'daily';
    }
    return null;
  }

  async turn(input: TurnInput): Promise<TurnResult> {
    const { store, provider, settings, logger } = this.deps;
    const tools = this.registry.forRun({ unattended: input.unattended ?? false });
    let session = this.ensureSession(input.sessionKey, input.platform, input.personKey, tools);
    if (this.deps.maintainSession) session = await this.deps.maintainSession(session, { signal: input.signal, replyAddress: input.replyAddress });

    const history = store.messages.history(session.id);
    const messages: ChatMessage[] = [...history, { role: 'user', content: input.userContent }];
    const specs = ToolRegistry.specs(tools);
    const ctx: ToolContext = {
      settings,
      store,
      logger,
      provider,
      platform: input.platform,
      sessionKey: input.sessionKey,
      sessionId: session.id,
      personKey: input.personKey,
      replyAddress: input.replyAddress,
      signal: input.signal,
      now: this.now,
    };
    let usage = ZERO_USAGE;
    let requests = 0;
    const maxIterations = settings.config.model.max_tool_iterations;
    let answer: string | null = null;
    for (let i = 0; i <= maxIterations && answer === null; i++) {
      if (input.signal.aborted) throw new ModelError('the turn was stopped');
      const lastChance = i === maxIterations;
      const tail = lastChance ? [input.tail, TOOL_BUDGET_TAIL].filter(Boolean).join('\n\n') : input.tail;
      const response = await provider.complete({
        model: settings.model.name,
        system: session.promptLayers,
        messages,
        tail,
        tools: specs,
        maxOutputTokens: settings.config.model.max_output_tokens,
        signal: input.signal,
      });
      requests++;
      usage = addUsage(usage, response.usage);
      if (response.toolCalls.length && !lastChance) {
        messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
        for (const call of response.toolCalls) {
          const content = await this.runTool(call.name, call.arguments, ctx);
          messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
        }
        continue;
      }
      answer = response.text.trim() ? response.text : response.toolCalls.length ? 'I ran out of tool calls for this turn.' : '';
      messages.push({ role: 'assistant', content: answer });
    }
    if (answer === null) answer = '';
    logger.debug('agent', `session ${session.id}: ${requests} request(s), ${usage.inputTokens} in / ${usage.cachedTokens} cached / ${usage.outputTokens} out`);
    return { answer, session, newMessages: messages.slice(history.length), usage, requests };
  }

  /**
   * Stores a finished turn: its messages join the history verbatim and its usage is added to the
   * session. Call it inside the caller's transaction when more must be stored with it (the reply).
   */
  commit(result: TurnResult, personKey: string, at: number): void {
    this.deps.store.messages.append(result.session.id, personKey, result.newMessages, at, result.usage);
    this.deps.store.sessions.recordTurn(result.session.id, at, result.usage, result.requests);
  }

  private async runTool(name: string, rawArgs: string, ctx: ToolContext): Promise<string> {
    const tool = this.registry.get(name);
    if (!tool) return `Error: there is no tool named '${name}'.`;
    let args: unknown;
    try {
      args = JSON.parse(rawArgs || '{}');
    } catch {
      return `Error: the arguments for ${name} are not valid JSON.`;
    }
    try {
      return await tool.run(args, ctx);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn('tools', `${name} failed: ${message}`);
      return `Error: ${message}`;
    }
  }
}
