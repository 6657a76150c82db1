import { randomBytes, createHash } from 'node:crypto';
import type { Settings } from './settings.js';
import type { Repositories, SessionRecord, Store } from './store/types.js';
import type { Address, SessionAddress } from '../platform/address.js';
import type { Logger } from './logger.js';
import type { Provider } from './providers/provider.js';
import type { SessionPrompts } from './session-prompts.js';
import { addUsage, ZERO_USAGE, type ChatMessage, type MessageMedia, type Usage } from './messages.js';
import { TurnTaint, type TaintMark } from './taint.js';
import { MediaDataCache } from './media/data.js';
import { ToolRegistry } from './tools/registry.js';
import type { Tool, ToolContext } from './tools/types.js';
import { ModelError, NO_MODEL } from './errors.js';
import type { ChatConfig } from './config.js';

export type { PromptFactory } from './session-prompts.js';

/**
 * Runs before a turn, may rewrite the session (context compression). Returns the session to use —
 * with its history when it read it anyway, so the turn does not read it a second time (the turn
 * takes that array over, as it does one from MessageRepo.history).
 */
export type SessionMaintainer = (
  session: SessionRecord,
  ctx: { signal: AbortSignal; replyAddress: Address },
) => Promise<SessionRecord | { session: SessionRecord; history: ChatMessage[] }>;

/** Who talks where: the facts of a turn the agent needs about its session, known before it runs. */
export interface SessionFacts {
  /** Whose session, where (its platform is the turn's platform). */
  session: SessionAddress;
  /** Its key (`platform:chat[:thread]:user`, `cron:<job>`), as the gateway computed it at intake. */
  sessionKey: string;
  personKey: string;
  /** The chat's `chats:` entry (ARCHITECTURE.md §13), looked up at intake; undefined when it has none. */
  chat: ChatConfig | undefined;
  /** Nobody is present (cron): no tool that waits for a human. */
  unattended?: boolean;
}

export interface TurnInput extends SessionFacts {
  /** The new user message, stored byte for byte. */
  userContent: string;
  /** Its images (ARCHITECTURE.md §15), stored with it and shown to the model on every later turn. */
  userMedia?: readonly MessageMedia[];
  /** Untrusted text the user message brought in (a document, a transcript): the turn starts tainted (§17). */
  taint?: readonly TaintMark[];
  /** Per-call instruction after the history; never stored. */
  tail?: string;
  /** The chat the turn came from (default delivery for the cron tool). */
  replyAddress: Address;
  signal: AbortSignal;
  /**
   * Streaming (ARCHITECTURE.md §10): called with the answer text written so far by the current model call,
   * as it grows. A call that ends in tool calls is followed by the next call's text from the start
   * (what a user finally reads is the last call's answer). Absent: the provider is not asked to stream.
   */
  onText?: (textSoFar: string) => void;
  /** Called before a tool runs (a one-line status while it works). */
  onTool?: (name: string) => void;
  /**
   * Sends a file with this turn's reply (ToolContext.attach, ARCHITECTURE.md §15): the gateway's or the cron
   * run's, collecting the files its reply carries. Absent: tools that send files say they cannot.
   */
  attach?: ToolContext['attach'];
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
  prompts: SessionPrompts;
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
  /** The bytes of stored images, as the requests carry them. */
  private readonly mediaData = new MediaDataCache();

  constructor(private readonly deps: AgentDeps) {
    this.registry = new ToolRegistry(deps.tools);
    this.now = deps.now ?? (() => new Date());
  }

  get settings(): Settings {
    return this.deps.settings;
  }

  /**
   * The model of a conversation: the one its session was started with (its chat's `model` from
   * `chats:` at that time, ARCHITECTURE.md §13; null: the global model), else — no session yet — `chatModel`,
   * the one a new session there would start with (TurnContext.model).
   */
  modelOf(session: Pick<SessionRecord, 'model'> | undefined, chatModel: string): string {
    return session ? (session.model ?? this.deps.settings.model.name) : chatModel;
  }

  /**
   * What the ready line and /status say about a model (default: the global one): `name (provider)`,
   * or, when nothing is configured and no local Ollama answers, NO_MODEL (the one line saying how to
   * configure one is printed elsewhere, once).
   */
  async modelStatus(model = this.deps.settings.model.name): Promise<{ ok: boolean; label: string }> {
    const { settings, provider } = this.deps;
    if (settings.model.provider !== 'auto') return { ok: true, label: `${model} (${settings.model.provider})` };
    if (await provider.check()) return { ok: false, label: NO_MODEL };
    return { ok: true, label: `${model} (local Ollama)` };
  }

