/**
 * Slack request freshness. Bolt's signature check refuses a timestamp more than 5 minutes in the
 * past but accepts any in the future, so a signed request captured with a skewed clock (or forged
 * ahead) stays replayable for as long as its timestamp lies ahead. Slack's rule is 5 minutes in
 * either direction; this wrapper adds the future side in front of Bolt's listener.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HTTPReceiver } from './bolt.js';

/** Slack's allowed clock difference, both ways. */
export const SLACK_MAX_SKEW_S = 5 * 60;

/** True when the `x-slack-request-timestamp` header is more than 5 minutes ahead of `nowMs`. */
export function isFutureTimestamp(header: string | string[] | undefined, nowMs: number): boolean {
  if (typeof header !== 'string') return false; // missing or repeated: Bolt refuses it with 401
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds - Math.floor(nowMs / 1000) > SLACK_MAX_SKEW_S;
}

/** Makes `receiver` answer 401 to a request whose timestamp lies more than 5 minutes ahead. */
export function refuseFutureTimestamps(receiver: HTTPReceiver, now: () => Date): HTTPReceiver {
  const listener = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (isFutureTimestamp(req.headers['x-slack-request-timestamp'], now().getTime())) {
      res.writeHead(401);
      res.end();
      return;
    }
    listener(req, res);
  };
  return receiver;
}
