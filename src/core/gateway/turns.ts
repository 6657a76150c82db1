/**
 * Running turns (ARCHITECTURE.md §7): one turn at a time per session, messages that arrive meanwhile
 * answered together in one follow-up turn (at most `max_queued` waiting, then a "busy" reply), a
 * bound on turns across sessions, `/stop`, and a shutdown that leaves unfinished turns journaled.
 * A turn is: typing indicator → agent → the reply rendered → one store write (Store.turns.commit: one
 * statement on PostgreSQL, one transaction on SQLite) storing the history (the agent's; for a failed or
 * stopped turn, what the user said), the reply (outbox) and the journal rows (and giving the session's
 * lease up when nothing else of it is pending) → delivery.
 *
 * Many instances (ARCHITECTURE.md §9): a session runs on one instance at a time, under the lease
 * `session:<key>`. Its turns take their batch from the journal (every pending message of the
 * session, whichever instance received it, in the order they were sent), and settling the journal rows is
 * conditional, so a turn whose messages another instance answered first commits nothing. The lease
 * and the first batch are one store call (Store.turns.begin); a turn that leaves nothing of its session
 * pending gives the lease up in its own write, and a turn's write returns the next batch (issues #14,
 * #42: fewer round trips per message); what another instance journaled meanwhile is read after the loop.
 */
import type { Settings } from '../settings.js';
import type { Logger } from '../logger.js';
import { STOPPED_ANSWER, type Agent, type TurnInput, type TurnResult } from '../agent.js';
import type { Adapter, DeliveryTarget, InboundMessage } from '../types.js';
import type { LeaseClaim, Store, TurnStart, TurnWrites } from '../store/types.js';
import { TurnFiles } from '../outbound-files.js';
import type { PlatformId } from '../../platform/ids.js';
import type { Telemetry } from '../telemetry.js';
import { logLine, ModelError, oneLine, type ModelErrorKind } from '../errors.js';
import { HOW_TO_CONFIGURE_MODEL } from '../providers/index.js';
import { BudgetSpent } from '../cost/budgets.js';
import { formatBatch } from '../user-content.js';
import { SessionQueues, Semaphore } from './session-queue.js';
import type { Outgoing, Replies } from './replies.js';
import { nextMessage, replyTargetOf, type TurnContext } from './context.js';
import { startTyping } from './typing.js';
import { inPlatformOrder } from './platform-order.js';
import { withSenderNames } from './sender-names.js';
import { performance } from 'node:perf_hooks';
import { LiveReply } from '../streaming/live-reply.js';
import { configuredMode } from '../streaming/mode.js';
import { cutOversized, maxMessageChars } from './oversized.js';
import { TurnTaint } from '../taint.js';
import type { ApprovalVerdict } from '../agent.js';
import type { ApprovalDesk, StoredTurn } from '../approvals/desk.js';
import { DENIED_BY_USER, INTERRUPTED, NO_ANSWER, NOT_ANSWERED, STOPPED, STOPPED_RESULT, SUPERSEDED } from '../approvals/policy.js';
import type { MediaIntake, PreparedMessage } from '../media/intake.js';

export interface TurnRunnerDeps {
  settings: Settings;
  agent: Agent;
  replies: Replies;
  logger: Logger;
  adapter: (platform: PlatformId) => Adapter | undefined;
  now: () => Date;
  /** The journal (batches) and the streams of running turns (ARCHITECTURE.md §10), kept for a restart. */
  store: Store;
  leases: SessionLeases;
  /** Turn durations and failures for the metrics (ARCHITECTURE.md §18). */
  telemetry?: Telemetry;
  /** Opens the approval of a turn that paused (ARCHITECTURE.md §16). */
  approvals: ApprovalDesk;
  /** What becomes of attachments (ARCHITECTURE.md §15); absent: a message's attachments are not read. */
  media?: MediaIntake;
}

/** The leases a session runs under (the instance's Presence). */
export interface SessionLeases {
  acquire(name: string): Promise<boolean>;
  release(name: string): Promise<void>;
  /** Takes the lease through a store call that does more in the same statement (Store.turns.begin). */
  acquireWith<T extends { acquired: boolean }>(name: string, take: (lease: LeaseClaim) => Promise<T>): Promise<T>;
  /** Gives the lease up through a store call that writes more with it, and says whether it did (Store.turns.commit). */
  releaseWith<T>(name: string, give: (lease: { name: string; holder: string }) => Promise<T>, released: (result: T) => boolean): Promise<T>;
}

