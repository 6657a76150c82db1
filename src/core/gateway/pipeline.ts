/**
 * The gateway's intake as a chain of small steps, each `(ctx, next) => verdict`, in the spirit of
 * grammY's composer: a step either decides what becomes of the event (and returns that) or passes
 * it on with `next()`. The chain is journal → addressed → authorize → … → enqueue (see index.ts).
 */
import type { InboundMessage, InboundVerdict } from '../types.js';

/** What the steps know about one inbound event. */
export interface IntakeContext {
  readonly message: InboundMessage;
  /** Opaque session key `platform:chat[:thread]:user`. */
  readonly sessionKey: string;
  /** Memory/search owner of the sender. */
  readonly person: string;
}

export type Next = () => Promise<InboundVerdict>;
export type Step = (ctx: IntakeContext, next: Next) => Promise<InboundVerdict>;

/** Runs `steps` in order; the last `next()` resolves to `fallback`. */
export function compose(steps: readonly Step[], fallback: InboundVerdict = 'ignored'): (ctx: IntakeContext) => Promise<InboundVerdict> {
  return (ctx) => {
    const run = (i: number): Promise<InboundVerdict> => (i < steps.length ? steps[i](ctx, () => run(i + 1)) : Promise.resolve(fallback));
    return run(0);
  };
}
