/**
 * The approval desk (ARCHITECTURE.md §16): opens an approval when a turn pauses, takes the answers doors
 * report (a press, a `y`, an e-mail code, the console), and expires what nobody answered. An answer
 * counts once: it moves the approval from `pending` in one conditional statement, and in the same
 * transaction journals the row that resumes the turn — so the resume survives a crash and runs on
 * whichever instance takes the session, exactly once.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Settings } from '../settings.js';
import type { Store, ApprovalRecord, NewApproval } from '../store/types.js';
import type { Logger } from '../logger.js';
import type { ActionOutcome, DeliveryTarget, InboundAction, InboundMessage } from '../types.js';
import type { ApprovalRequest, PausedTurn } from '../agent.js';
import type { TurnContext } from '../gateway/context.js';
import { personKey } from '../identity.js';
import { NEW_CONVERSATION, NEW_CONVERSATION_TEXT, serverOf, STOPPED, STOPPED_TEXT, SUPERSEDED, SUPERSEDED_TEXT } from './policy.js';
import { approvalPrompt } from './prompt.js';

/** What an approval row's `turn` holds: the paused turn and the message the resume stands in for. */
export interface StoredTurn {
  paused: PausedTurn;
  /** The last message of the paused turn's batch: the resume row is a copy of it (same session, same reply target). */
  message: InboundMessage;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export interface ApprovalDeskDeps {
  settings: Settings;
  store: Store;
  logger: Logger;
  now: () => Date;
  /** Shows `text` in place of the prompt's buttons, on the door that posted it (Adapter.closeApprovalPrompt). */
  closePrompt?: (record: ApprovalRecord, text: string) => Promise<void>;
}

/** What a prompt says once nobody answered it in time. */
export const EXPIRED_TEXT = 'No answer in time: the call was not made.';

export class ApprovalDesk {
  constructor(private readonly deps: ApprovalDeskDeps) {}

  get timeoutMinutes(): number {
    return this.deps.settings.config.approvals.timeout_minutes;
  }

  /** The approval for a paused turn and the prompt's Markdown; stored by the caller with the turn's commit. */
  open(ctx: TurnContext, request: ApprovalRequest, lastMessage: InboundMessage, target: DeliveryTarget): { approval: NewApproval; markdown: string; target: DeliveryTarget } {
    const now = this.deps.now().getTime();
    const id = randomBytes(12).toString('hex');
    const code = Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
    const turn: StoredTurn = { paused: request.paused, message: lastMessage };
    const approval: NewApproval = {
      id,
      code,
      sessionKey: ctx.sessionKey,
      personKey: ctx.person,
      platform: ctx.address.platform,
      chatId: target.chatId,
      userId: ctx.address.userId,
      tool: request.call.name,
      server: serverOf(request.call.name),
      args: request.call.arguments,
      reason: request.reason,
      turn: JSON.stringify(turn),
      createdAt: now,
      expiresAt: now + Math.round(this.timeoutMinutes * 60_000),
    };
    const markdown = approvalPrompt({ ...approval, timeoutMinutes: this.timeoutMinutes, platform: target.platform });
    const { streamedMessageIds: _streamed, ...rest } = target;
    return { approval, markdown, target: { ...rest, approvalId: id } };
  }

  /** May this person answer this approval? `approvals.approvers`, else only the person whose turn it is. */
  mayAnswer(record: ApprovalRecord, platform: InboundAction['platform'], userId: string): boolean {
    const approvers = this.deps.settings.config.approvals.approvers;
    const person = personKey(this.deps.settings.config, platform, userId);
    if (!approvers.length) return person === record.personKey;
    return approvers.includes(person) || approvers.includes(`${platform}:${userId}`);
  }

