/**
 * Slack door on @slack/bolt. HTTP mode (Bolt's HTTPReceiver, `/slack/events`, signed requests) on
 * SLACK_PORT, or Socket Mode when an app token is set. Translates slash commands, DMs, mentions and
 * channel messages (`mentionsBot: false`; the core answers them only where `require_mention: false`)
 * into InboundMessages and delivers rendered mrkdwn chunks; all policy stays in the core.
 */
import { slackFetcher } from './attachments.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, SocketModeReceiver } from './bolt.js';
import type { RespondFn } from '@slack/bolt';
import { type SocketModeWatch, watchSocketMode } from './socket-state.js';
import { refuseFutureTimestamps } from './timestamp.js';
import { ackAfterHandOver, type SlackEventEmitter } from './socket-ack.js';
import { ConfigError, CredentialsError, oneLine, PlatformApiError, SwitchboardError } from '../../core/errors.js';
import { PLATFORM_HINTS } from '../../core/prompt/hints.js';
import type { SlackSettings } from '../../core/settings.js';
import type { Adapter, InboundHandler, InboundMessage, InboundVerdict } from '../../core/types.js';
import type { AdapterDeps } from '../deps.js';
import { slackStreaming } from './stream.js';
import { boltLogger, createWebClient, type LogHold, slackApiBase, webClientOptions } from './client.js';
import { AUTH_ERRORS, credentialsError, isEndpointFailure, slackErrorCode, startCallFailure, toPlatformError } from './errors.js';
import { type Decoded, decodeCommand, decodeMentionEvent, decodeMessageEvent } from './inbound.js';
import { createSender, noUnfurl, slackPromptRef } from './send.js';
import { createDisplayNames } from './users.js';
import { APPROVAL_ACTION_IDS, closedPrompt, decodeBlockAction } from './actions.js';
import { PromptRefs } from '../../core/approvals/prompt-refs.js';

/** Bolt's default endpoint for events, commands and interactions. */
export const SLACK_EVENTS_PATH = '/slack/events';
/** What a person sees at once after a slash command, while the model works. */
export const WORKING_NOTE = '_Working on it…_';
/** A slash command is acknowledged within this, whatever the hand-over is doing (Slack allows 3 s). */
const ACK_WITHIN_MS = 500;
/** An event is answered 200 once journaled, or after this at the latest (Slack allows 3 s, then redelivers). */
const EVENT_ACK_WITHIN_MS = 2_500;
/** How long stop() waits for open HTTP requests before cutting them. */
const STOP_GRACE_MS = 2_000;
/** How long start() waits for a Socket Mode connection. */
const SOCKET_CONNECT_TIMEOUT_MS = 30_000;

/** `work`'s outcome, or 'late' once `ms` passed first (the work goes on; the timer does not outlive the race). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The Slack adapter, plus what the gateway may want to log. */
export interface SlackAdapter extends Adapter {
  /** `http` (signed requests on SLACK_PORT) or `socket` (SLACK_APP_TOKEN set). */
  readonly mode: 'http' | 'socket';
  /** The port the HTTP receiver is bound to once started (SLACK_PORT may be 0); undefined otherwise. */
  readonly port: number | undefined;
  /** The bot's own user id from auth.test, once started. */
  readonly botUserId: string | undefined;
}

interface BotIdentity {
  botUserId?: string;
  botId?: string;
  teamId?: string;
}

