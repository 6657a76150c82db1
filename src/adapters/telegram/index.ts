/**
 * The Telegram door, on grammY: long polling by default, a webhook when `telegram.webhook_url` is
 * configured; inbound updates → InboundMessage (inbound.ts); rendered HTML chunks → sendMessage
 * (send.ts). Policy (who may talk, sessions, commands) is the gateway's.
 */
import { telegramFetcher } from './attachments.js';
import { randomBytes } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Bot } from 'grammy/web';
import { createHttpFetch } from '../../core/http-fetch.js';
import type { Update, UserFromGetMe } from 'grammy/types';
import type { AdapterDeps } from '../deps.js';
import type { TelegramSettings } from '../../core/settings.js';
import { telegramDoor } from '../../platform/doors/telegram.js';
import type { Adapter, Delivery, DeliveryTarget, InboundHandler } from '../../core/types.js';
import { PLATFORM_HINTS } from '../../core/prompt/hints.js';
import { CHAT_COMMANDS } from '../../core/commands.js';
import { getMeFailure, toPlatformError } from './errors.js';
import { toInboundMessage, type BotIdentity } from './inbound.js';
import { closeTelegramPrompt, isCallbackQuery, toInboundAction } from './actions.js';
import { PromptRefs } from '../../core/approvals/prompt-refs.js';
import { telegramHtmlToPlain } from '../../render/index.js';
import { Poller, type AllowedUpdate } from './polling.js';
import { deliverChunks, sendTyping, type SendContext, telegramPromptRef } from './send.js';
import { telegramStreaming } from './stream.js';
import { startWebhookServer, type WebhookServer } from './webhook.js';

export const TELEGRAM_API_ROOT = 'https://api.telegram.org';

/** The command menu: the commands the door's definition offers, with the core's texts (the gateway implements them). */
export const TELEGRAM_COMMANDS = telegramDoor.commands.map((command) => ({ command, description: CHAT_COMMANDS[command] }));

const ALLOWED_UPDATES: readonly AllowedUpdate[] = ['message', 'edited_message', 'callback_query'];

export interface TelegramAdapterDeps extends AdapterDeps {
  /** Known bot identity: skips getMe at start (tests, or a caller that already checked the token). */
  botInfo?: UserFromGetMe;
  /** Waits out 429s; replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Long-poll timeout per getUpdates call (default 30 s). */
  pollTimeoutSeconds?: number;
  /** On stop, how long an update being handed over may still take (default 3 s). */
  stopGraceMs?: number;
  /** Longest `retry_after` waited out inside deliver (default 30 s); longer ones go back to the outbox. */
  maxRetryAfterSeconds?: number;
  /** Interface the webhook server binds (default 0.0.0.0). */
  webhookHost?: string;
}

export interface TelegramAdapter extends Adapter {
  /** The bound webhook port while running in webhook mode. */
  readonly webhookPort: number | undefined;
}

