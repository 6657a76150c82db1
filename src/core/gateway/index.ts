/**
 * The gateway (ARCHITECTURE.md §1, §7): what every adapter's inbound events go through.
 *
 *   turn context → addressed? → journal (dedup) → authorize → stopping? → command → enqueue turn
 *
 * What is known about the event is worked out once, before the first step (context.ts), and
 * travels with it. Each step is a small function (pipeline.ts); the policy lives in its own module —
 * access.ts (allow-lists, pairing), command-handlers.ts, turns.ts (queues and the turn itself),
 * replies.ts (render, then outbox in the turn's transaction, then delivery).
 */
import type { Settings } from '../settings.js';
import type { SessionRecord, Store } from '../store/types.js';
import type { MediaIntake } from '../media/intake.js';
import type { Logger } from '../logger.js';
import type { Agent } from '../agent.js';
import type { ActionOutcome, Adapter, InboundAction, InboundHandler, InboundMessage, InboundVerdict } from '../types.js';
import type { PlatformId } from '../../platform/ids.js';
import { unknownCommandText } from '../commands.js';
import { compose, type Step } from './pipeline.js';
import { turnContext, type TurnContext } from './context.js';
import { Access } from './access.js';
import { isAddressed } from './addressed.js';
import { COMMAND_HANDLERS } from './command-handlers.js';
import { AnsweredElsewhere, sessionLease, TurnRunner, type SessionLeases } from './turns.js';
import type { Replies } from './replies.js';
import { ApprovalDesk } from '../approvals/desk.js';

import type { Telemetry } from '../telemetry.js';

export type { Renderer } from './replies.js';

export interface GatewayDeps {
  settings: Settings;
  store: Store;
  agent: Agent;
  replies: Replies;
  logger: Logger;
  adapter: (platform: PlatformId) => Adapter | undefined;
  /** The session leases (ARCHITECTURE.md §9): this instance's Presence. */
  leases: SessionLeases;
  now?: () => Date;
  /** Messages received, turns and failures for the metrics (ARCHITECTURE.md §18). */
  telemetry?: Telemetry;
  /** What becomes of attachments (ARCHITECTURE.md §15); absent: they are not read. */
  media?: MediaIntake;
}

/**
 * Pending messages younger than this are left to the instance that received them (it may still be
 * authorizing them or answering a command); older ones of a free session are anyone's.
 */
const SWEEP_GRACE_MS = 2_000;

export class Gateway {
  private readonly turns: TurnRunner;
  /** Approvals (ARCHITECTURE.md §16): opened by paused turns, answered through `handle.action` and the console. */
  readonly approvals: ApprovalDesk;
  private readonly access: Access;
  private readonly now: () => Date;
  private readonly intake: (ctx: TurnContext) => Promise<InboundVerdict>;
  private readonly sweepSteps: (ctx: TurnContext) => Promise<InboundVerdict>;
  /** Events in this process's intake right now (`platform:update id`): the sweep leaves them alone. */
  private readonly inFlight = new Set<string>();
  private sweeping: Promise<number> | null = null;
  /** The approval the journal found waiting in a message's session as it recorded the message (enqueue closes it). */
  private readonly waitingApproval = new WeakMap<TurnContext, string>();

  constructor(private readonly deps: GatewayDeps) {
    this.now = deps.now ?? (() => new Date());
    this.access = new Access(deps.settings, deps.store.pairing, this.now);
    this.approvals = new ApprovalDesk({
      settings: deps.settings,
      store: deps.store,
      logger: deps.logger,
      now: this.now,
      closePrompt: async (record, text) => deps.adapter(record.platform)?.closeApprovalPrompt?.(record.id, text, storedPromptRef(record.promptRef)),
    });
    this.turns = new TurnRunner({ ...deps, now: this.now, approvals: this.approvals });
    this.intake = compose([this.addressed, this.journal, this.authorize, this.deferWhileStopping, this.command, this.enqueue]);
    this.sweepSteps = compose([this.authorize, this.command, this.enqueue]);
  }

  /** The InboundHandler given to every adapter: messages, and (`handle.action`) answers to approval prompts. */
  readonly handle: InboundHandler & { action: (action: InboundAction) => Promise<ActionOutcome> } = Object.assign(
    (message: InboundMessage) => this.take(message),
    { action: (action: InboundAction) => this.approvals.answer(action, this.resume) },
  );

  /** The console's answer to an approval (ARCHITECTURE.md §12). */
  answerApproval(id: string, decision: 'approved' | 'denied'): Promise<ActionOutcome> {
    return this.approvals.answerFromConsole(id, decision, this.resume);
  }

