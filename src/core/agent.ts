import { randomBytes, createHash } from 'node:crypto';
import type { Settings } from './settings.js';
import type { Repositories, SessionRecord, Store, TurnWrites } from './store/types.js';
import type { Address, SessionAddress } from '../platform/address.js';
import type { Logger } from './logger.js';
import type { ModelRequest, ModelResponse, Provider } from './providers/provider.js';
import { refusesImages } from './providers/errors.js';
import { NO_VISION_NOTICE } from './media/parts.js';
import type { SessionPrompts } from './session-prompts.js';
import type { Telemetry } from './telemetry.js';
import type { BudgetCheck } from './cost/budgets.js';
import { performance } from 'node:perf_hooks';
import { addUsage, ZERO_USAGE, type ChatMessage, type MessageFile, type MessageMedia, type ToolCall, type Usage } from './messages.js';
import { ToolRegistry, type ToolSource } from './tools/registry.js';
import { LRUCache } from 'lru-cache';
import { MediaDataCache } from './media/data.js';
import { sentFiles } from './outbound-files.js';
import type { AttachmentRef } from './types.js';
import type { Tool, ToolContext } from './tools/types.js';
import { ModelError, NO_MODEL, oneLine } from './errors.js';
import type { ChatConfig } from './config.js';
import { TurnTaint, type TaintMark } from './taint.js';
import { approvalReason, UNATTENDED_DENIAL } from './approvals/policy.js';

export type { PromptFactory } from './session-prompts.js';

/**
 * Runs before a turn, may rewrite the session (context compression). Returns the session to use —
 * with its history when it read it anyway, so the turn does not read it a second time (the turn
 * takes that array over, as it does one from MessageRepo.history).
 */
export type SessionMaintainer = (
  session: SessionRecord,
  ctx: { signal: AbortSignal; replyAddress: Address; force?: boolean },
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
  /** Its other attachments as facts (a voice note, a document), stored with it for its transcript. */
  userFiles?: readonly MessageFile[];
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
   * `force`: the provider said the last try did not fit the model's context — the session is
   * compressed before this turn whatever its estimated size (issue 38).
   */
  compress?: 'force';
  /**
   * Sends a file with this turn's reply (ToolContext.attach, ARCHITECTURE.md §15): the gateway's or the cron
   * run's, collecting the files its reply carries. Absent: tools that send files say they cannot.
   */
  attach?: ToolContext['attach'];
}

/**
 * A turn paused for a person's yes (ARCHITECTURE.md §16), as it is stored with the approval: everything
 * needed to go on where it stopped, on any instance, after any restart.
 */
export interface PausedTurn {
  /** This turn's messages so far, from the user's message on (the last is the assistant's tool calls). */
  messages: ChatMessage[];
  /** That message's calls not yet answered; the first is the one waiting for the yes. */
  calls: ToolCall[];
  /** The next model request's number in this turn (the tool-call budget goes on counting). */
  iteration: number;
  usage: Usage;
  requests: number;
  taint: TaintMark[];
  tail?: string;
  /** Calls denied because nobody could be asked (cron): the report says so. */
  unattendedDenials: string[];
}

/** The call a paused turn waits on: its tool, why it is asked, and the turn to store. */
export interface ApprovalRequest {
  call: ToolCall;
  reason: string;
  paused: PausedTurn;
}

export interface TurnResult {
  answer: string;
  session: SessionRecord;
  /** Messages of this turn to append to the history (user, tool round-trips, final answer). */
  newMessages: ChatMessage[];
  usage: Usage;
  requests: number;
  /** Set when the turn paused for an approval: `answer` is empty and nothing of it is stored yet but the pause. */
  pause?: ApprovalRequest;
  /** One line each the user is told besides the answer (the model refused the images, ARCHITECTURE.md §15). */
  notices?: string[];
}

/**
 * How the call a paused turn waited on ends: run it now (approved), or this text is its result, or the
 * turn was stopped (`/stop`): every call it waited on gets this text and the turn ends without a request.
 */
export type ApprovalVerdict = { run: (call: () => Promise<string>) => Promise<string> } | { result: string } | { stopped: string };

/** A stopped turn's answer (as a running turn cancelled by /stop says). */
export const STOPPED_ANSWER = 'Stopped.';

