/**
 * Webhook transport: grammY's webhookCallback on node:http, checking Telegram's
 * `X-Telegram-Bot-Api-Secret-Token` header (401 otherwise).
 *
 * The HTTP answer is Telegram's confirmation: 200 only after the handler took the update; a failure
 * (or a request arriving while stopping) answers 500/503 so Telegram delivers the update again.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookCallback, type Bot } from 'grammy/web';
import type { Logger } from '../../core/logger.js';
import { handlerFailure } from './errors.js';

export interface WebhookServerOptions {
  bot: Bot;
  /** Path part of the public webhook URL; other paths get 404. */
  path: string;
  host: string;
  port: number;
  secretToken: string;
  logger: Logger;
}

export interface WebhookServer {
  readonly port: number;
  /** Stops accepting updates; requests still running get up to `graceMs`, then their sockets close unanswered. */
  close(graceMs: number): Promise<void>;
}

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const { logger } = options;
  const callback = webhookCallback(options.bot, 'http', { secretToken: options.secretToken, onTimeout: 'throw', timeoutMilliseconds: 10_000 });
  let stopping = false;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== options.path) {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    if (stopping) {
      res.writeHead(503).end();
      return;
    }
    callback(req, res).catch((error: unknown) => {
      logger.error('telegram', `webhook update not taken, Telegram will send it again: ${handlerFailure(error)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  logger.info('telegram', `webhook listening on ${options.host}:${port}${options.path}`);
  return {
    port,
    async close(graceMs) {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
      server.closeAllConnections();
      await closed;
    },
  };
}