  /** Starts (or queues) the turn that resumes an answered approval; its row is journaled already. */
  private readonly resume = async (message: InboundMessage): Promise<void> => {
    if (this.turns.isStopping) return; // journaled: the sweep after the next start takes it
    await this.turns.offer(this.contextOf(message));
  };

  /** One message through intake. Resolves once the event is journaled. */
  private readonly take = async (message: InboundMessage): Promise<InboundVerdict> => {
    this.deps.telemetry?.received(message.platform);
    // An e-mail reply `approve CODE` / `deny CODE` answers an approval (ARCHITECTURE.md §16), never the model.
    const coded = message.platform === 'email' ? approvalByMail(message.text) : null;
    if (coded) return this.answerByMail(message, coded);
    return this.intake1(message);
  };

  /** The e-mail answer: the code stands for the approval; only an approver's counts. No backscatter: refusals are only logged. */
  private async answerByMail(message: InboundMessage, coded: { code: string; decision: 'approve' | 'deny' }): Promise<InboundVerdict> {
    const record = await this.approvals.byCode(coded.code);
    if (!record) {
      this.deps.logger.info('approvals', `e-mail from ${message.userId}: no approval with code ${coded.code}`);
      return 'ignored';
    }
    const outcome = await this.approvals.answer(
      { platform: 'email', approvalId: record.id, decision: coded.decision, userId: message.userId, chatId: message.chatId, actionId: message.updateId },
      this.resume,
    );
    if (outcome.status === 'refused') return 'refused';
    return outcome.resolved ? 'accepted' : 'duplicate';
  }

  private readonly intake1 = async (message: InboundMessage): Promise<InboundVerdict> => {
    const id = `${message.platform}:${message.updateId}`;
    this.inFlight.add(id);
    try {
      return await this.intake(this.contextOf(message));
    } catch (error) {
      if (error instanceof AnsweredElsewhere) return 'duplicate';
      throw error;
    } finally {
      this.inFlight.delete(id);
    }
  };