/** A turn's running state between model requests (turn and resume share the loop). */
interface LoopState {
  session: SessionRecord;
  messages: ChatMessage[];
  /** Index in `messages` of this turn's first message (the user's). */
  stored: number;
  /** The bytes of the images among `messages` (ARCHITECTURE.md §15), when the model takes images. */
  media: Awaited<ReturnType<MediaDataCache['load']>> | undefined;
  ctx: ToolContext;
  /** The session's tools (pinned when it started, ARCHITECTURE.md §16) and the list offered this run. */
  registry: ToolRegistry;
  tools: readonly Tool[];
  taint: TurnTaint;
  calls: ToolCall[];
  iteration: number;
  usage: Usage;
  requests: number;
  unattendedDenials: string[];
}

export interface AgentDeps {
  settings: Settings;
  store: Store;
  provider: Provider;
  tools: readonly Tool[];
  /** Tools that come and go (MCP servers): a session gets those current when it starts, for its lifetime. */
  toolSource?: ToolSource;
  prompts: SessionPrompts;
  logger: Logger;
  now?: () => Date;
  maintainSession?: SessionMaintainer;
  /** Model latency and usage for the metrics (ARCHITECTURE.md §18). */
  telemetry?: Telemetry;
  /** Throws BudgetSpent when the turn would start over its daily budget (no model call is made). */
  budget?: BudgetCheck;
  /** The bytes of stored images as requests carry them, shared with media intake (ARCHITECTURE.md §15). */
  mediaData?: MediaDataCache;
}

