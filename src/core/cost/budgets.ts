/**
 * Daily budgets (ARCHITECTURE.md §18): before a turn calls the model, what this person (or, for a
 * cron run, every cron run together) has spent today (UTC) is read from the stored usage; at or over
 * the budget the turn ends with one line saying so and when it renews, and makes no model call.
 * Other people go on.
 */
import type { AppConfig } from '../config.js';
import type { Store } from '../store/types.js';
import type { PlatformId } from '../../platform/ids.js';
import { costOf, formatUsd, type PriceList } from './pricing.js';

const DAY_MS = 86_400_000;

/** A turn that would start over budget: `line` is what the person is told. */
export class BudgetSpent extends Error {
  constructor(readonly line: string) {
    super(line);
    this.name = 'BudgetSpent';
  }
}

export interface BudgetDeps {
  budgets: AppConfig['budgets'];
  store: Pick<Store, 'messages'>;
  prices: PriceList;
  /** The model of sessions that name none (the configured one). */
  defaultModel: string;
  now: () => Date;
}

export type BudgetCheck = (turn: { personKey: string; platform: PlatformId }) => Promise<void>;

export interface Spent {
  /** Input (cached included) plus output tokens. */
  tokens: number;
  /** USD by the price list; models without a price count 0. */
  usd: number;
  savedUsd: number;
}

/** What one person (or the cron runs) spent on finished turns since `since` (epoch ms). */
export async function spentSince(deps: Omit<BudgetDeps, 'budgets'>, since: number, who: { personKey: string } | { platform: string }): Promise<Spent> {
  const spent: Spent = { tokens: 0, usd: 0, savedUsd: 0 };
  for (const u of await deps.store.messages.usageSince(since, who)) {
    const usage = { inputTokens: Number(u.inputTokens), cachedTokens: Number(u.cachedTokens), outputTokens: Number(u.outputTokens) };
    spent.tokens += usage.inputTokens + usage.outputTokens;
    const price = deps.prices(u.model ?? deps.defaultModel);
    if (!price) continue;
    const c = costOf(usage, price);
    spent.usd += c.usd;
    spent.savedUsd += c.savedUsd;
  }
  return spent;
}

/** Today's (UTC) spending. */
export function spentToday(deps: Omit<BudgetDeps, 'budgets'>, who: { personKey: string } | { platform: string }): Promise<Spent> {
  return spentSince(deps, Math.floor(deps.now().getTime() / DAY_MS) * DAY_MS, who);
}

type Budget = NonNullable<AppConfig['budgets']['person']>;

/** "; budget left today: 12,000 tokens, $0.42" — what /usage and the console say of a budget. */
export function budgetLeft(budget: Budget, today: Spent): string {
  const parts: string[] = [];
  if (budget.daily_tokens !== undefined) parts.push(`${Math.max(0, budget.daily_tokens - today.tokens).toLocaleString('en-US')} tokens`);
  if (budget.daily_usd !== undefined) parts.push(formatUsd(Math.max(0, budget.daily_usd - today.usd)));
  return parts.length ? `; budget left today: ${parts.join(', ')}` : '';
}

export function createBudgetCheck(deps: BudgetDeps): BudgetCheck | undefined {
  const { person, cron } = deps.budgets;
  if (!person && !cron) return undefined;
  return async ({ personKey, platform }) => {
    const isCron = platform === 'cron';
    const budget = isCron ? cron : person;
    if (!budget) return;
    const spent = await spentToday(deps, isCron ? { platform: 'cron' } : { personKey });
    const over =
      budget.daily_tokens !== undefined && spent.tokens >= budget.daily_tokens
        ? `${budget.daily_tokens.toLocaleString('en-US')} tokens`
        : budget.daily_usd !== undefined && spent.usd >= budget.daily_usd
          ? formatUsd(budget.daily_usd)
          : null;
    if (!over) return;
    const renews = renewsIn(deps.now());
    throw new BudgetSpent(
      isCron
        ? `The daily budget for scheduled runs (${over}) is spent; it renews at 00:00 UTC, in ${renews}.`
        : `Your daily budget (${over}) is spent, so I cannot answer now; it renews at 00:00 UTC, in ${renews}.`,
    );
  };
}

/** "5 h 12 min" until the next 00:00 UTC. */
function renewsIn(now: Date): string {
  const ms = DAY_MS - (now.getTime() % DAY_MS);
  const minutes = Math.ceil(ms / 60_000);
  const h = Math.floor(minutes / 60);
  return h ? `${h} h ${minutes % 60} min` : `${minutes} min`;
}