/**
 * How a turn ended: whether its write gave the session's lease up, and what the session's next turn
 * starts from as that write read it (null when the turn wrote nothing: read again).
 */
interface TurnEnd {
  released: boolean;
  /** Released, and someone else asked for the lease meanwhile, or the store cannot tell (TurnCommit.contested). */
  contested: boolean;
  next: Pick<TurnStart, 'batch' | 'streamIds'> | null;
}

/** The parts of a turn's one write besides the journal rows, the reply and the lease (TurnRunner.commitTurn). */
type TurnParts = Pick<TurnWrites, 'append' | 'recordTurn' | 'createApproval' | 'finishApproval'>;

export const sessionLease = (sessionKey: string): string => `session:${sessionKey}`;

/** A journal row was settled by someone else first (another instance answered it): roll back. */
export class AnsweredElsewhere extends Error {
  constructor(readonly updateId: string) {
    super(`update ${updateId} was already answered`);
  }
}

/** What a chat user is told about a model failure: why, in a few words; never the endpoint or the fix. */
const FAILURE_REASON: Record<ModelErrorKind, string> = {
  unconfigured: 'no model is set up yet',
  timeout: 'the model did not answer in time',
  unavailable: 'the model cannot be reached right now',
  erroring: 'the model service answered with an error',
  too_long: 'this conversation is too long for the model',
  refused: 'the model is not available to me right now',
  cancelled: 'the answer was cancelled',
  failed: 'something went wrong while writing the answer',
};

/**
 * The reply to a failed turn: a short apology with the reason, and whether the message was kept
 * (`kept`: the agent could store it in the history). The full error is in the log. In the terminal
 * the user is the operator, so "no model" says how to configure one.
 */
export function failureReply(error: unknown, platform: PlatformId, kept: boolean): string {
  if (error instanceof BudgetSpent) return error.line;
  const kind = error instanceof ModelError ? error.kind : 'failed';
  if (kind === 'unconfigured' && platform === 'cli') return HOW_TO_CONFIGURE_MODEL;
  if (kind === 'too_long') return CONVERSATION_FULL;
  // The status is the one detail a user can act on ("try later" for a 503, tell the operator for a 500).
  const reason = kind === 'erroring' && error instanceof ModelError && error.status ? `${FAILURE_REASON[kind]} (HTTP ${error.status})` : FAILURE_REASON[kind];
  const keptLine = kept ? 'Your message is kept; please try again in a moment.' : 'Your message could not be stored either; please send it again in a moment.';
  const operator = kind === 'unconfigured' || kind === 'refused' ? ' The operator can see the details in the log.' : '';
  return `Sorry, I could not answer that: ${reason}. ${keptLine}${operator}`;
}

/**
 * A context-length error that compressing the history did not cure (issue 38): the message is not
 * kept (it would fail every later turn), and the user learns the way out.
 */
export const CONVERSATION_FULL =
  'Sorry, this conversation is now too long for the model, so I could not answer that and did not keep your message. Send /new to start a fresh conversation (or send a shorter message).';

/** How a reply cut short by /stop ends (ARCHITECTURE.md §10: the text so far stays, marked as stopped). */
export const STOPPED_MARK = '_(stopped)_';

const BUSY = 'I am still busy with your earlier messages. Please wait for my answer, then send this again.';

export class TurnRunner {
  private readonly queues: SessionQueues;
  private readonly slots: Semaphore;
  private readonly running = new Set<Promise<void>>();
  private stopping = false;
  /** Turns answered by the model, and turns that ended in an error reply (not stopped ones). */
  readonly outcomes = { answered: 0, failed: 0 };

