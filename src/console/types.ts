import type { PriceList } from '../core/cost/pricing.js';
import type { AppConfig } from '../core/config.js';
/**
 * What the web console (ARCHITECTURE.md §12) is given. It builds nothing of its own: the store, the cron
 * actions and the door states come in as arguments from the process that serves it (`start` or
 * `console`), so tests and the benchmark hand it whatever they have.
 */
import type { Store } from '../core/store/types.js';
import type { Address } from '../platform/address.js';
import type { ActionOutcome } from '../core/types.js';

/** How a door is doing, as the serving process knows it. `standby`: another instance holds its lease. */
export type DoorState = 'running' | 'starting' | 'standby' | 'stopped' | 'failed';

export interface DoorStatus {
  platform: string;
  state: DoorState;
  /** One short line (why it stopped, who holds the lease); never a secret. */
  detail?: string;
}

/** An MCP server as the serving process knows it (ARCHITECTURE.md §16). */
export interface McpServerView {
  name: string;
  state: string;
  transport: string;
  tools: readonly string[];
  /** Why it is not ready; never a secret (header values are not in it). */
  problem?: string;
}

/** The outcome of "run now", as the page shows it. */
export interface RunNowResult {
  ok: boolean;
  detail: string;
}

export interface ConsoleCosts {
  prices: PriceList;
  defaultModel: string;
  budgets: AppConfig['budgets'];
}

export interface ConsoleDeps {
  store: Store;
  /** The access token (explicit or from console.token). */
  token: string;
  /** Values that must never appear in a page or an answer (settings.secrets); scrubbed from every body. */
  secrets: readonly string[];
  /** Door states now (called for every overview). */
  doors: () => readonly DoorStatus[] | Promise<readonly DoorStatus[]>;
  /** The model label (`gpt-4o-mini (openai)`), or why there is none. */
  model: () => string;
  /** The MCP servers this process runs and their state; absent or empty: none. */
  mcp?: () => readonly McpServerView[];
  cron: {
    /** Next slot of each armed job (epoch ms); empty when no scheduler runs here. */
    nextRuns: () => ReadonlyMap<string, number | null>;
    /** Runs a job now and queues its report for delivery (the path `switchboard cron run` takes). */
    runNow: (id: string) => Promise<RunNowResult>;
    /** A job was paused or resumed: the scheduler re-reads the jobs. */
    changed: () => void;
  };
  /**
   * Answers an approval from the console (ARCHITECTURE.md §16): counted once, its turn resumed. Absent where
   * no gateway runs: the page then only lists them.
   */
  answerApproval?: (id: string, decision: 'approved' | 'denied') => Promise<ActionOutcome>;
  /** What model calls cost (ARCHITECTURE.md §18): prices, the model of sessions that name none, the budgets. */
  costs?: ConsoleCosts;
  /** Wakes delivery for a chat (after a retry). */
  kickDelivery: (chat?: Address) => void;
  now?: () => Date;
  /** A small copy of a stored image for the transcript (ARCHITECTURE.md §15); absent: the stored image as it is. */
  thumbnail?: (bytes: Uint8Array) => Promise<{ bytes: Uint8Array; mime: string }>;
  /** Rows per page (sessions, transcript, outbox); default 50. */
  pageSize?: number;
}
