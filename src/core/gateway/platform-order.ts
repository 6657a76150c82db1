/**
 * The order a session's pending messages are answered in (ARCHITECTURE.md §9): the platform's own
 * (`sentAt`, Slack's `ts`) where the door knows it, else when they were received. Several instances
 * that receive a session's messages within milliseconds journal them in whatever order their
 * hand-overs end; the platform's time puts them back in the order the person sent them.
 */
import type { InboundMessage } from '../types.js';

const orderOf = (m: InboundMessage): number => m.sentAt ?? m.receivedAt.getTime();

/** The messages sorted by platform time (stable: equal times keep the journal's order). */
export function inPlatformOrder(messages: InboundMessage[]): InboundMessage[] {
  return messages.slice().sort((a, b) => orderOf(a) - orderOf(b));
}