export function createSlackAdapter(settings: SlackSettings, deps: AdapterDeps): SlackAdapter {
  const { logger } = deps;
  const now = deps.now ?? (() => new Date());
  const mode: 'http' | 'socket' = settings.appToken ? 'socket' : 'http';
  const clientOpts = { apiUrl: settings.apiUrl, logger };
  const client = createWebClient(settings.botToken, clientOpts);
  // Name look-ups are best effort: no retries, short timeout.
  const lookupClient = createWebClient(settings.botToken, { ...clientOpts, retries: 0, timeoutMs: 3_000 });
  const names = createDisplayNames(lookupClient, logger, now);
  const prompts = new PromptRefs(slackPromptRef);
  const deliver = createSender({ client, logger, now, promptSent: (id, ref) => prompts.set(id, ref) });
  const command = deps.config.slack.command;
  const responseType = deps.config.slack.command_response;

  let app: App | undefined;
  let server: Server | undefined;
  let identity: BotIdentity = {};
  // Bolt's warnings and errors while start() waits go to debug: start() reports the outcome itself.
  let starting = false;
  // Socket Mode: the connection's state after start (`problem()`, `/readyz`), from its client's events.
  let socketWatch: SocketModeWatch | undefined;
  let socketClient: SocketModeReceiver['client'] | undefined;
  const startHold: LogHold = { held: () => starting, seen: (text) => socketWatch?.note(text) };
  const inFlight = new Set<Promise<unknown>>();

  function boundPort(): number | undefined {
    const address = server?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : undefined;
  }

  async function authTest(): Promise<BotIdentity> {
    try {
      const res = await client.auth.test();
      return { botUserId: res.user_id, botId: res.bot_id, teamId: res.team_id };
    } catch (error) {
      const code = slackErrorCode(error);
      if (code && AUTH_ERRORS.has(code)) throw credentialsError('SLACK_BOT_TOKEN', code);
      throw startCallFailure('auth.test', error, slackApiBase(settings.apiUrl));
    }
  }

  /** Keeps work that may go on after Slack's answer in flight (stop waits for it); a failure is logged as `failed`. */
  function track<T>(work: Promise<T>, failed: string): Promise<T | void> {
    const run: Promise<T | void> = work
      .catch((error: unknown) => logger.error('slack', `${failed}: ${oneLine(error)}`))
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
    return run;
  }

  function dispatch(decoded: Decoded, handler: InboundHandler, lookupName: boolean): Promise<InboundVerdict | void> {
    if (!decoded.ok) {
      const log = decoded.reason.startsWith('malformed') ? logger.warn : logger.debug;
      log('slack', `ignored: ${decoded.reason}`);
      return Promise.resolve();
    }
    // No check for a stop here: what reaches a listener was (events) or is about to be (commands)
    // acknowledged to Slack, which will not send it again, so it is handed over even while stopping.
    const message: InboundMessage = decoded.message;
    // Handed over at once, with the name only if it is known: a look-up first would let a later message,
    // posted to another instance, reach the journal first (ARCHITECTURE.md §9). Where the name shows
    // (channels), it is looked up meanwhile and the turn asks for it (`senderName`).
    if (lookupName && message.displayName === undefined) {
      const known = names.cached(message.userId);
      if (known) message.displayName = known.name;
      else if (!message.isDirect) names.prefetch(message.userId);
    }
    return track(handler(message), `handing over ${message.updateId} failed`);
  }

  function buildApp(handler: InboundHandler): App {
    const bolt = boltLogger(logger, 'slack', startHold);
    const options = webClientOptions(clientOpts);
    // A fixed authorize instead of `token`: Bolt then never repeats auth.test (start did it once).
    const authorize = async () => ({ botToken: settings.botToken, botId: identity.botId, botUserId: identity.botUserId, teamId: identity.teamId });
    const common = { authorize, logger: bolt, clientOptions: options, convoStore: false as const, ignoreSelf: true };
    // The Socket Mode receiver as App would build it (same client options), kept to watch its client.
    const socketReceiver = mode === 'socket' ? new SocketModeReceiver({ appToken: settings.appToken ?? '', logger: bolt, installerOptions: { clientOptions: options } }) : undefined;
    socketClient = socketReceiver?.client;
    if (socketClient && !ackAfterHandOver(socketClient as unknown as SlackEventEmitter)) {
      logger.warn('slack', 'Socket Mode: envelopes are acknowledged on receipt (this Bolt version registers its listener differently)');
    }
    const instance =
      socketReceiver
        ? new App({ ...common, socketMode: true, receiver: socketReceiver })
        : new App({
            ...common,
            // processBeforeResponse true: the HTTP answer goes out when the listener returns, so an event is
            // answered 200 only once it is journaled (ARCHITECTURE.md §1), as Telegram's offset is confirmed.
            // Two instances then journal a session's messages in the order Slack had them answered. The
            // listeners return within Slack's 3 s whatever the hand-over does (`within`).
            receiver: refuseFutureTimestamps(new HTTPReceiver({
              signingSecret: settings.signingSecret ?? '',
              endpoints: SLACK_EVENTS_PATH,
              logger: bolt,
              processBeforeResponse: true,
              // A signed request Bolt cannot process (malformed payload) is logged and answered 200:
              // a 500 or 404 would only make Slack deliver the same junk again.
              processEventErrorHandler: async ({ error, response }) => {
                logger.warn('slack', `rejected a request Bolt could not process: ${oneLine(error)}`);
                if (!response.headersSent) {
                  response.writeHead(200);
                  response.end();
                }
                return true;
              },
              unhandledRequestHandler: ({ response }) => {
                logger.warn('slack', 'rejected a signed request that no handler took (unknown payload type)');
                if (!response.headersSent) {
                  response.writeHead(200);
                  response.end();
                }
              },
            }), now),
          });

    const ctx = () => ({ botUserId: identity.botUserId, botId: identity.botId, now: now() });

    instance.command(command, async ({ ack, body }) => {
      const decoded = decodeCommand(body, ctx(), responseType);
      if (!decoded.ok) {
        await ack({ response_type: 'ephemeral', text: 'Sorry, I could not read that command.' });
        logger.warn('slack', `ignored: ${decoded.reason}`);
        return;
      }
      if (decoded.message.text === '') {
        await ack({ response_type: 'ephemeral', text: `Usage: ${command} <your question>` });
        return;
      }
      // Slack gives 3 s. Handing over only journals the command (milliseconds), so ack right after,
      // knowing whether it was taken: a refused sender then sees the one refusal line, not a
      // "working on it" too. If handing over is slow for once, ack anyway before the deadline.
      const handed = dispatch(decoded, handler, false);
      const verdict = await within(handed, ACK_WITHIN_MS);
      if (verdict === 'refused') await ack();
      else await ack({ response_type: 'ephemeral', text: WORKING_NOTE });
      // Not awaited: the answer goes out when this listener returns; `dispatch` keeps the hand-over in flight.
    });
    // Another command routed to this app (e.g. renamed in Slack but not in config): say so at once
    // instead of letting Slack show "dispatch_failed" after 3 s.
    instance.command(/^\//, async ({ ack, body }) => {
      if (body.command === command) return;
      logger.warn('slack', `slash command ${body.command} is not the configured ${command} (config: slack.command)`);
      await ack({ response_type: 'ephemeral', text: `This bot answers ${command}; ${body.command} is not set up here.` });
    });
    instance.event('message', async ({ body, context }) => {
      if (context.retryNum) logger.debug('slack', `redelivery ${context.retryNum} of ${String((body as { event_id?: unknown }).event_id)}`);
      await within(dispatch(decodeMessageEvent(body, ctx()), handler, true), EVENT_ACK_WITHIN_MS);
    });
    instance.event('app_mention', async ({ body, context }) => {
      if (context.retryNum) logger.debug('slack', `redelivery ${context.retryNum} of ${String((body as { event_id?: unknown }).event_id)}`);
      await within(dispatch(decodeMentionEvent(body, ctx()), handler, true), EVENT_ACK_WITHIN_MS);
    });
    // Approval buttons (ARCHITECTURE.md §16): acknowledged at once; the core decides; the presser sees one
    // ephemeral line, and a press that decided the approval replaces the prompt (buttons gone) through
    // the interaction's response_url.
    instance.action({ type: 'block_actions', action_id: APPROVAL_ACTION_IDS }, async ({ ack, body, respond }) => {
      await ack();
      // The answer is decided after the press is acknowledged (the 200 goes out when the listener returns).
      void track(answerPress(body, respond), 'answering an approval press failed');
    });
    async function answerPress(body: Parameters<typeof decodeBlockAction>[0], respond: RespondFn): Promise<void> {
      const decoded = decodeBlockAction(body);
      if (!decoded.ok) {
        logger.warn('slack', `ignored: ${decoded.reason}`);
        return;
      }
      const outcome = handler.action ? await handler.action(decoded.action) : { status: 'unknown' as const, text: 'Approvals are not answered here.' };
      try {
        if (outcome.resolved || outcome.status === 'answered') prompts.take(decoded.action.approvalId);
        if (outcome.resolved) {
          const text = `${decoded.messageText ?? 'Approval'}\n\n*${outcome.resolved}*`;
          // The prompt shows the model's arguments: no unfurl of a URL among them (§17).
          await respond({ replace_original: true, text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: text.slice(0, 3000) } }], unfurl_links: false, unfurl_media: false });
        } else {
          await respond({ response_type: 'ephemeral', replace_original: false, text: outcome.text });
        }
      } catch (error) {
        logger.warn('slack', `could not update the approval prompt: ${oneLine(error)}`);
      }
    }
    // Listener errors are logged; they never take the process down or leak to Slack.
    instance.error(async (error) => {
      logger.error('slack', oneLine(error));
    });
    return instance;
  }

  async function startHttp(instance: App): Promise<void> {
    try {
      server = await instance.start(settings.port);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new ConfigError(`SLACK_PORT ${settings.port} is already in use; pick another port`);
      if (code === 'EACCES') throw new ConfigError(`SLACK_PORT ${settings.port} needs privileges; pick a port above 1023`);
      throw error;
    }
  }

  async function startSocket(instance: App): Promise<void> {
    // The Socket Mode client retries a failing connection forever; start() must answer instead.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          const last = startHold.last ? ` (last: ${startHold.last})` : '';
          reject(new PlatformApiError({ platform: 'slack', method: 'apps.connections.open', message: `no Socket Mode connection within ${SOCKET_CONNECT_TIMEOUT_MS / 1000} s${last}`, retryable: true }));
        },
        SOCKET_CONNECT_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([instance.start(), timeout]);
    } catch (error) {
      await instance.stop().catch(() => undefined);
      const code = slackErrorCode(error);
      if (code && AUTH_ERRORS.has(code)) throw credentialsError('SLACK_APP_TOKEN', code);
      throw startCallFailure('apps.connections.open', error, slackApiBase(settings.apiUrl));
    } finally {
      clearTimeout(timer);
    }
  }

  async function stop(): Promise<void> {
    // Requests already accepted while closing are still handed over (they were acknowledged);
    // the gateway journals them. Only after the transport is closed is anything refused.
    const instance = app;
    app = undefined;
    socketWatch?.stop();
    socketWatch = undefined;
    if (instance) {
      const openServer = server;
      openServer?.closeIdleConnections();
      const cut = openServer ? setTimeout(() => openServer.closeAllConnections(), STOP_GRACE_MS) : undefined;
      try {
        await instance.stop();
      } catch (error) {
        logger.warn('slack', `stopping: ${oneLine(error)}`);
      } finally {
        clearTimeout(cut);
        server = undefined;
      }
    }
    // Messages already being handed over may finish (nothing acknowledged is lost), within bounds.
    if (inFlight.size > 0) {
      const outcome = await within(Promise.allSettled([...inFlight]), STOP_GRACE_MS);
      if (outcome === 'late') logger.warn('slack', `${inFlight.size} message(s) were still being handed over at stop`);
    }
  }

  return {
    platform: 'slack',
    profile: PLATFORM_HINTS.slack,
    mode,
    get port() {
      return boundPort();
    },
    get botUserId() {
      return identity.botUserId;
    },

    async start(handler) {
      if (app) throw new SwitchboardError('usage', 'the Slack adapter is already started');
      if (mode === 'http' && !settings.signingSecret) {
        throw new CredentialsError('SLACK_SIGNING_SECRET is not set: HTTP mode needs it to verify requests (or set SLACK_APP_TOKEN for Socket Mode)');
      }
      identity = await authTest();
      const instance = buildApp(handler);
      starting = true;
      startHold.last = undefined;
      try {
        if (mode === 'http') await startHttp(instance);
        else await startSocket(instance);
      } finally {
        starting = false;
      }
      app = instance;
      if (socketClient) socketWatch = watchSocketMode(socketClient);
      logger.info('slack', mode === 'http' ? `listening on port ${boundPort()} (${SLACK_EVENTS_PATH})` : 'connected in Socket Mode');
    },

    stop,

    problem() {
      return socketWatch?.problem() ?? null;
    },

    senderName: (userId) => names.lookup(userId),

    async close() {
      // Nothing else to release: the Web API clients send through the global fetch, whose idle
      // keep-alive sockets do not hold the process open.
      await stop();
    },

    deliver,
    /** The prompt closed without a press (expired, answered elsewhere): chat.update with its closing line, buttons gone. */
    async closeApprovalPrompt(approvalId: string, line: string, posted?: unknown): Promise<void> {
      const ref = prompts.take(approvalId, posted);
      if (!ref) return;
      try {
        await client.chat.update(noUnfurl({ channel: ref.channel, ts: ref.ts, ...closedPrompt(ref.text, line) }));
      } catch (error) {
        throw toPlatformError('chat.update', error);
      }
    },
    streaming: slackStreaming(client, () => identity.teamId),
    attachments: slackFetcher(settings.botToken, slackApiBase(settings.apiUrl)),

    async diagnose() {
      const problems: string[] = [];
      if (mode === 'http' && !settings.signingSecret) {
        problems.push('SLACK_SIGNING_SECRET is not set: HTTP mode needs it (Slack app settings → Basic Information → Signing Secret), or set SLACK_APP_TOKEN for Socket Mode');
      }
      if (settings.appToken && !settings.appToken.startsWith('xapp-')) {
        problems.push('SLACK_APP_TOKEN does not look like an app-level token (xapp-…); create one with the connections:write scope');
      }
      try {
        await authTest();
      } catch (error) {
        if (error instanceof CredentialsError) {
          problems.push(`${error.message.replace(/; check.*$/, '')}: use the Bot User OAuth Token (xoxb-…) from OAuth & Permissions`);
        } else if (isEndpointFailure(error)) {
          problems.push(oneLine(error));
        } else {
          problems.push(`Slack Web API at ${slackApiBase(settings.apiUrl)} did not answer auth.test (${oneLine(error)}); check SLACK_API_URL and the network`);
        }
      }
      return problems;
    },
  };
}

