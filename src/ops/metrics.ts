/**
 * Prometheus metrics (ARCHITECTURE.md §18) with prom-client: counters and histograms fed by the core's
 * Telemetry events, gauges read from the store when scraped (outbox backlog and parked replies, leases,
 * pending approvals), and prom-client's process metrics (resident memory, event-loop lag, heap). One
 * registry per app, so two apps in one process (tests) never share counts. No label carries a secret
 * or anything a user wrote: platforms, model names, kinds.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Telemetry } from '../core/telemetry.js';
import type { Store } from '../core/store/types.js';
import type { Usage } from '../core/messages.js';
import { costOf, type PriceList } from '../core/cost/pricing.js';

export interface MetricsSources {
  /** The app's store once it is open (null before: the gauges then read nothing). */
  store: () => Pick<Store, 'outbox' | 'leases'> | null;
  prices: PriceList;
  /** Approvals waiting for a person's answer. */
  approvalsPending?: () => Promise<number>;
}

export interface Metrics {
  readonly telemetry: Telemetry;
  readonly contentType: string;
  /** The exposition text of every metric. */
  text(): Promise<string>;
}

/** The lease's kind from its name (`door:telegram`, `session:…`, `cron-run:…`). */
const leaseKind = (name: string): string => name.slice(0, Math.max(0, name.indexOf(':'))) || 'other';

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'switchboard_', eventLoopMonitoringPrecision: 20 });
  const registers = [registry];

  const received = new Counter({ name: 'switchboard_messages_received_total', help: 'Events the doors handed over, per platform', labelNames: ['platform'], registers });
  const sent = new Counter({ name: 'switchboard_messages_sent_total', help: 'Replies the platforms accepted, per platform', labelNames: ['platform'], registers });
  const turns = new Histogram({
    name: 'switchboard_turn_duration_seconds',
    help: 'From the start of a turn to its stored reply',
    labelNames: ['platform'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80, 160],
    registers,
  });
  const latency = new Histogram({
    name: 'switchboard_model_latency_seconds',
    help: 'One model request, from asking to the whole answer',
    labelNames: ['model'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80],
    registers,
  });
  const tokens = new Counter({ name: 'switchboard_tokens_total', help: 'Model tokens by kind: input (cached included), cached, output', labelNames: ['kind', 'model'], registers });
  const cost = new Counter({ name: 'switchboard_cost_usd_total', help: 'What the model calls cost, in USD, by the pricing table', labelNames: ['model'], registers });
  const saved = new Counter({ name: 'switchboard_cache_saved_usd_total', help: 'What the prompt cache saved against the same tokens uncached, in USD', labelNames: ['model'], registers });
  const unpriced = new Counter({ name: 'switchboard_unpriced_requests_total', help: 'Model requests of a model with no price (add it under pricing:)', labelNames: ['model'], registers });
  const errors = new Counter({ name: 'switchboard_errors_total', help: 'Errors by kind (model, delivery, budget, …)', labelNames: ['kind'], registers });

  const { store } = sources;
  new Gauge({
    name: 'switchboard_outbox_backlog',
    help: 'Replies waiting to be delivered',
    registers,
    async collect() {
      const s = store();
      if (s) this.set((await s.outbox.counts()).pending);
    },
  });
  new Gauge({
    name: 'switchboard_outbox_parked',
    help: 'Replies that failed for good (retry them in the console)',
    registers,
    async collect() {
      const s = store();
      if (s) this.set((await s.outbox.counts()).failed);
    },
  });
  new Gauge({
    name: 'switchboard_leases',
    help: 'Live leases on the database, by kind and holder (doors, sessions, cron runs)',
    labelNames: ['kind', 'holder'],
    registers,
    async collect() {
      this.reset();
      const now = Date.now();
      for (const lease of (await store()?.leases.list()) ?? []) if (lease.expiresAt > now) this.inc({ kind: leaseKind(lease.name), holder: lease.holder });
    },
  });
  new Gauge({
    name: 'switchboard_approvals_pending',
    help: "Tool calls waiting for a person's yes",
    registers,
    async collect() {
      this.set(sources.approvalsPending ? await sources.approvalsPending() : 0);
    },
  });

  const telemetry: Telemetry = {
    received: (platform) => received.inc({ platform }),
    sent: (platform) => sent.inc({ platform }),
    turn: (platform, seconds) => turns.observe({ platform }, seconds),
    model(model: string, seconds: number, usage: Usage) {
      latency.observe({ model }, seconds);
      tokens.inc({ kind: 'input', model }, usage.inputTokens);
      tokens.inc({ kind: 'cached', model }, usage.cachedTokens);
      tokens.inc({ kind: 'output', model }, usage.outputTokens);
      const price = sources.prices(model);
      if (!price) return unpriced.inc({ model });
      const c = costOf(usage, price);
      cost.inc({ model }, c.usd);
      saved.inc({ model }, c.savedUsd);
    },
    error: (kind) => errors.inc({ kind }),
  };

  return { telemetry, contentType: registry.contentType, text: () => registry.metrics() };
}