  constructor(private readonly deps: TurnRunnerDeps) {
    const s = deps.settings.config.sessions;
    this.queues = new SessionQueues(s.max_queued);
    this.slots = new Semaphore(s.max_concurrent_turns);
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  isRunning(sessionKey: string): boolean {
    return this.queues.isRunning(sessionKey);
  }

  /** /stop: cancels the session's running turn. True if one was running. */
  cancel(sessionKey: string): boolean {
    return this.queues.cancel(sessionKey);
  }

  /** Starts a turn for the message, or queues it behind the running one, or answers "busy". */
  async offer(ctx: TurnContext): Promise<void> {
    const verdict = this.queues.offer(ctx.sessionKey, ctx.message);
    if (verdict === 'queued') return;
    if (verdict === 'full') {
      const busy = await this.deps.replies.prepare(ctx.replyTarget, BUSY);
      await this.deps.replies.commit(ctx.sessionKey, async (tx, reply) => {
        if (!(await tx.inbound.mark(ctx.message.platform, ctx.message.updateId, 'refused'))) throw new AnsweredElsewhere(ctx.message.updateId);
        await reply(busy);
      });
      return;
    }
    const p = this.runSession(ctx).finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /**
   * Stops taking new turns, waits up to `graceMs` for running ones, then cancels the rest (their
   * messages stay journaled for the next start).
   */
  async shutdown(graceMs: number): Promise<void> {
    this.stopping = true;
    const all = Promise.allSettled([...this.running]);
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), graceMs).unref());
    if ((await Promise.race([all, timeout])) === 'timeout') {
      this.deps.logger.warn('gateway', 'turns still running at shutdown were cancelled; their messages are kept for the next start');
      this.queues.cancelAll();
      await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => setTimeout(r, 1000).unref())]);
    }
  }

  /** Resolves when no turn is running. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /**
   * Runs the session's turns while this instance holds its lease: each turn answers every pending
   * message of the session in the journal. When nothing is left the lease goes — with the last
   * turn's commit when it saw nothing else pending, else on its own; anything journaled for the
   * session meanwhile (another instance received it and saw the lease taken, or a local message
   * raced the end of the loop) starts again.
   */
  private async runSession(ctx: TurnContext): Promise<void> {
    const key = ctx.sessionKey;
    const lease = sessionLease(key);
    let again = false;
    // Whether the loop must read the journal once more at its end (see below).
    let lookAgain = true;
    let queuedMeanwhile: boolean;
    try {
      // The lease, the first batch and a stream a crash cut short: one store call (one statement on PostgreSQL).
      let next: TurnEnd['next'] = await this.start(key);
      // Someone else runs this session: it takes this message from the journal with its next turn.
      if (!next) return;
      let released = false;
      try {
        for (let batch = firstTurnOf(inPlatformOrder(next.batch)); batch.length; batch = firstTurnOf(inPlatformOrder(next.batch))) {
          if (this.stopping) return; // left journaled for the next start (or another instance)
          const release = await this.slots.acquire();
          const began = performance.now();
          let end: TurnEnd = { released: false, contested: false, next: null };
          try {
            end = await this.runTurn(ctx, batch, next.streamIds);
            this.deps.telemetry?.turn(ctx.address.platform, (performance.now() - began) / 1000);
          } catch (error) {
            if (error instanceof AnsweredElsewhere) this.deps.logger.info('gateway', `turn for ${key} dropped: ${error.message} by another instance`);
            // Storing the outcome failed (database gone): the messages stay journaled for the next start.
            else this.deps.logger.error('gateway', `turn for ${key} could not be stored: ${oneLine(error)}`);
            if (!(error instanceof AnsweredElsewhere)) return;
          } finally {
            release();
          }
          this.queues.reset(key);
          released = end.released;
          if (released) {
            lookAgain = end.contested;
            break; // its write saw nothing else pending and gave the lease up
          }
          // What the turn's write read is the next batch; a turn that wrote nothing reads again (renewing the lease).
          next = end.next ?? (await this.start(key));
          if (!next) return; // the lease went to another instance meanwhile: it answers the rest
        }
      } finally {
        if (!released) await this.deps.leases.release(lease).catch(() => undefined);
      }
      again = !this.stopping;
    } catch (error) {
      this.deps.logger.error('gateway', `session ${key} could not be run: ${oneLine(error)}`);
    } finally {
      queuedMeanwhile = this.queues.finish(key);
    }
    if (!again) return;
    // Messages journaled after the last write read the journal: by another instance, whose attempt at
    // the lease then failed (the write says so: contested), or here, queued behind the running loop.
    // Otherwise nothing can have been missed, and the read is left out (one round trip per message).
    if (!lookAgain && !queuedMeanwhile) return;
    const late = await this.batchOf(key).catch(() => []);
    // A loop started meanwhile (a new local message) reads the journal itself.
    if (late.length && !this.queues.isRunning(key)) await this.offer(nextMessage(ctx, late[0]));
  }

  /** Takes (or renews) the session's lease with its pending batch and stream ids; null when another instance holds it. */
  private async start(sessionKey: string): Promise<TurnEnd['next']> {
    const begun = await this.deps.leases.acquireWith(sessionLease(sessionKey), (claim) => this.deps.store.turns.begin(sessionKey, claim));
    return begun.acquired ? begun : null;
  }

  /**
   * The session's pending messages in the order they were sent (platform-order.ts; commands are
   * journaled without a session key: their own step answers them), read after its loop ended.
   */
  private batchOf(sessionKey: string): Promise<InboundMessage[]> {
    return this.deps.store.inbound.pendingFor(sessionKey).then(inPlatformOrder);
  }

  /** The live reply of a turn, when its chat streams (ARCHITECTURE.md §10); null otherwise. */
  private liveReply(ctx: TurnContext, target: DeliveryTarget, resume: string[]): LiveReply | null {
    const capability = this.deps.adapter(target.platform)?.streaming;
    if (!capability) return null;
    const sessionKey = ctx.sessionKey;
    const configured = configuredMode(this.deps.settings.config, target.platform, ctx.chat);
    const mode = configured === 'off' ? null : capability.resolve(target, configured);
    if (!mode) return null;
    const { store, replies, logger } = this.deps;
    return new LiveReply({
      capability,
      mode,
      target,
      render: async (markdown) => (await replies.render(target.platform, markdown)).chunks,
      resume,
      persist: (ids) => store.streams.save(sessionKey, ids, this.deps.now().getTime()),
      logger,
      now: () => this.deps.now().getTime(),
    });
  }

  /**
   * The one write that ends a turn (Store.turns.commit: one statement on PostgreSQL, one transaction on
   * SQLite): `parts` (history, approvals) and the reply, with the batch's journal rows settled — when
   * another instance answered one first nothing is written (AnsweredElsewhere) — and, when no other
   * message of the session is pending, the session's lease given up in it as well. The reply goes to
   * delivery once it is stored.
   */
  private async commitTurn(sessionKey: string, batch: InboundMessage[], clearStream: boolean, parts: TurnParts, outgoing: Outgoing | null): Promise<TurnEnd> {
    const { replies, store, leases } = this.deps;
    const reply = replies.turnReply(outgoing);
    const settle = batch.map((m) => ({ platform: m.platform, updateId: m.updateId }));
    const done = await leases.releaseWith(
      sessionLease(sessionKey),
      (releaseLease) => store.turns.commit({ sessionKey, settle, status: 'done', ...parts, reply, clearStream, releaseLease }),
      (r) => r.settled && r.released,
    );
    if (!done.settled) throw new AnsweredElsewhere(batch.map((m) => m.updateId).join(', '));
    replies.turnStored(reply, done.reply);
    return { released: done.released, contested: done.contested, next: { batch: done.pending, streamIds: done.streamIds } };
  }

  /**
   * The agent's turn; when the provider says the request does not fit the model's context, the
   * session is compressed (whatever its estimated size) and the turn tried once more (issue 38).
   */
  private async answer(input: TurnInput): Promise<TurnResult> {
    try {
      return await this.deps.agent.turn(input);
    } catch (error) {
      if (!(error instanceof ModelError) || error.kind !== 'too_long' || input.signal.aborted) throw error;
      this.deps.logger.warn('gateway', `turn for ${input.sessionKey}: ${error.message}; compressing the conversation and trying once more`);
      return await this.deps.agent.turn({ ...input, compress: 'force' });
    }
  }

  /**
   * The batch as one user message: its texts, and what its attachments gave (ARCHITECTURE.md §15). Without
   * attachments (or media intake) that is the texts alone; an intake that fails as a whole (the
   * media store gone) leaves the texts and one line saying the attachments were not read. Never throws.
   */
  private async userMessage(sessionKey: string, unnamed: InboundMessage[], signal: AbortSignal): Promise<PreparedMessage> {
    const batch = await withSenderNames(unnamed, this.deps.adapter);
    const plain = { content: formatBatch(batch), media: [], files: [], notices: [], taint: [] };
    const media = this.deps.media;
    if (!media || !batch.some((m) => m.attachments?.length)) return plain;
    try {
      return await media.prepare(batch, sessionKey, signal);
    } catch (error) {
      // Stopped meanwhile: the turn ends as a stopped one (the agent sees the signal).
      if (signal.aborted) return plain;
      this.deps.logger.warn('media', `attachments of ${sessionKey} could not be read: ${oneLine(error)}`);
      return { ...plain, notices: ['I could not read the attachments of your message just now; please send them again.'] };
    }
  }

  /** One turn; `streamIds`: the messages of a stream a crash cut short (the session's live stream). */
  private async runTurn(ctx: TurnContext, batch: InboundMessage[], streamIds: string[]): Promise<TurnEnd> {
    const { agent, logger, replies } = this.deps;
    // The journal rows are settled as they are; the model and the history get the cut text.
    const { batch: cut, notices } = cutOversized(batch, maxMessageChars(this.deps.settings.config));
    // The batch is answered where its last message asks (Telegram groups reply to that message).
    const replyTarget = replyTargetOf(batch[batch.length - 1]);
    const signal = this.queues.signal(ctx.sessionKey);
    let live: LiveReply | null = null;
    try {
      live = this.liveReply(ctx, replyTarget, streamIds);
    } catch (error) {
      logger.warn('streaming', `not streaming the answer for ${ctx.sessionKey}: ${oneLine(error)}`);
    }
    // Files the agent sends (send_file, MCP images) go with this turn's reply.
    const files = new TurnFiles(this.deps.store.media);
    // Typing shows while attachments are fetched and read, too.
    const typing = startTyping(this.deps.adapter(replyTarget.platform), replyTarget);
    const prepared = await this.userMessage(ctx.sessionKey, cut, signal);
    // What did not reach the model (a message cut, an attachment not read) goes first in the reply, one line each.
    const allNotices = [...notices, ...prepared.notices];
    const withNotices = (text: string) => (allNotices.length ? `${allNotices.join('\n')}\n\n${text}` : text);
    const input = {
      attach: files.attach,
      session: ctx.address,
      sessionKey: ctx.sessionKey,
      personKey: ctx.person,
      chat: ctx.chat,
      userContent: prepared.content,
      userMedia: prepared.media,
      userFiles: prepared.files,
      // What the message carries that nobody here wrote (a document, a transcript, quoted mail) taints the turn (§17).
      taint: [...prepared.taint, ...taintOf(batch).list()],
      replyAddress: replyTarget,
      signal,
      ...(live ? { onText: (text: string) => live.update(text), onTool: (name: string) => live.tool(name) } : {}),
    };
    // The finished reply edits the messages the stream posted (and forgets them in the same transaction).
    const finish = async (): Promise<DeliveryTarget> => {
      const ids = live ? await live.finish() : [];
      return ids.length ? { ...replyTarget, streamedMessageIds: ids } : replyTarget;
    };
    // A 429 met while streaming: the finished reply waits as long as the platform asked.
    const quiet = () => (live?.quietUntil ? { notBefore: live.quietUntil } : {});
    const resuming = batch[0].resumesApproval;
    let userContent = input.userContent;
    try {
      let result: TurnResult;
      if (resuming) {
        const resumed = await this.resume(resuming, input);
        if (!resumed) return await this.commitTurn(ctx.sessionKey, batch, false, {}, null);
        userContent = resumed.userContent;
        result = resumed.result;
      } else {
        result = await this.answer(input);
      }
      if (signal.aborted && this.stopping) return { released: false, contested: false, next: null };
      allNotices.push(...(result.notices ?? []));
      const at = this.deps.now().getTime();
      if (result.pause) {
        // Paused for a person's yes: the approval (with the turn so far) and its prompt, in one commit.
        await finish();
        const opened = this.deps.approvals.open(ctx, result.pause, batch[batch.length - 1], replyTarget);
        const prompt = await replies.prepare(opened.target, withNotices(opened.markdown), { files: files.refs });
        return await this.commitTurn(ctx.sessionKey, batch, live !== null, { createApproval: opened.approval, ...finishing(resuming) }, prompt);
      }
      const answer = result.answer.trim() ? result.answer : files.refs.length ? '' : '(The model returned an empty answer.)';
      // Rendered before the transaction, which then only writes.
      const reply = await replies.prepare(await finish(), withNotices(answer), { ...quiet(), files: files.refs });
      this.outcomes.answered++;
      return await this.commitTurn(ctx.sessionKey, batch, live !== null, { ...agent.turnWrites(result, ctx.person, at, files.refs), ...finishing(resuming) }, reply);
    } catch (error) {
      if (error instanceof AnsweredElsewhere) throw error;
      if (signal.aborted && this.stopping) {
        await live?.finish();
        return { released: false, contested: false, next: null }; // journaled; answered after restart (the stream's messages are finished then)
      }
      const stopped = signal.aborted;
      if (!stopped) logger.warn('gateway', `turn for ${ctx.sessionKey} failed: ${logLine(error)}`);
      if (!stopped) this.outcomes.failed++;
      if (!stopped) this.deps.telemetry?.error(error instanceof BudgetSpent ? 'budget' : 'model');
      const target = await finish();
      const partial = live?.partial.trim() ? live.partial : '';
      // A message the model's context cannot take even after compression is not kept: it would fail every later turn.
      const tooLong = !stopped && error instanceof ModelError && error.kind === 'too_long';
      const session = tooLong ? null : await agent.failedTurnSession(input);
      const kept = session !== null;
      let text = stopped ? (kept ? STOPPED_ANSWER : `${STOPPED_ANSWER} Your message could not be stored; please send it again.`) : failureReply(error, target.platform, kept);
      // What the chat already showed stays; a stop marks it, a failure says so under it.
      if (partial) text = stopped && kept ? `${partial}\n\n${STOPPED_MARK}` : `${partial}\n\n${stopped ? STOPPED_MARK + ' ' : ''}${text}`;
      // Files already attached were reported sent to the model: they go with the apology.
      const reply = await replies.prepare(target, withNotices(text), { ...quiet(), files: files.refs });
      const at = this.deps.now().getTime();
      // What the user said, the apology and the journal rows in one transaction: a crash cannot keep
      // the message in the history and leave it journaled, to be answered (and stored) again.
      const history = session && userContent ? agent.failedTurnWrites(session, ctx.person, userContent, at, resuming ? undefined : input.userMedia, resuming ? undefined : input.userFiles) : {};
      return await this.commitTurn(ctx.sessionKey, batch, live !== null, { ...history, ...finishing(resuming) }, reply);
    } finally {
      typing.stop();
    }
  }

  /**
   * Goes on with a turn that paused for approval `id` (ARCHITECTURE.md §16), once answered or expired. An
   * approved call starts only if this moves the approval from answered to running (one statement), and
   * its result is stored before the model sees it: a crash, a replay or a second instance never runs
   * it twice. Null when there is nothing to resume (done already, or unknown).
   */
  private async resume(id: string, input: Parameters<Agent['turn']>[0]): Promise<{ result: TurnResult; userContent: string } | null> {
    const { store, agent, logger } = this.deps;
    const record = await store.approvals.get(id);
    if (!record || record.state === 'pending' || record.state === 'done') return null;
    const { paused } = JSON.parse(record.turn) as StoredTurn;
    const first = paused.messages[0];
    const userContent = first?.role === 'user' ? first.content : '';
    let verdict: ApprovalVerdict;
    if (record.decision === 'denied' && record.answeredBy === STOPPED) verdict = { stopped: STOPPED_RESULT };
    else if (record.decision === 'denied') verdict = { result: record.answeredBy === SUPERSEDED ? NOT_ANSWERED : DENIED_BY_USER };
    else if (record.decision === 'expired') verdict = { result: NO_ANSWER };
    else if (record.state === 'ran') verdict = { result: record.result ?? '' };
    else if (record.state === 'running') verdict = { result: INTERRUPTED };
    else
      verdict = {
        run: async (call) => {
          if (!(await store.approvals.startCall(id))) return INTERRUPTED;
          logger.info('approvals', `approval ${id}: running ${record.tool}`);
          const result = await call();
          await store.approvals.recordResult(id, result);
          return result;
        },
      };
    const result = await agent.resume({ ...input, userContent }, paused, verdict);
    return { result, userContent };
  }
}

/**
 * The messages one turn answers: a journaled approval answer alone (it resumes its own paused turn),
 * else the pending messages up to the next such answer.
 */
export function firstTurnOf(batch: InboundMessage[]): InboundMessage[] {
  if (!batch.length) return batch;
  if (batch[0].resumesApproval) return batch.slice(0, 1);
  const cut = batch.findIndex((m) => m.resumesApproval);
  return cut < 0 ? batch : batch.slice(0, cut);
}

/** The approval a resumed turn ends (its commit goes with the turn's write), if it is one. */
function finishing(resuming: string | undefined): Pick<TurnWrites, 'finishApproval'> {
  return resuming ? { finishApproval: resuming } : {};
}

/** A new turn's taint from what its messages carry (§17): quoted or forwarded mail marks it. */
function taintOf(batch: InboundMessage[]): TurnTaint {
  const taint = new TurnTaint();
  for (const m of batch) if (m.quoted?.trim()) taint.mark('quoted_mail', m.displayName ?? m.userId);
  return taint;
}
