/**
 * The gateway (DESIGN §1, §7): what every adapter's inbound events go through.
 *
 *   journal (dedup) → addressed? → authorize → stopping? → command → enqueue turn
 *
 * Each step is a small function (pipeline.ts); the policy lives in its own module — access.ts
 * (allow-lists, pairing), command-handlers.ts, turns.ts (queues and the turn itself), replies.ts
 * (render → outbox in the turn's transaction → delivery).
 */
import type { Settings } from '../settings.js';
import type { Store } from '../store/types.js';
import type { Logger } from '../logger.js';
import type { Agent } from '../agent.js';
import type { Adapter, InboundMessage, InboundVerdict } from '../types.js';
import type { PlatformId } from '../../platform/ids.js';
import { formatSessionKey, type SessionAddress } from '../../platform/address.js';
import { personKey } from '../identity.js';
import { parseCommand, unknownCommandText } from '../commands.js';
import { chatConfigFor } from '../chats.js';
import { compose, type IntakeContext, type Step } from './pipeline.js';
import { Access } from './access.js';
import { COMMAND_HANDLERS } from './command-handlers.js';
import { AnsweredElsewhere, sessionLease, TurnRunner, type SessionLeases } from './turns.js';
import type { Replies } from './replies.js';

export type { Renderer } from './replies.js';

export interface GatewayDeps {
  settings: Settings;
  store: Store;
  agent: Agent;
  replies: Replies;
  logger: Logger;
  adapter: (platform: PlatformId) => Adapter | undefined;
  /** The session leases (DESIGN §9): this instance's Presence. */
  leases: SessionLeases;
  now?: () => Date;
}

/**
 * Pending messages younger than this are left to the instance that received them (it may still be
 * authorizing them or answering a command); older ones of a free session are anyone's.
 */
const SWEEP_GRACE_MS = 2_000;

export class Gateway {
  private readonly turns: TurnRunner;
  private readonly access: Access;
  private readonly now: () => Date;
  private readonly intake: (ctx: IntakeContext) => Promise<InboundVerdict>;
  private readonly sweepSteps: (ctx: IntakeContext) => Promise<InboundVerdict>;
  /** Events in this process's intake right now (`platform:update id`): the sweep leaves them alone. */
  private readonly inFlight = new Set<string>();
  private sweeping: Promise<number> | null = null;

  constructor(private readonly deps: GatewayDeps) {
    this.now = deps.now ?? (() => new Date());
    this.access = new Access(deps.settings, deps.store.pairing, this.now);
    this.turns = new TurnRunner({ ...deps, now: this.now });
    this.intake = compose([this.addressed, this.journal, this.authorize, this.deferWhileStopping, this.command, this.enqueue]);
    this.sweepSteps = compose([this.authorize, this.command, this.enqueue]);
  }

  /** The InboundHandler given to every adapter. Resolves once the event is journaled. */
  readonly handle = async (message: InboundMessage): Promise<InboundVerdict> => {
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
   * Takes over pending messages nobody is answering (DESIGN §9): those of sessions whose lease is
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

  /** Resolves when no turn is running (tests, `chat`). */
  idle(): Promise<void> {
    return this.turns.idle();
  }

  private contextOf(message: InboundMessage): IntakeContext {
    return { message, sessionKey: formatSessionKey(message), person: personKey(this.deps.settings.config, message.platform, message.userId) };
  }

  // ── the steps ──────────────────────────────────────────────────────────────────────────────

  /**
   * In groups and channels the bot answers only when addressed, unless the chat's `chats:` entry
   * says `require_mention: false`; empty messages are not answered.
   */
  private readonly addressed: Step = async ({ message }, next) => {
    const mentionNeeded = chatConfigFor(this.deps.settings.config, message)?.require_mention ?? true;
    if (!message.isDirect && !message.mentionsBot && mentionNeeded) return 'ignored';
    if (!message.text.trim()) return 'ignored';
    return next();
  };

  /** Every event that may be answered is journaled first (dedup of redeliveries, crash recovery). */
  private readonly journal: Step = async (ctx, next) => {
    if (!(await this.deps.store.inbound.claim(ctx.message, ctx.sessionKey))) {
      this.deps.logger.debug('gateway', `duplicate ${ctx.message.platform} update ${ctx.message.updateId} ignored`);
      return 'duplicate';
    }
    return next();
  };

  /**
   * Refused senders get a refusal (or a pairing code) — on e-mail nothing at all (no backscatter);
   * their message never reaches the model.
   */
  private readonly authorize: Step = async ({ message }, next) => {
    if (await this.access.allows(message)) return next();
    const text = await this.access.refusal(message);
    this.deps.logger.info('auth', `refused ${message.platform} user ${message.userId}${text === null ? ' (not answered)' : ''}`);
    await this.deps.replies.commit(null, async (tx, reply) => {
      if (!(await tx.inbound.mark(message.platform, message.updateId, 'refused'))) throw new AnsweredElsewhere(message.updateId);
      if (text !== null) await reply({ ...message.replyTarget, ephemeral: true }, text);
    });
    return 'refused';
  };

  /** During shutdown an event is journaled but not started: answered after the next start. */
  private readonly deferWhileStopping: Step = async (_ctx, next) => (this.turns.isStopping ? 'deferred' : next());

  /** Commands skip the queue; each is answered at once, its journal row done with its reply. */
  private readonly command: Step = async (ctx, next) => {
    const parsed = parseCommand(ctx.message.text);
    if (!parsed) return next();
    const agent = this.deps.agent;
    const deps = {
      settings: this.deps.settings,
      store: this.deps.store,
      now: this.now,
      turns: this.turns,
      modelStatus: (address: SessionAddress, session?: { model: string | null }) => agent.modelStatus(address, session),
    };
    const text = 'unknown' in parsed ? unknownCommandText(parsed.unknown) : await COMMAND_HANDLERS[parsed.command](ctx, deps);
    await this.deps.replies.commit(ctx.sessionKey, async (tx, reply) => {
      if (!(await tx.inbound.mark(ctx.message.platform, ctx.message.updateId, 'done'))) throw new AnsweredElsewhere(ctx.message.updateId);
      if (text !== null) await reply(ctx.message.replyTarget, text);
    });
    return 'accepted';
  };

  private readonly enqueue: Step = async (ctx) => {
    await this.turns.offer(ctx);
    return 'accepted';
  };
}
