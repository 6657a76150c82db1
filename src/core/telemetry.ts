/**
 * What the running gateway tells the outside about itself (ARCHITECTURE.md §18): the core reports
 * events here, and the Prometheus metrics (src/ops/metrics.ts) count them. The core never sees a
 * metrics library; a process without metrics (commands that only inspect, tests) gets NO_TELEMETRY.
 */
import type { PlatformId } from '../platform/ids.js';
import type { Usage } from './messages.js';

export interface Telemetry {
  /** An event a door handed over (before the addressed and allow-list steps). */
  received(platform: PlatformId): void;
  /** A reply (all its chunks) the platform accepted. */
  sent(platform: PlatformId): void;
  /** A turn ended (answered, or its failure told): how long from its start to the stored reply. */
  turn(platform: PlatformId, seconds: number): void;
  /** One model request: its latency and the usage the provider reported. */
  model(model: string, seconds: number, usage: Usage): void;
  /** Something went wrong, by kind (`model`, `delivery`, `door`, `storage`, …). */
  error(kind: string): void;
}

const nothing = (): void => undefined;

export const NO_TELEMETRY: Telemetry = { received: nothing, sent: nothing, turn: nothing, model: nothing, error: nothing };
