import type { Settings, AllowList } from './settings.js';
import { isAllowed } from './settings.js';
import type { Store } from './store/store.js';
import type { Logger } from './logger.js';
import type { Agent } from './agent.js';
import type { DeliveryService } from './delivery.js';
import type { Adapter, DeliveryTarget, InboundMessage, InboundVerdict, OutboundMessage } from './types.js';
import type { PlatformId } from '../platform/ids.js';
import { sessionKey, personKey } from './identity.js';
import { SessionQueues, Semaphore } from './session-queue.js';
import { formatBatch } from './user-content.js';
import { parseCommand, helpText, type ChatCommand } from './commands.js';
import { ModelError, oneLine } from './errors.js';
import { HOW_TO_CONFIGURE_MODEL } from './providers/index.js';
import type { Pairing } from './pairing.js';
import { chatKey } from './store/outbox.js';

/** Markdown → what a platform shows (src/render). Injected so core does not depend on render details. */
export type Renderer = (platform: PlatformId, markdown: string) => OutboundMessage;

export interface GatewayDeps {
  settings: Settings;
  store: Store;
  agent: Agent;
  delivery: DeliveryService;
  pairing: Pairing;
  render: Renderer;
  logger: Logger;
  adapter: (platform: PlatformId) => Adapter | undefined;
  now?: () => Date;
}

const TYPING_EVERY_MS = 4000;
/** The allow-list of a platform without credentials (deny by default). */
const NOBODY: AllowList = { everyone: false, ids: new Set() };
/** Answers faster than this need no "typing…" (saves a platform call per message). */
const TYPING_AFTER_MS = 500;

/**
 * Routing and policy: who may talk (allow-lists, pairing), which session, one turn at a time per
 * session, commands, and the transaction that stores a turn together with its reply in the outbox.
 */
export class Gateway {
  private readonly queues: SessionQueues;
  private readonly slots: Semaphore;
  private readonly now: () => Date;
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  constructor(private readonly deps: GatewayDeps) {
    const s = deps.settings.config.sessions;
    this.queues = new SessionQueues(s.max_queued);
    this.slots = new Semaphore(s.max_concurrent_turns);
    this.now = deps.now ?? (() => new Date());
  }

  /** The InboundHandler given to every adapter. Resolves once the event is journaled. */
  readonly handle = async (message: InboundMessage): Promise<InboundVerdict> => {
    const { store, logger } = this.deps;
    // In groups and channels the bot answers only when addressed.
    if (!message.isDirect && !message.mentionsBot) return 'ignored';
    if (!message.text.trim()) return 'ignored';
    if (!this.authorized(message)) {
      if (!store.inbound.claim(message, null)) return 'duplicate';
      store.inbound.mark(message.platform, message.updateId, 'refused');
      logger.info('auth', `refused ${message.platform} user ${message.userId}`);
      this.reply(message.replyTarget, this.refusal(message), null, true);
      return 'refused';
    }
    const key = this.keyOf(message);
    if (!store.inbound.claim(message, key)) {
      logger.debug('gateway', `duplicate ${message.platform} update ${message.updateId} ignored`);
      return 'duplicate';
    }
    if (this.stopping) return 'deferred'; // journaled: answered after the next start
    const command = parseCommand(message.text);
    if (command) {
      await this.runCommand(command.command, message, key);
      return 'accepted';
    }
    this.dispatch(key, message);
    return 'accepted';
  };