export function newSessionId(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `${day}-${randomBytes(4).toString('hex')}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A user message with its images and files (ARCHITECTURE.md §15), each field only when it has some. */
function userMessage(content: string, media?: readonly MessageMedia[], files?: readonly MessageFile[]): ChatMessage {
  return { role: 'user', content, ...(media?.length ? { media } : {}), ...(files?.length ? { files } : {}) };
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
  /** The tools a session starting now gets (the built-in ones and the tool source's current ones). */
  private registryNow: ToolRegistry;
  private sourced: readonly Tool[] = [];
  /**
   * Each session's tools, as they were when it started (ARCHITECTURE.md §16): the tool list is part of
   * the cached prefix, so a change of the source's tools shows from the next session or `/new`. After a
   * restart a session gets the current list (its prompt is rebuilt when the list's signature differs).
   */
  private readonly pinned = new LRUCache<string, ToolRegistry>({ max: 20_000 });
  private readonly now: () => Date;
  /** The bytes of stored images, as the requests carry them. */
  private readonly mediaData: MediaDataCache;
  /**
   * Sessions whose model refused image parts (ARCHITECTURE.md §15): their later turns send the one-line
   * placeholders at once rather than fail first (while this process runs).
   */
  private readonly refusedImages = new LRUCache<string, true>({ max: 20_000 });

  constructor(private readonly deps: AgentDeps) {
    this.registryNow = new ToolRegistry(deps.tools);
    this.mediaData = deps.mediaData ?? new MediaDataCache();
    this.now = deps.now ?? (() => new Date());
  }

  /** The tools a session starting now would get. */
  get registry(): ToolRegistry {
    const source = this.deps.toolSource;
    if (source) {
      const current = source.current();
      if (current !== this.sourced) {
        this.sourced = current;
        this.registryNow = new ToolRegistry([...this.deps.tools, ...current]);
      }
    }
    return this.registryNow;
  }

  /** A session's tools: those it started with (pinned), else those of now, pinned to it from here on. */
  private registryOf(sessionId: string): ToolRegistry {
    if (!this.deps.toolSource) return this.registryNow;
    const known = this.pinned.get(sessionId);
    if (known) return known;
    const now = this.registry;
    this.pinned.set(sessionId, now);
    return now;
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
  async ensureSession(facts: SessionFacts): Promise<SessionRecord> {
    return (await this.openSession(facts)).session;
  }

  /** ensureSession, with the session's tools for this kind of run. */
  private async openSession(facts: SessionFacts): Promise<{ session: SessionRecord; registry: ToolRegistry; tools: Tool[] }> {
    const { store } = this.deps;
    const { session: address, personKey } = facts;
    const now = this.now();
    const unattended = facts.unattended ?? false;
    // The MCP servers start with the gateway without holding its start up; a session waits for them.
    await this.deps.toolSource?.settled?.();
    let session = await store.sessions.findOpen(address);
    if (session) {
      const reason = this.expiry(session, now);
      if (reason) {
        await store.sessions.end(session.id, reason, now.getTime());
        this.deps.logger.info('sessions', `session ${session.id} ended (${reason})`);
        session = undefined;
      }
    }
    const registry = session ? this.registryOf(session.id) : this.registry;
    const tools = registry.forRun({ unattended });
    const toolsSignature = ToolRegistry.signature(tools);
    if (!session) {
      const id = newSessionId(now);
      if (this.deps.toolSource) this.pinned.set(id, registry);
      const built = await this.deps.prompts.build({ address, personKey, sessionId: id, startedAt: now });
      const created = await store.sessions.create({
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
      return { session: created, registry, tools };
    }
    if (session.toolsSignature !== toolsSignature) {
      await this.deps.prompts.rebuild(session, toolsSignature);
      return { session: (await store.sessions.get(session.id)) ?? session, registry, tools };
    }
    return { session, registry, tools };
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
    const { store } = this.deps;
    await this.deps.budget?.({ personKey: input.personKey, platform: input.session.platform });
    const { registry, tools, session: opened } = await this.openSession(input);
    let session = opened;
    let history: ChatMessage[] | undefined;
    if (this.deps.maintainSession) {
      const maintained = await this.deps.maintainSession(session, { signal: input.signal, replyAddress: input.replyAddress, force: input.compress === 'force' });
      if ('history' in maintained) ({ session, history } = maintained);
      else session = maintained;
    }
    // The history is an array of this turn's own (MessageRepo.history): the turn's messages go on
    // after it, rather than into a copy of a long history made for every turn.
    const messages: ChatMessage[] = history ?? (await store.messages.history(session.id));
    const stored = messages.length;
    messages.push(userMessage(input.userContent, input.userMedia, input.userFiles));
    const taint = new TurnTaint();
    for (const mark of input.taint ?? []) taint.mark(mark.kind, mark.source);
    return this.loop(input, {
      session,
      messages,
      stored,
      media: await this.imagesOf(session.id, messages),
      ctx: this.toolContext(input, session, taint),
      registry,
      tools,
      taint,
      calls: [],
      iteration: 0,
      usage: ZERO_USAGE,
      requests: 0,
      unattendedDenials: [],
    });
  }

  /**
   * Goes on with a turn paused for an approval (ARCHITECTURE.md §16): its stored messages follow the
   * session's history, the call it waited on ends as `verdict` says, the other calls of the same model
   * message run, and the model loop continues. It may pause again on a later call.
   */
  async resume(input: TurnInput, paused: PausedTurn, verdict: ApprovalVerdict): Promise<TurnResult> {
    const { registry, tools, session } = await this.openSession(input);
    if ('stopped' in verdict) {
      // No request, so neither the history nor its images are read. Each call the model made gets its
      // result, so the history stays a valid exchange for the next request.
      const results: ChatMessage[] = paused.calls.map((c) => ({ role: 'tool', toolCallId: c.id, name: c.name, content: verdict.stopped }));
      const newMessages: ChatMessage[] = [...paused.messages, ...results, { role: 'assistant', content: STOPPED_ANSWER }];
      return { answer: STOPPED_ANSWER, session, newMessages, usage: paused.usage, requests: paused.requests };
    }
    const messages: ChatMessage[] = await this.deps.store.messages.history(session.id);
    const stored = messages.length;
    messages.push(...paused.messages);
    const taint = new TurnTaint();
    for (const m of paused.taint) taint.mark(m.kind, m.source);
    const ctx = this.toolContext(input, session, taint);
    const media = await this.imagesOf(session.id, messages);
    const [call, ...rest] = paused.calls;
    const content = 'result' in verdict ? verdict.result : await verdict.run(() => this.runTool(registry, call.name, call.arguments, ctx, false).then((r) => ('content' in r ? r.content : r.reason)));
    messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
    return this.loop({ ...input, tail: paused.tail }, {
      session,
      messages,
      stored,
      media,
      ctx,
      registry,
      tools,
      taint,
      calls: rest,
      iteration: paused.iteration,
      usage: paused.usage,
      requests: paused.requests,
      unattendedDenials: paused.unattendedDenials,
    });
  }

  /** Images reach the model as image parts only where it takes them (model.vision, and it has not refused them). */
  private imagesOf(sessionId: string, messages: readonly ChatMessage[]): Promise<LoopState['media']> {
    if (!this.deps.settings.config.model.vision || this.refusedImages.has(sessionId)) return Promise.resolve(undefined);
    return this.mediaData.load(this.deps.store.media, messages);
  }

  /**
   * One model request. A model that refuses image parts (providers/errors.ts) is asked once more with the
   * one-line placeholders instead; the session remembers it and the user is told once (ARCHITECTURE.md §15).
   */
  private async ask(request: ModelRequest, st: LoopState, notices: string[]): Promise<ModelResponse> {
    try {
      return await this.deps.provider.complete(request);
    } catch (error) {
      if (!request.media?.size || !refusesImages(error) || request.signal?.aborted) throw error;
      this.refusedImages.set(st.session.id, true);
      st.media = undefined;
      notices.push(NO_VISION_NOTICE);
      this.deps.logger.warn('media', `session ${st.session.id}: the model refused image parts (${oneLine(error)}); asking again with a line naming each image`);
      return await this.deps.provider.complete({ ...request, media: undefined });
    }
  }

  private toolContext(input: TurnInput, session: SessionRecord, taint: TurnTaint): ToolContext {
    const { store, provider, settings, logger } = this.deps;
    return {
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
  }

  /** The model loop: answers the calls left, asks the model, runs its calls, until it answers or pauses. */
  private async loop(input: TurnInput, st: LoopState): Promise<TurnResult> {
    const { settings, logger } = this.deps;
    const { session, messages, ctx } = st;
    const specs = ToolRegistry.specs(st.tools);
    const unattended = input.unattended ?? false;
    const maxIterations = settings.config.model.max_tool_iterations;
    let answer: string | null = null;
    const notices: string[] = [];
    // The model the session started with (ARCHITECTURE.md §13), the same for every call of the turn.
    const model = session.model ?? settings.model.name;
    for (;;) {
      while (st.calls.length) {
        const call = st.calls[0];
        input.onTool?.(call.name);
        const outcome = await this.runTool(st.registry, call.name, call.arguments, ctx, true);
        if ('reason' in outcome) {
          if (!unattended) {
            const paused: PausedTurn = {
              messages: messages.slice(st.stored),
              calls: [...st.calls],
              iteration: st.iteration,
              usage: st.usage,
              requests: st.requests,
              taint: [...st.taint.list()],
              ...(input.tail === undefined ? {} : { tail: input.tail }),
              unattendedDenials: st.unattendedDenials,
            };
            logger.info('approvals', `session ${session.id}: ${call.name} waits for approval (${outcome.reason})`);
            return { answer: '', session, newMessages: [], usage: st.usage, requests: st.requests, pause: { call, reason: outcome.reason, paused }, ...(notices.length ? { notices } : {}) };
          }
          logger.info('approvals', `session ${session.id}: ${call.name} denied (a scheduled run cannot ask for approval)`);
          st.unattendedDenials.push(call.name);
          messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: UNATTENDED_DENIAL });
        } else {
          messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: outcome.content });
        }
        st.calls.shift();
      }
      if (answer !== null || st.iteration > maxIterations) break;
      if (input.signal.aborted) throw new ModelError('the turn was stopped');
      const lastChance = st.iteration === maxIterations;
      st.iteration++;
      const tail = lastChance ? [input.tail, TOOL_BUDGET_TAIL].filter(Boolean).join('\n\n') : input.tail;
      let soFar = '';
      const onText = input.onText;
      const asked = performance.now();
      const response = await this.ask(
        {
          model,
          system: session.promptLayers,
          messages,
          tail,
          tools: specs,
          ...(st.media?.size ? { media: st.media } : {}),
          maxOutputTokens: settings.config.model.max_output_tokens,
          signal: input.signal,
          ...(onText ? { onText: (delta: string) => onText((soFar += delta)) } : {}),
        },
        st,
        notices,
      );
      st.requests++;
      this.deps.telemetry?.model(model, (performance.now() - asked) / 1000, response.usage);
      st.usage = addUsage(st.usage, response.usage);
      // A stream cut by /stop may end quietly with the text so far: that is no answer.
      if (input.signal.aborted) throw new ModelError('the turn was stopped');
      if (response.toolCalls.length && !lastChance) {
        messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
        st.calls = [...response.toolCalls];
        continue;
      }
      answer = response.text.trim() ? response.text : response.toolCalls.length ? 'I ran out of tool calls for this turn.' : '';
      messages.push({ role: 'assistant', content: answer });
    }
    if (answer === null) answer = '';
    if (st.unattendedDenials.length) {
      // The report says what was not done, whatever the model wrote (§17: a cron run refuses them).
      const names = [...new Set(st.unattendedDenials)].map((n) => `\`${n}\``).join(', ');
      answer = `${answer}\n\n_Not done: ${names} needs a person's approval, and a scheduled run cannot ask for one._`.trim();
      const last = messages[messages.length - 1];
      if (last.role === 'assistant') last.content = answer;
    }
    logger.debug('agent', `session ${session.id}: ${st.requests} request(s), ${st.usage.inputTokens} in / ${st.usage.cachedTokens} cached / ${st.usage.outputTokens} out`);
    return { answer, session, newMessages: messages.slice(st.stored), usage: st.usage, requests: st.requests, ...(notices.length ? { notices } : {}) };
  }

  /**
   * Stores a finished turn: its messages join the history verbatim and its usage is added to the
   * session. `tx` is the caller's transaction, so the reply is stored with it. `files`: what the reply
   * carries (send_file, MCP images).
   */
  async commit(tx: Repositories, result: TurnResult, personKey: string, at: number, files?: readonly AttachmentRef[]): Promise<void> {
    const { append, recordTurn } = this.turnWrites(result, personKey, at, files);
    await tx.messages.append(append.sessionId, append.personKey, append.messages, append.at, append.usage);
    await tx.sessions.recordTurn(recordTurn.sessionId, recordTurn.at, recordTurn.usage, recordTurn.requests);
  }

  /** What `commit` writes, as parts of a turn's one write with its reply and journal rows (Store.turns.commit). */
  turnWrites(result: TurnResult, personKey: string, at: number, files?: readonly AttachmentRef[]): Required<Pick<TurnWrites, 'append' | 'recordTurn'>> {
    let messages = result.newMessages;
    const last = messages[messages.length - 1];
    // The files the reply carries are kept with its message, for the transcript (never sent to the model).
    if (files?.length && last?.role === 'assistant') messages = [...messages.slice(0, -1), { ...last, files: sentFiles(files) }];
    return {
      append: { sessionId: result.session.id, personKey, messages, at, usage: result.usage },
      recordTurn: { sessionId: result.session.id, at, usage: result.usage, requests: result.requests },
    };
  }

  /**
   * A turn that failed (model error) or was stopped still keeps what the user said in the history,
   * so the next turn has it: this is the session to keep it in (ensured before the transaction that
   * stores it with the reply, see failedTurnWrites). Null when not even that worked (the caller says so).
   */
  async failedTurnSession(facts: SessionFacts): Promise<SessionRecord | null> {
    try {
      return await this.ensureSession(facts);
    } catch (error) {
      this.deps.logger.error('agent', `could not keep the message of ${facts.sessionKey}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  /**
   * What the user said in a failed or stopped turn, as the history part of the caller's one write
   * (Store.turns.commit) — the one that also stores the apology and settles the journal, so a crash
   * between them cannot keep the message and leave it journaled (answered again after a restart, it
   * would be in the history twice).
   */
  failedTurnWrites(session: SessionRecord, personKey: string, userContent: string, at: number, media?: readonly MessageMedia[], files?: readonly MessageFile[]): Required<Pick<TurnWrites, 'append'>> {
    return { append: { sessionId: session.id, personKey, messages: [userMessage(userContent, media, files)], at } };
  }

  /**
   * Runs one call, or — `checked` and the call needs a person's yes (approvals/policy.ts) — returns why
   * instead of running it. A tool whose result is untrusted text marks the turn's taint after it returns.
   */
  private async runTool(registry: ToolRegistry, name: string, rawArgs: string, ctx: ToolContext, checked: boolean): Promise<{ content: string } | { reason: string }> {
    const tool = registry.get(name);
    if (!tool) return { content: `Error: there is no tool named '${name}'.` };
    let args: unknown;
    try {
      args = JSON.parse(rawArgs || '{}');
    } catch {
      return { content: `Error: the arguments for ${name} are not valid JSON.` };
    }
    if (checked) {
      const reason = approvalReason(tool, args, ctx);
      if (reason) return { reason };
    }
    try {
      const content = await tool.run(args, ctx);
      if (tool.untrustedResult) ctx.taint?.mark('tool_result', name);
      return { content };
    } catch (error) {
      if (tool.untrustedResult) ctx.taint?.mark('tool_result', name);
      const message = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn('tools', `${name} failed: ${message}`);
      return { content: `Error: ${message}` };
    }
  }
}