  /**
   * A door's answer. Refused for anyone but an approver; counted once; its resume row journaled with
   * it. `resume` is called with that row after the commit (the gateway starts the session's turn).
   */
  async answer(action: InboundAction, resume: (message: InboundMessage) => Promise<void>): Promise<ActionOutcome> {
    const { store, logger } = this.deps;
    const record = await store.approvals.get(action.approvalId);
    if (!record) return { status: 'unknown', text: 'This approval is not known here.' };
    if (!this.mayAnswer(record, action.platform, action.userId)) {
      logger.info('approvals', `${action.platform} user ${action.userId} may not answer approval ${record.id} (${record.tool})`);
      return { status: 'refused', text: 'Only the person who asked (or an approver) can answer this.' };
    }
    const by = `${action.platform}:${action.userId}`;
    // A press on the prompt is shown by its door; an answer from elsewhere (an e-mail code, another door) closes it here.
    const elsewhere = action.platform !== record.platform || action.chatId !== record.chatId;
    return this.decide(record.id, action.decision === 'approve' ? 'approved' : 'denied', by, action.displayName ?? by, resume, elsewhere);
  }

  /** The console's answer (the operator is an approver by holding the console token). */
  answerFromConsole(id: string, decision: 'approved' | 'denied', resume: (message: InboundMessage) => Promise<void>): Promise<ActionOutcome> {
    return this.decide(id, decision, 'console', 'the console', resume, true);
  }

  /** An e-mail reply `approve CODE` / `deny CODE` from `userId`: the code stands for the approval. */
  async byCode(code: string): Promise<ApprovalRecord | null> {
    return this.deps.store.approvals.byCode(code);
  }

  private async decide(
    id: string,
    decision: 'approved' | 'denied',
    by: string,
    label: string,
    resume: (message: InboundMessage) => Promise<void>,
    closePrompt = false,
  ): Promise<ActionOutcome> {
    const { store, logger } = this.deps;
    const at = this.deps.now().getTime();
    const decided = await this.answerAndJournal(id, decision, by, at, at);
    if (!decided) {
      const current = await store.approvals.get(id);
      if (!current) return { status: 'unknown', text: 'This approval is not known here.' };
      return { status: 'answered', text: alreadyAnswered(current, at) };
    }
    logger.info('approvals', `approval ${id} (${decided.record.tool}) ${decision} by ${by}`);
    const resolved = `${decision === 'approved' ? 'Approved' : 'Denied'} ${label === 'the console' ? 'in' : 'by'} ${label}.`;
    if (closePrompt) await this.close(decided.record, resolved);
    await resume(decided.message);
    return decision === 'approved' ? { status: 'approved', text: 'Approved.', resolved } : { status: 'denied', text: 'Denied.', resolved };
  }

  /** Denies what nobody answered in time; their turns resume (the model is told "no answer in time"). */
  async expire(resume: (message: InboundMessage) => Promise<void>): Promise<number> {
    const { store, logger } = this.deps;
    const at = this.deps.now().getTime();
    const expired = await store.transaction(async (tx) => {
      const records = await tx.approvals.expireDue(at);
      const messages: InboundMessage[] = [];
      for (const r of records) {
        const message = resumeMessage(r, at);
        await tx.inbound.claim(message, r.sessionKey);
        messages.push(message);
      }
      return { records, messages };
    });
    for (const r of expired.records) logger.info('approvals', `approval ${r.id} (${r.tool}) expired: denied`);
    for (const r of expired.records) await this.close(r, EXPIRED_TEXT);
    for (const m of expired.messages) await resume(m);
    return expired.records.length;
  }

  /**
   * A new message came in a session whose turn waits for a yes (ARCHITECTURE.md §16): approval `id`, which
   * the journal found pending for the session as it recorded the message (InboundRepo.journal, on any
   * instance), is closed as not answered (its prompt says so, buttons gone) and its resume row journaled
   * just before the message (`before` − 1 ms), so the paused turn ends first (the model told NOT_ANSWERED)
   * and the new message is answered next with that exchange in history. Nothing runs; false when it was
   * answered, expired or closed meanwhile.
   */
  async supersede(id: string, before: Date, resume: (message: InboundMessage) => Promise<void>): Promise<boolean> {
    const at = this.deps.now().getTime();
    // False: answered, expired or closed meanwhile; the message is answered as it is.
    return this.closeUnanswered(id, SUPERSEDED, Math.min(at, before.getTime() - 1), 'not answered: a new message came in its chat', SUPERSEDED_TEXT, resume);
  }