/** Creates the Telegram adapter. No network happens before start()/deliver(). */
export function createTelegramAdapter(settings: TelegramSettings, deps: TelegramAdapterDeps): TelegramAdapter {
  const { logger, config } = deps;
  const apiRoot = (settings.apiRoot ?? TELEGRAM_API_ROOT).replace(/\/+$/, '');
  // The adapter's own keep-alive pools, so close() can end their sockets; grammY sends through them with
  // http-fetch.ts (node:http, no fetch polyfill loaded at start or built per call).
  const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };
  const bot = new Bot(settings.token, { client: { apiRoot, fetch: createHttpFetch(agents) }, botInfo: deps.botInfo });
  const now = deps.now ?? (() => new Date());
  const prompts = new PromptRefs(telegramPromptRef);
  const sendContext: SendContext = {
    api: bot.api,
    token: settings.token,
    logger,
    sleep: deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    maxRetryAfterSeconds: deps.maxRetryAfterSeconds ?? 30,
    maxRateLimitWaits: 5,
    toPlain: telegramHtmlToPlain,
    promptSent: (approvalId, ref) => prompts.set(approvalId, ref),
  };
  let handler: InboundHandler | undefined;
  let accepting = false;
  let poller: Poller | undefined;
  let webhook: WebhookServer | undefined;
  let identity: BotIdentity | undefined;

  /**
   * One update to the gateway. Long polling calls it straight (the door reads only the update, so a
   * grammY Context, with an Api client of its own, built for each would be garbage); the webhook
   * reaches it through grammY's webhookCallback.
   */
  async function onUpdate(update: Update): Promise<void> {
    if (!handler || !identity || !accepting) {
      // Not handed over: throwing keeps the update unconfirmed (polling offset / webhook 5xx).
      throw new Error('adapter is not accepting updates');
    }
    if (isCallbackQuery(update)) return onCallback(update, handler);
    const result = toInboundMessage(update, identity, { handleEdited: config.telegram.handle_edited, now });
    if (result.kind === 'invalid') {
      logger.warn('telegram', `skipping malformed update ${String(update.update_id)}: ${result.reason}`);
      return;
    }
    if (result.kind === 'skip') {
      logger.debug('telegram', `ignoring update ${update.update_id}: ${result.reason}`);
      return;
    }
    await handler(result.message);
  }
  bot.use((ctx) => onUpdate(ctx.update));

  /**
   * A button press (ARCHITECTURE.md §16): the core decides; the presser sees its one line as the query's
   * answer, and a press that decided the approval removes the keyboard. Failing to answer the query or
   * edit the prompt is logged only: the decision is stored already.
   */
  async function onCallback(update: Update, to: InboundHandler): Promise<void> {
    const result = toInboundAction(update);
    if (result.kind === 'other') {
      logger.debug('telegram', `callback query in update ${update.update_id}: ${result.reason}`);
      if (result.queryId) await bot.api.answerCallbackQuery(result.queryId).catch(() => undefined);
      return;
    }
    const outcome = to.action ? await to.action(result.action) : { status: 'unknown' as const, text: 'Approvals are not answered here.' };
    try {
      await bot.api.answerCallbackQuery(result.queryId, { text: outcome.text, show_alert: outcome.status === 'refused' });
      // Decided by this press, or already closed (expired, answered elsewhere) while its buttons stayed: they go.
      if (outcome.resolved || outcome.status === 'answered') prompts.take(result.action.approvalId);
      if ((outcome.resolved || outcome.status === 'answered') && result.message) await bot.api.editMessageReplyMarkup(result.message.chatId, result.message.messageId, { reply_markup: { inline_keyboard: [] } });
    } catch (error) {
      logger.warn('telegram', `could not acknowledge the approval press: ${toPlatformError('answerCallbackQuery', error, settings.token).message}`);
    }
  }

  async function identify(): Promise<UserFromGetMe> {
    if (deps.botInfo) return deps.botInfo;
    try {
      return await bot.api.getMe();
    } catch (error) {
      throw getMeFailure(error, apiRoot, settings.token);
    }
  }

  async function registerCommands(): Promise<void> {
    try {
      await bot.api.setMyCommands(TELEGRAM_COMMANDS);
    } catch (error) {
      logger.warn('telegram', `setMyCommands failed, the command menu may be stale: ${toPlatformError('setMyCommands', error, settings.token).message}`);
    }
  }

  async function startWebhook(url: string): Promise<void> {
    const secretToken = config.telegram.webhook_secret ?? randomBytes(32).toString('hex');
    webhook = await startWebhookServer({
      bot,
      path: new URL(url).pathname || '/',
      host: deps.webhookHost ?? '0.0.0.0',
      port: config.telegram.webhook_port,
      secretToken,
      logger,
    });
    try {
      await bot.api.setWebhook(url, { secret_token: secretToken, allowed_updates: ALLOWED_UPDATES });
    } catch (error) {
      await webhook.close(0);
      webhook = undefined;
      throw toPlatformError('setWebhook', error, settings.token);
    }
  }

  async function startPolling(): Promise<void> {
    try {
      // getUpdates is refused while a webhook is set (e.g. left over from webhook mode); pending updates stay.
      await bot.api.deleteWebhook({ drop_pending_updates: false });
    } catch (error) {
      logger.warn('telegram', `deleteWebhook failed: ${toPlatformError('deleteWebhook', error, settings.token).message}`);
    }
    poller = new Poller({
      api: bot.api,
      token: settings.token,
      logger,
      handle: onUpdate,
      timeoutSeconds: deps.pollTimeoutSeconds ?? 30,
      allowedUpdates: ALLOWED_UPDATES,
      onFatal: () => {
        accepting = false;
      },
    });
    poller.start();
  }

  async function stop(): Promise<void> {
    const grace = deps.stopGraceMs ?? 3000;
    const running = poller;
    const server = webhook;
    poller = undefined;
    webhook = undefined;
    accepting = false;
    // The update being handed over may finish within the grace period; nothing new is taken after.
    await Promise.all([running?.stop(grace), server?.close(grace)]);
    handler = undefined;
  }

  return {
    platform: 'telegram',
    profile: PLATFORM_HINTS.telegram,
    get webhookPort() {
      return webhook?.port;
    },
    // As the door's definition says: long polling has one consumer per bot; a webhook runs everywhere.
    get exclusiveIntake() {
      return telegramDoor.exclusive(settings, config.telegram);
    },

    async start(onMessage: InboundHandler): Promise<void> {
      if (handler) return;
      const me = await identify();
      bot.botInfo = me;
      // Other Bot API servers may leave out the username; mentions then cannot match, replies and commands still do.
      identity = { id: me.id, username: me.username ?? '' };
      handler = onMessage;
      accepting = true;
      await registerCommands();
      const url = config.telegram.webhook_url;
      try {
        if (url) await startWebhook(url);
        else await startPolling();
      } catch (error) {
        accepting = false;
        handler = undefined;
        throw error;
      }
      logger.info('telegram', `connected as @${me.username} (${url ? 'webhook' : 'long polling'})`);
    },

    stop,

    problem(): string | null {
      if (poller) return poller.problem;
      return handler && !accepting ? 'polling stopped (the bot token was refused)' : null;
    },

    async close(): Promise<void> {
      await stop();
      agents['http:'].destroy();
      agents['https:'].destroy();
    },

    deliver(delivery: Delivery): Promise<void> {
      return deliverChunks(sendContext, delivery);
    },

    async closeApprovalPrompt(approvalId: string, text: string, posted?: unknown): Promise<void> {
      const ref = prompts.take(approvalId, posted);
      if (!ref) return;
      try {
        await closeTelegramPrompt(bot.api, ref, text);
      } catch (error) {
        throw toPlatformError('editMessageReplyMarkup', error, settings.token);
      }
    },

    sendTyping(target: DeliveryTarget): Promise<void> {
      return sendTyping(sendContext, target);
    },

    streaming: telegramStreaming(sendContext),
    attachments: telegramFetcher(bot.api, apiRoot, settings.token),

    async diagnose(): Promise<string[]> {
      try {
        const me = await bot.api.getMe();
        return me.is_bot ? [] : ['TELEGRAM_BOT_TOKEN belongs to a user account, not a bot: create a bot with @BotFather'];
      } catch (error) {
        return [getMeFailure(error, apiRoot, settings.token).message];
      }
    },
  };
}
