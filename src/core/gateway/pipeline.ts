/**
 * The gateway's intake as a chain of small steps, each `(ctx, next) => verdict`, in the spirit of
 * grammY's composer: a step either decides what becomes of the event (and returns that) or passes
 * it on with `next()`. The chain is addressed → journal → authorize → … → enqueue (see index.ts); every
 * step gets the event's turn context (context.ts), built once before the first.
 */
import type { InboundVerdict } from '../types.js';
import type { TurnContext } from './context.js';

export type Next = () => Promise<InboundVerdict>;
export type Step = (ctx: TurnContext, next: Next) => Promise<InboundVerdict>;

/** Runs `steps` in order; the last `next()` resolves to `fallback`. */
export function compose(steps: readonly Step[], fallback: InboundVerdict = 'ignored'): (ctx: TurnContext) => Promise<InboundVerdict> {
  return (ctx) => {
    const run = (i: number): Promise<InboundVerdict> => (i < steps.length ? steps[i](ctx, () => run(i + 1)) : Promise.resolve(fallback));
    return run(0);
  };
}
