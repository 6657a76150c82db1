/**
 * Oversized user messages (issue 38): a message longer than `gateway.max_message_chars` (default
 * `model.context_window` characters) is cut before it reaches the model or the history, and the reply
 * starts with one line saying so — a 1 MB paste must not fill the context and break the session.
 */
import type { AppConfig } from '../config.js';
import type { InboundMessage } from '../types.js';

/** The longest user message, in characters (UTF-16 units, as JavaScript counts). */
export function maxMessageChars(config: AppConfig): number {
  return config.gateway.max_message_chars ?? config.model.context_window;
}

/** The text cut to `max` characters, never inside a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const n = (value: number) => value.toLocaleString('en-US');

/** One line telling the user their message was cut, and where. */
export function cutNotice(length: number, max: number): string {
  return `_(Your message had ${n(length)} characters, more than the ${n(max)} I take (gateway.max_message_chars); I read only the first ${n(max)}.)_`;
}

/** The batch with every oversized message cut, and the notice lines for the reply (empty when none was). */
export function cutOversized(batch: readonly InboundMessage[], max: number): { batch: InboundMessage[]; notices: string[] } {
  const notices: string[] = [];
  const cut = batch.map((m) => {
    if (m.text.length <= max) return m;
    notices.push(cutNotice(m.text.length, max));
    return { ...m, text: cutText(m.text, max) };
  });
  return { batch: cut, notices };
}
