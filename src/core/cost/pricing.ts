/**
 * What model calls cost (ARCHITECTURE.md §18): the provider's reported usage times the price per
 * million tokens of the model. Defaults for common OpenAI and Anthropic models; `pricing:` in the
 * config adds models or overrides these. A model with no price has no cost (shown as unknown).
 */
import type { ModelPrice } from '../config.js';
import type { Usage } from '../messages.js';

/** USD per million tokens (list prices; override under `pricing:` when yours differ). */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o': { input: 2.5, cached_input: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cached_input: 0.075, output: 0.6 },
  'gpt-4.1': { input: 2, cached_input: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cached_input: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cached_input: 0.025, output: 0.4 },
  'gpt-5': { input: 1.25, cached_input: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cached_input: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cached_input: 0.005, output: 0.4 },
  o3: { input: 2, cached_input: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cached_input: 0.275, output: 4.4 },
  'claude-opus-4': { input: 15, cached_input: 1.5, output: 75 },
  'claude-opus-4-1': { input: 15, cached_input: 1.5, output: 75 },
  'claude-opus-4-5': { input: 5, cached_input: 0.5, output: 25 },
  'claude-sonnet-4': { input: 3, cached_input: 0.3, output: 15 },
  'claude-sonnet-4-5': { input: 3, cached_input: 0.3, output: 15 },
  'claude-3-7-sonnet': { input: 3, cached_input: 0.3, output: 15 },
  'claude-3-5-sonnet': { input: 3, cached_input: 0.3, output: 15 },
  'claude-haiku-4-5': { input: 1, cached_input: 0.1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, cached_input: 0.08, output: 4 },
  'claude-3-haiku': { input: 0.25, cached_input: 0.03, output: 1.25 },
};

export interface Cost {
  /** What the calls cost, in USD. */
  usd: number;
  /** What the prompt cache saved: the cached tokens at the full input price, less what they cost. */
  savedUsd: number;
}

export type PriceList = (model: string) => ModelPrice | undefined;

/**
 * The price of a model: the configured or default entry of that exact name, else of the longest name
 * it starts with followed by `-` (`gpt-4o-2024-08-06` is `gpt-4o`; `gpt-4o-mini` stays `gpt-4o-mini`).
 * A provider prefix (`openai/gpt-4o` on OpenRouter) is ignored.
 */
export function priceList(configured: Readonly<Record<string, ModelPrice>>): PriceList {
  const table = new Map(Object.entries({ ...DEFAULT_PRICES, ...configured }));
  const names = [...table.keys()].sort((a, b) => b.length - a.length);
  const known = new Map<string, ModelPrice | undefined>();
  return (model) => {
    if (known.has(model)) return known.get(model);
    const bare = table.has(model) ? model : model.slice(model.lastIndexOf('/') + 1);
    const name = table.has(bare) ? bare : names.find((n) => bare.startsWith(`${n}-`));
    const price = name === undefined ? undefined : table.get(name);
    known.set(model, price);
    return price;
  };
}

/** The arithmetic: uncached input, cached input and output tokens, each at its price per million. */
export function costOf(usage: Pick<Usage, 'inputTokens' | 'cachedTokens' | 'outputTokens'>, price: ModelPrice): Cost {
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const cachedPrice = price.cached_input ?? price.input;
  const usd = ((usage.inputTokens - cached) * price.input + cached * cachedPrice + usage.outputTokens * price.output) / 1e6;
  return { usd, savedUsd: (cached * (price.input - cachedPrice)) / 1e6 };
}

/** `$0.0123` — four significant places for small amounts, cents for large ones. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  return `$${usd.toPrecision(3).replace(/0+$/, '').replace(/\.$/, '')}`;
}

const lists = new WeakMap<object, PriceList>();

/** The price list of a loaded config (`pricing:` over the defaults), made once per config. */
export function pricesOf(config: { pricing: Readonly<Record<string, ModelPrice>> }): PriceList {
  let list = lists.get(config);
  if (!list) lists.set(config, (list = priceList(config.pricing)));
  return list;
}