  /**
   * Takes over pending messages nobody is answering (ARCHITECTURE.md §9): those of sessions whose lease is
   * free or expired — kept from before a stop, deferred by a stopping instance, or left by one that
   * died — older than `graceMs`. Each goes through authorization and commands again (the instance
   * that received it may have died before either), then to its session's turn under the lease.
   * Returns how many were taken up.
   */
  sweep(platforms: readonly PlatformId[], graceMs = this.deps.store.engine === 'sqlite' ? 0 : SWEEP_GRACE_MS): Promise<number> {
    if (this.turns.isStopping) return Promise.resolve(0);
    this.sweeping ??= this.sweepOnce(platforms, graceMs).finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepOnce(platforms: readonly PlatformId[], graceMs: number): Promise<number> {
    const { store } = this.deps;
    // Approvals nobody answered in time are denied; their resume rows are journaled and started here.
    await this.approvals.expire(this.resume);
    const now = this.now().getTime();
    const pending = (await store.inbound.pending(platforms)).filter(
      (m) => !this.inFlight.has(`${m.platform}:${m.updateId}`) && m.receivedAt.getTime() <= now - graceMs,
    );
    if (!pending.length) return 0;
    const leases = new Map((await store.leases.list()).map((l) => [l.name, l]));
    let taken = 0;
    for (const message of pending) {
      const ctx = this.contextOf(message);
      if (this.turns.isRunning(ctx.sessionKey)) continue; // ours: its loop reads the journal
      const lease = leases.get(sessionLease(ctx.sessionKey));
      if (lease && lease.expiresAt > now) continue; // a live instance runs the session
      taken++;
      try {
        // Taken over without the journal step: the session's waiting approval is looked up here (a rare path).
        const waiting = ctx.message.resumesApproval ? null : await store.approvals.pendingOf(ctx.sessionKey);
        if (waiting) this.waitingApproval.set(ctx, waiting.id);
        await this.sweepSteps(ctx);
      } catch (error) {
        if (!(error instanceof AnsweredElsewhere)) throw error;
      }
    }
    return taken;
  }

  /** Stops taking new turns; running ones get `graceMs`, the rest stay journaled for the next start. */
  shutdown(graceMs: number): Promise<void> {
    return this.turns.shutdown(graceMs);
  }

  /** How many turns were answered and how many failed since the start (`chat` exits 1 when none was answered). */
  turnOutcomes(): { answered: number; failed: number } {
    return this.turns.outcomes;
  }

  /** Resolves when no turn is running (tests, `chat`). */
  idle(): Promise<void> {
    return this.turns.idle();
  }

  /** The turn context: everything the steps, the turn and the reply need to know about `message`, worked out once. */
  private contextOf(message: InboundMessage): TurnContext {
    return turnContext(message, this.deps.settings);
  }

  // ── the steps ──────────────────────────────────────────────────────────────────────────────

  /**
   * Doors hand over every message; this step alone decides which are for the bot (addressed.ts):
   * in groups and channels only those addressed to it, unless the chat's `chats:` entry says
   * `require_mention: false`. Empty messages are not answered.
   */
  private readonly addressed: Step = async ({ message, chat, command }, next) => {
    if (!isAddressed(message, chat?.require_mention ?? true)) return 'ignored';
    // A command the door marked may come with no text (its arguments are the text).
    if (!message.text.trim() && !command && !message.attachments?.length) return 'ignored';
    return next();
  };

  /**
   * Every event that may be answered is journaled first (dedup of redeliveries, crash recovery). A
   * command is journaled apart from its session (no session key): it skips the queue, so it is never
   * part of a turn's batch, which is read by session key.
   */
  private readonly journal: Step = async (ctx, next) => {
    const { claimed, pendingApproval } = await this.deps.store.inbound.journal(ctx.message, ctx.command ? null : ctx.sessionKey);
    if (!claimed) {
      this.deps.logger.debug('gateway', `duplicate ${ctx.message.platform} update ${ctx.message.updateId} ignored`);
      return 'duplicate';
    }
    if (pendingApproval) this.waitingApproval.set(ctx, pendingApproval);
    return next();
  };

  /**
   * Refused senders get a refusal (or a pairing code) — on e-mail nothing at all (no backscatter);
   * their message never reaches the model.
   */
  private readonly authorize: Step = async ({ message, replyTarget }, next) => {
    if (await this.access.allows(message)) return next();
    const text = await this.access.refusal(message);
    this.deps.logger.info('auth', `refused ${message.platform} user ${message.userId}${text === null ? ' (not answered)' : ''}`);
    const refusal = text === null ? null : await this.deps.replies.prepare({ ...replyTarget, ephemeral: true }, text);
    await this.deps.replies.commit(null, async (tx, reply) => {
      if (!(await tx.inbound.mark(message.platform, message.updateId, 'refused'))) throw new AnsweredElsewhere(message.updateId);
      await reply(refusal);
    });
    return 'refused';
  };

  /** During shutdown an event is journaled but not started: answered after the next start. */
  private readonly deferWhileStopping: Step = async (_ctx, next) => (this.turns.isStopping ? 'deferred' : next());

  /** Commands skip the queue; each is answered at once, its journal row done with its reply. */
  private readonly command: Step = async (ctx, next) => {
    const parsed = ctx.command;
    if (!parsed) return next();
    const agent = this.deps.agent;
    const deps = {
      settings: this.deps.settings,
      store: this.deps.store,
      now: this.now,
      turns: this.turns,
      approvals: { stop: (key: string) => this.approvals.stop(key, this.resume), drop: (key: string) => this.approvals.drop(key) },
      modelStatus: (c: TurnContext, session?: Pick<SessionRecord, 'model'>) => agent.modelStatus(agent.modelOf(session, c.model)),
    };
    const text = 'unknown' in parsed ? unknownCommandText(parsed.unknown) : await COMMAND_HANDLERS[parsed.command](ctx, deps);
    const answer = text === null ? null : await this.deps.replies.prepare(ctx.replyTarget, text);
    await this.deps.replies.commit(ctx.sessionKey, async (tx, reply) => {
      if (!(await tx.inbound.mark(ctx.message.platform, ctx.message.updateId, 'done'))) throw new AnsweredElsewhere(ctx.message.updateId);
      await reply(answer);
    });
    return 'accepted';
  };

  private readonly enqueue: Step = async (ctx) => {
    // A message while the session's turn waits for a yes closes that approval first (ARCHITECTURE.md §16).
    const waiting = this.waitingApproval.get(ctx);
    if (waiting && !ctx.message.resumesApproval) await this.approvals.supersede(waiting, ctx.message.receivedAt, this.resume);
    await this.turns.offer(ctx);
    return 'accepted';
  };
}

/** `approve CODE` / `deny CODE` as the first non-empty line of a mail (the rest is the quoted prompt). */
export function approvalByMail(text: string): { code: string; decision: 'approve' | 'deny' } | null {
  const first = text.split('\n').find((l) => l.trim())?.trim() ?? '';
  const m = /^(approve|deny)\s+([A-Z0-9]{6})\b/i.exec(first);
  return m ? { code: m[2].toUpperCase(), decision: m[1].toLowerCase() === 'approve' ? 'approve' : 'deny' } : null;
}

/** The prompt's place as the store keeps it (JSON its door reported); the door checks its shape. */
function storedPromptRef(json: string | null): unknown {
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}
