/**
 * Builds one outgoing e-mail from a Delivery (ARCHITECTURE.md §6b): text/plain always, the HTML
 * alternative when rendered, Message-ID on our own domain, Date, From, and thread headers.
 */
import { createHash } from 'node:crypto';
import type { SendMailOptions } from 'nodemailer';
import type { Delivery } from '../../core/types.js';

/** Subject when neither the renderer nor the text gives one. */
const FALLBACK_SUBJECT = 'Message from Switchboard';
const SUBJECT_CHARS = 120;

/** The domain of the From address (`Name <me@example.com>` → `example.com`), `localhost` if none. */
export function domainOf(from: string): string {
  const match = /@([A-Za-z0-9.-]+)\s*>?\s*$/.exec(from.trim());
  return match ? match[1].toLowerCase() : 'localhost';
}

/**
 * A Message-ID that is stable across retries of the same outbox item, so a receiver can drop a
 * duplicate when a retry follows an ambiguous failure (server accepted, reply lost).
 */
export function messageIdFor(delivery: Delivery, from: string): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([delivery.id, delivery.target.chatId, delivery.message.subject ?? '', delivery.message.chunks[0] ?? '']))
    .digest('hex')
    .slice(0, 20);
  return `<switchboard.${delivery.id}.${digest}@${domainOf(from)}>`;
}

function subjectFrom(delivery: Delivery): string {
  // A reply in a thread keeps the thread's subject (`Re: …`, set by the inbound door).
  const given = (delivery.target.extra?.subject ?? delivery.message.subject)?.replace(/\s+/g, ' ').trim();
  if (given) return given;
  const firstLine = (delivery.message.chunks[0] ?? '').split('\n').find((l) => l.trim())?.trim();
  if (!firstLine) return FALLBACK_SUBJECT;
  return firstLine.length > SUBJECT_CHARS ? `${firstLine.slice(0, SUBJECT_CHARS - 1)}…` : firstLine;
}

/** nodemailer options for the delivery. `text` is chunk 0 (e-mail renders to one chunk; any more are appended). */
export function composeMail(delivery: Delivery, from: string, now: Date): SendMailOptions {
  const { target, message } = delivery;
  const options: SendMailOptions = {
    from,
    to: target.chatId,
    subject: subjectFrom(delivery),
    text: message.chunks.join('\n\n'),
    messageId: messageIdFor(delivery, from),
    date: now,
  };
  if (message.html) options.html = message.html;
  // Files the agent sent (ARCHITECTURE.md §15) as MIME attachments, with their sniffed types.
  const files = delivery.files ?? [];
  if (files.length) {
    options.attachments = files.map((f) => ({ filename: f.name, content: Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength), contentType: f.mime }));
  }
  const inReplyTo = target.extra?.inReplyTo;
  const references = target.extra?.references;
  if (inReplyTo) options.inReplyTo = inReplyTo;
  if (references || inReplyTo) options.references = references ?? inReplyTo;
  return options;
}
