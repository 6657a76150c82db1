import type { InboundMessage } from './types.js';

const MAX_LABEL = 240;

/** Sender-controlled labels: control characters stripped, cut to 240 chars, quotes neutralised. */
export function cleanLabel(value: string): string {
  const stripped = value.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g, ' ').replace(/\s+/g, ' ').trim();
  return [...stripped].slice(0, MAX_LABEL).join('').replace(/"/g, "'");
}

/**
 * The stored user-message text for one inbound message. In groups and channels, where several people
 * talk, the sender's name and the chat title go first as metadata (untrusted labels, in brackets);
 * in a direct chat the text stands alone. Names never enter the system prompt.
 */
export function formatUserContent(message: InboundMessage): string {
  if (message.isDirect) return message.text;
  const labels: string[] = [];
  if (message.displayName) labels.push(`sender: "${cleanLabel(message.displayName)}"`);
  if (message.chatTitle) labels.push(`chat: "${cleanLabel(message.chatTitle)}"`);
  const text = message.text;
  return labels.length ? `[${labels.join('; ')}]\n${text}` : text;
}

/** Several messages that waited behind a running turn, answered together in arrival order. */
export function formatBatch(messages: InboundMessage[]): string {
  return messages.map(formatUserContent).join('\n\n');
}
