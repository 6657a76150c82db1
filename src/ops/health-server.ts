/**
 * The health server (ARCHITECTURE.md §18) on SWITCHBOARD_HEALTH_PORT (default 8788) and
 * SWITCHBOARD_HEALTH_HOST (default 127.0.0.1): `GET /healthz` 200 while the event loop answers,
 * `GET /readyz` 200 or 503 with what is not ready, `GET /metrics` the Prometheus text. Off loopback,
 * `/metrics` needs `Authorization: Bearer $SWITCHBOARD_METRICS_TOKEN`; the probes never do. Plain
 * node:http: three routes need no framework, and it starts before the app so a probe sees "starting".
 */
import { createServer, type Server } from 'node:http';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Readiness } from './readiness.js';
import type { Metrics } from './metrics.js';

export interface HealthOptions {
  port: number;
  host: string;
  /** Required from every /metrics client when set (and it must be set off loopback). */
  metricsToken?: string;
  readiness: () => Promise<Readiness>;
  metrics: Metrics;
}

export interface HealthServer {
  readonly port: number;
  readonly host: string;
  close(): Promise<void>;
}


const digest = (s: string) => createHash('sha256').update(s).digest();

function authorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
  return timingSafeEqual(digest(given), digest(token));
}

export async function startHealthServer(options: HealthOptions): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain; charset=utf-8', 'method not allowed\n');
    if (path === '/healthz') return send(200, 'application/json', '{"status":"ok"}\n');
    if (path === '/readyz') {
      options.readiness().then(
        (r) => send(r.ready ? 200 : 503, 'application/json', JSON.stringify({ status: r.ready ? 'ready' : 'not ready', ...r }) + '\n'),
        (error: unknown) => send(503, 'application/json', JSON.stringify({ status: 'not ready', problems: { readiness: String(error) } }) + '\n'),
      );
      return;
    }
    if (path === '/metrics') {
      if (!authorized(req.headers.authorization, options.metricsToken)) {
        res.setHeader('www-authenticate', 'Bearer');
        return send(401, 'text/plain; charset=utf-8', 'unauthorized: send Authorization: Bearer $SWITCHBOARD_METRICS_TOKEN\n');
      }
      options.metrics.text().then(
        (text) => send(200, options.metrics.contentType, text),
        (error: unknown) => send(500, 'text/plain; charset=utf-8', `metrics failed: ${String(error)}\n`),
      );
      return;
    }
    send(404, 'text/plain; charset=utf-8', 'not found: /healthz, /readyz, /metrics\n');
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    port: address.port,
    host: options.host,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