  /**
   * `/stop` in a session whose turn waits for a yes: the approval is closed (its prompt says so) and its
   * resume row journaled, so the paused turn ends with "Stopped." (TurnRunner.resume, no model request).
   * False when none was pending.
   */
  async stop(sessionKey: string, resume: (message: InboundMessage) => Promise<void>): Promise<boolean> {
    const record = await this.deps.store.approvals.pendingOf(sessionKey);
    if (!record) return false;
    return this.closeUnanswered(record.id, STOPPED, this.deps.now().getTime(), 'not made: /stop', STOPPED_TEXT, resume);
  }

  /**
   * Closes pending approval `id` as denied by `by` (a new message, /stop), its prompt showing `text`, and
   * resumes its turn from a row journaled at `resumeAt`. False when it was no longer pending.
   */
  private async closeUnanswered(id: string, by: string, resumeAt: number, why: string, text: string, resume: (message: InboundMessage) => Promise<void>): Promise<boolean> {
    const decided = await this.answerAndJournal(id, 'denied', by, this.deps.now().getTime(), resumeAt);
    if (!decided) return false;
    this.deps.logger.info('approvals', `approval ${id} (${decided.record.tool}) ${why}`);
    await this.close(decided.record, text);
    await resume(decided.message);
    return true;
  }

  /**
   * pending → answered with `decision` by `by` at `at`, and in the same transaction the row that resumes its
   * turn journaled at `resumeAt` — so the resume survives a crash and runs once. Null when it was no longer pending.
   */
  private answerAndJournal(id: string, decision: 'approved' | 'denied', by: string, at: number, resumeAt: number): Promise<{ record: ApprovalRecord; message: InboundMessage } | null> {
    return this.deps.store.transaction(async (tx) => {
      const record = await tx.approvals.decide(id, decision, by, at);
      if (!record) return null;
      const message = { ...resumeMessage(record, at), receivedAt: new Date(resumeAt) };
      await tx.inbound.claim(message, record.sessionKey);
      return { record, message };
    });
  }

  /**
   * `/new` in a session whose turn waits for a yes: the approval is closed and done, the paused turn dropped
   * with the conversation it belonged to (resuming it would put it in the new one). False when none was pending.
   */
  async drop(sessionKey: string): Promise<boolean> {
    const { store, logger } = this.deps;
    const record = await store.approvals.pendingOf(sessionKey);
    if (!record) return false;
    const decided = await store.transaction(async (tx) => {
      const answered = await tx.approvals.decide(record.id, 'denied', NEW_CONVERSATION, this.deps.now().getTime());
      if (answered) await tx.approvals.finish(answered.id);
      return answered;
    });
    if (!decided) return false;
    logger.info('approvals', `approval ${record.id} (${record.tool}) not made: /new started a new conversation`);
    await this.close(decided, NEW_CONVERSATION_TEXT);
    return true;
  }

  /** The prompt shows `text` instead of its buttons; a door that cannot is logged, the decision stands. */
  private async close(record: ApprovalRecord, text: string): Promise<void> {
    try {
      await this.deps.closePrompt?.(record, text);
    } catch (error) {
      this.deps.logger.warn('approvals', `the prompt of approval ${record.id} could not be updated: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** The journal row that resumes an answered approval's turn: the paused turn's last message, re-addressed. */
export function resumeMessage(record: ApprovalRecord, at: number): InboundMessage {
  const { message } = JSON.parse(record.turn) as StoredTurn;
  const { command: _command, quoted: _quoted, ...rest } = message;
  return { ...rest, text: '', updateId: `approval:${record.id}`, receivedAt: new Date(at), resumesApproval: record.id };
}

function alreadyAnswered(r: ApprovalRecord, at: number): string {
  if (r.state === 'pending' && r.expiresAt <= at) return 'This approval has expired; the call was not made.';
  if (r.decision === 'expired') return 'This approval has expired; the call was not made.';
  if (r.answeredBy === SUPERSEDED) return 'This was not answered: a new message came, so the call was not made.';
  if (r.answeredBy === STOPPED) return 'This was stopped (/stop), so the call was not made.';
  if (r.answeredBy === NEW_CONVERSATION) return 'A new conversation was started (/new), so the call was not made.';
  const who = r.answeredBy === 'console' ? 'in the console' : r.answeredBy ? `by ${r.answeredBy}` : '';
  return `This was already ${r.decision ?? 'answered'}${who ? ` ${who}` : ''}.`;
}
