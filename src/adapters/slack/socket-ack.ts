/**
 * Socket Mode confirms an envelope once it is journaled, as HTTP mode does (ARCHITECTURE.md §1). Bolt's
 * Socket Mode receiver acknowledges an Events API envelope before its listeners run, so two instances on
 * one app (Slack spreads envelopes over their connections) could journal one conversation's messages out
 * of the order Slack had them confirmed. This wraps the receiver's one `slack_event` listener: the ack
 * Bolt gives is held until the listener (and so the door's hand-over, bounded within Slack's 3 s) is
 * done, then sent with the body Bolt gave it. An envelope nobody acknowledged stays unacknowledged, as
 * without the wrap (Slack sends it again).
 */

/** What this needs of the Socket Mode client (an EventEmitter3 emitter). */
export interface SlackEventEmitter {
  listeners(event: 'slack_event'): Array<(...args: never[]) => unknown>;
  removeListener(event: 'slack_event', listener: (...args: never[]) => unknown): unknown;
  on(event: 'slack_event', listener: (args: SlackEventArgs) => Promise<void>): unknown;
}

/** The part of the Socket Mode client's `slack_event` argument this touches. */
export interface SlackEventArgs {
  ack: (response?: Record<string, unknown>) => Promise<void>;
}

/** False (nothing changed) when the client does not have exactly one such listener, i.e. Bolt changed. */
export function ackAfterHandOver(client: SlackEventEmitter): boolean {
  const listeners = client.listeners('slack_event');
  if (listeners.length !== 1) return false;
  const receiverListener = listeners[0] as unknown as (args: SlackEventArgs) => Promise<void>;
  client.removeListener('slack_event', listeners[0]);
  client.on('slack_event', async (args) => {
    let held: { response?: Record<string, unknown> } | undefined;
    const hold = async (response?: Record<string, unknown>) => {
      held ??= { response };
    };
    try {
      await receiverListener({ ...args, ack: hold });
    } finally {
      if (held) await args.ack(held.response);
    }
  });
  return true;
}