  /** The open session at an address, started (with its prompt built and stored) when there is none or it expired. */
  async ensureSession(facts: SessionFacts, tools: readonly Tool[]): Promise<SessionRecord> {
    const { store } = this.deps;
    const { session: address, personKey } = facts;
    const now = this.now();
    const toolsSignature = ToolRegistry.signature(tools);
    let session = await store.sessions.findOpen(address);
    if (session) {
      const reason = this.expiry(session, now);
      if (reason) {
        await store.sessions.end(session.id, reason, now.getTime());
        this.deps.logger.info('sessions', `session ${session.id} ended (${reason})`);
        session = undefined;
      }
    }
    if (!session) {
      const id = newSessionId(now);
      const built = await this.deps.prompts.build({ address, personKey, sessionId: id, startedAt: now });
      return store.sessions.create({
        id,
        address,
        personKey,
        startedAt: now.getTime(),
        promptLayers: built.layers,
        prompt: built.text,
        promptSha256: built.sha256,
        toolsSignature,
        model: facts.chat?.model,
      });
    }
    if (session.toolsSignature !== toolsSignature) {
      await this.deps.prompts.rebuild(session, toolsSignature);
      return (await store.sessions.get(session.id)) ?? session;
    }
    return session;
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
    let session = await this.ensureSession(input, tools);
    let history: ChatMessage[] | undefined;
    if (this.deps.maintainSession) {
      const maintained = await this.deps.maintainSession(session, { signal: input.signal, replyAddress: input.replyAddress });
      if ('history' in maintained) ({ session, history } = maintained);
      else session = maintained;
    }
    // The history is an array of this turn's own (MessageRepo.history): the turn's messages go on
    // after it, rather than into a copy of a long history made for every turn.
    const messages: ChatMessage[] = history ?? (await store.messages.history(session.id));
    const stored = messages.length;
    messages.push(input.userMedia?.length ? { role: 'user', content: input.userContent, media: input.userMedia } : { role: 'user', content: input.userContent });
    const specs = ToolRegistry.specs(tools);
    const taint = new TurnTaint();
    for (const mark of input.taint ?? []) taint.mark(mark.kind, mark.source);
    // Images reach the model as image parts only where it takes them (model.vision).
    const media = settings.config.model.vision ? await this.mediaData.load(store.media, messages) : undefined;
    const ctx: ToolContext = {
      settings,
      store,
      logger,
      provider,
      platform: input.session.platform,
      session: input.session,
      sessionKey: input.sessionKey,
      sessionId: session.id,
      personKey: input.personKey,
      replyAddress: input.replyAddress,
      signal: input.signal,
      now: this.now,
      taint,
      ...(input.attach ? { attach: input.attach } : {}),
    };
    let usage = ZERO_USAGE;
    let requests = 0;
    const maxIterations = settings.config.model.max_tool_iterations;
    let answer: string | null = null;
    // The model the session started with (ARCHITECTURE.md §13), the same for every call of the turn.
    const model = session.model ?? settings.model.name;
    for (let i = 0; i <= maxIterations && answer === null; i++) {
      if (input.signal.aborted) throw new ModelError('the turn was stopped');
      const lastChance = i === maxIterations;
      const tail = lastChance ? [input.tail, TOOL_BUDGET_TAIL].filter(Boolean).join('\n\n') : input.tail;
      let soFar = '';
      const onText = input.onText;
      const response = await provider.complete({
        model,
        system: session.promptLayers,
        messages,
        tail,
        tools: specs,
        ...(media?.size ? { media } : {}),
        maxOutputTokens: settings.config.model.max_output_tokens,
        signal: input.signal,
        ...(onText ? { onText: (delta: string) => onText((soFar += delta)) } : {}),
      });
      requests++;
      usage = addUsage(usage, response.usage);
      // A stream cut by /stop may end quietly with the text so far: that is no answer.
      if (input.signal.aborted) throw new ModelError('the turn was stopped');
      if (response.toolCalls.length && !lastChance) {
        messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
        for (const call of response.toolCalls) {
          input.onTool?.(call.name);
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
    return { answer, session, newMessages: messages.slice(stored), usage, requests };
  }

  /**
   * Stores a finished turn: its messages join the history verbatim and its usage is added to the
   * session. `tx` is the caller's transaction, so the reply is stored with it.
   */
  async commit(tx: Repositories, result: TurnResult, personKey: string, at: number): Promise<void> {
    await tx.messages.append(result.session.id, personKey, result.newMessages, at, result.usage);
    await tx.sessions.recordTurn(result.session.id, at, result.usage, result.requests);
  }

  /**
   * A turn that failed (model error) or was stopped still keeps what the user said in the history,
   * so the next turn has it: this is the session to keep it in (ensured before the transaction that
   * stores it with the reply, see keepFailedTurn). Null when not even that worked (the caller says so).
   */
  async failedTurnSession(facts: SessionFacts): Promise<SessionRecord | null> {
    try {
      return await this.ensureSession(facts, this.registry.forRun({ unattended: facts.unattended ?? false }));
    } catch (error) {
      this.deps.logger.error('agent', `could not keep the message of ${facts.sessionKey}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  /**
   * Stores what the user said in a failed or stopped turn, in the caller's transaction `tx` — the
   * one that also stores the apology and settles the journal, so a crash between them cannot keep
   * the message and leave it journaled (answered again after a restart, it would be in the history twice).
   */
  async keepFailedTurn(tx: Repositories, session: SessionRecord, personKey: string, userContent: string, at: number, media?: readonly MessageMedia[]): Promise<void> {
    await tx.messages.append(session.id, personKey, [media?.length ? { role: 'user', content: userContent, media } : { role: 'user', content: userContent }], at);
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