  /** Answers journaled messages that were not answered before a stop or crash. */
  recover(platforms: readonly PlatformId[]): number {
    const pending = this.deps.store.inbound.pending(platforms);
    for (const message of pending) {
      const key = this.keyOf(message);
      const command = parseCommand(message.text);
      if (command) void this.runCommand(command.command, message, key);
      else this.dispatch(key, message);
    }
    if (pending.length) this.deps.logger.info('gateway', `answering ${pending.length} message(s) kept from before the last stop`);
    return pending.length;
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

  /** Resolves when no turn is running (tests, `chat`). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  keyOf(message: InboundMessage): string {
    return sessionKey(message);
  }

  private allowList(platform: PlatformId): AllowList | null {
    const s = this.deps.settings;
    if (platform === 'cli' || platform === 'cron') return null; // the operator's own
    if (platform === 'email') return s.email.allowed;
    return s[platform]?.allowed ?? NOBODY;
  }

  private authorized(message: InboundMessage): boolean {
    const list = this.allowList(message.platform);
    if (!list) return true;
    return isAllowed(list, message.userId) || this.deps.pairing.isPaired(message.platform, message.userId);
  }

  private pairingEnabled(platform: PlatformId): boolean {
    const c = this.deps.settings.config;
    return (platform === 'telegram' && c.telegram.pairing) || (platform === 'slack' && c.slack.pairing) || (platform === 'discord' && c.discord.pairing);
  }

  private refusal(message: InboundMessage): string {
    if (this.pairingEnabled(message.platform)) {
      const r = this.deps.pairing.request(message.platform, message.userId, message.chatId, this.now().getTime());
      if (r.status === 'full') return 'Sorry, this bot is private and cannot take more pairing requests right now. Please try again later.';
      return `This bot is private. Your pairing code is \`${r.code}\` (valid for 1 hour). Ask the owner to run \`switchboard pairing approve ${r.code}\`.`;
    }
    const variable = `${message.platform.toUpperCase()}_ALLOWED_USERS`;
    return `Sorry, this bot is private. Ask its owner to add your ${message.platform} user id ${message.userId} to ${message.platform === 'email' ? 'EMAIL_ALLOWED_SENDERS' : variable}.`;
  }

  /** Renders Markdown for the target and puts it into the outbox (optionally as part of a transaction). */
  private reply(target: DeliveryTarget, markdown: string, key: string | null, ephemeral = false): number | null {
    const message = this.deps.render(target.platform, markdown);
    if (!message.chunks.length) return null;
    const t = ephemeral ? { ...target, ephemeral: true } : target;
    const id = this.deps.delivery.enqueue(t, message, key);
    this.deps.delivery.kick(chatKey(t));
    return id;
  }

  private async runCommand(command: ChatCommand, message: InboundMessage, key: string): Promise<void> {
    const { store, settings } = this.deps;
    const person = personKey(settings.config, message.platform, message.userId);
    let text: string | null;
    switch (command) {
      case 'start':
      case 'help':
        text = helpText();
        break;
      case 'new': {
        const open = store.sessions.findOpen(key);
        if (open) store.sessions.end(open.id, 'new', this.now().getTime());
        text = 'Started a new conversation.';
        break;
      }
      case 'stop':
        // The cancelled turn itself answers "Stopped."; only an idle session gets a reply here.
        text = this.queues.cancel(key) ? null : 'Nothing is running.';
        break;
      case 'status': {
        const s = store.sessions.findOpen(key);
        if (!s) {
          text = `No conversation yet. Model: \`${settings.model.name}\` (${settings.model.provider}).`;
          break;
        }
        const rate = s.usage.inputTokens ? Math.round((100 * s.usage.cachedTokens) / s.usage.inputTokens) : 0;
        text = [
          `**Session** \`${s.id}\` (started ${new Date(s.startedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
          `**Model** \`${settings.model.name}\` (${settings.model.provider})`,
          `**Prompt** sha256 \`${s.promptSha256.slice(0, 16)}\`, ${s.prompt.length} chars, rebuilt ${s.promptRebuilds}×`,
          `**Cache** ${rate}% of input tokens served from the prompt cache over ${s.requests} request(s)`,
          `**Busy** ${this.queues.isRunning(key) ? 'yes, an answer is being written' : 'no'}`,
        ].join('\n');
        break;
      }
      case 'usage': {
        const s = store.sessions.findOpen(key);
        const total = store.sessions.usageByPerson(person);
        const fmt = (u: { inputTokens: number; outputTokens: number; cachedTokens: number }) =>
          `${u.inputTokens} in (${u.cachedTokens} cached, ${u.inputTokens ? Math.round((100 * u.cachedTokens) / u.inputTokens) : 0}%), ${u.outputTokens} out`;
        text = [
          `**This conversation**: ${s ? fmt(s.usage) : 'nothing yet'}`,
          `**All your conversations** (${total.sessions}): ${fmt(total)}`,
        ].join('\n');
        break;
      }
    }
    // Commands are answered at once; their journal row is done in the same transaction as the reply.
    store.transaction(() => {
      if (text !== null) this.reply(message.replyTarget, text, key);
      store.inbound.mark(message.platform, message.updateId, 'done');
    });
  }

  private dispatch(key: string, message: InboundMessage): void {
    const verdict = this.queues.offer(key, message);
    if (verdict === 'queued') return;
    if (verdict === 'full') {
      this.deps.store.transaction(() => {
        this.reply(message.replyTarget, 'I am still busy with your earlier messages. Please wait for my answer, then send this again.', key);
        this.deps.store.inbound.mark(message.platform, message.updateId, 'refused');
      });
      return;
    }
    const p = this.runSession(key, [message]).finally(() => this.running.delete(p));
    this.running.add(p);
  }

  private async runSession(key: string, first: InboundMessage[]): Promise<void> {
    let batch: InboundMessage[] | null = first;
    while (batch) {
      const release = await this.slots.acquire();
      try {
        await this.runTurn(key, batch);
      } finally {
        release();
      }
      batch = this.queues.next(key);
      if (batch && this.stopping) return; // left journaled for the next start
    }
  }

  private async runTurn(key: string, batch: InboundMessage[]): Promise<void> {
    const { store, agent, settings, logger } = this.deps;
    const last = batch[batch.length - 1];
    const target = last.replyTarget;
    const person = personKey(settings.config, last.platform, last.userId);
    const signal = this.queues.signal(key);
    const userContent = formatBatch(batch);
    const adapter = this.deps.adapter(target.platform);
    const typing = adapter?.sendTyping ? this.startTyping(adapter, target) : null;
    const replyAddress = [target.platform, target.chatId, target.threadId].filter(Boolean).join(':');
    try {
      const result = await agent.turn({ sessionKey: key, platform: last.platform, personKey: person, userContent, replyAddress, signal });
      if (signal.aborted && this.stopping) return;
      const answer = result.answer.trim() ? result.answer : '(The model returned an empty answer.)';
      const at = this.now().getTime();
      store.transaction(() => {
        agent.commit(result, person, at);
        this.reply(target, answer, key);
        for (const m of batch) store.inbound.mark(m.platform, m.updateId, 'done');
      });
    } catch (error) {
      if (signal.aborted && this.stopping) return; // journaled; answered after restart
      const stopped = signal.aborted;
      const line = oneLine(error);
      if (!stopped) logger.warn('gateway', `turn for ${key} failed: ${line}`);
      const text = stopped
        ? 'Stopped.'
        : error instanceof ModelError && error.message === HOW_TO_CONFIGURE_MODEL
          ? HOW_TO_CONFIGURE_MODEL
          : `Sorry, I could not answer that (${line}). Your message is saved; please try again in a moment.`;
      this.keepUserMessage(key, last.platform, person, userContent);
      store.transaction(() => {
        this.reply(target, text, key);
        for (const m of batch) store.inbound.mark(m.platform, m.updateId, 'done');
      });
    } finally {
      typing?.stop();
    }
  }

  /** A failed turn still keeps what the user said in the history, so the next turn has it. */
  private keepUserMessage(key: string, platform: PlatformId, person: string, content: string): void {
    const { store, agent } = this.deps;
    try {
      const session = agent.ensureSession(key, platform, person, agent.registry.forRun({ unattended: platform === 'cron' }));
      const at = this.now().getTime();
      store.messages.append(session.id, person, [{ role: 'user', content }], at);
    } catch (error) {
      this.deps.logger.error('gateway', `could not keep the message of ${key}: ${oneLine(error)}`);
    }
  }

  private startTyping(adapter: Adapter, target: DeliveryTarget): { stop(): void } {
    const send = () => void adapter.sendTyping!(target).catch(() => undefined);
    let repeat: NodeJS.Timeout | null = null;
    const first = setTimeout(() => {
      send();
      repeat = setInterval(send, TYPING_EVERY_MS);
      repeat.unref();
    }, TYPING_AFTER_MS);
    first.unref();
    return {
      stop() {
        clearTimeout(first);
        if (repeat) clearInterval(repeat);
      },
    };
  }
}
